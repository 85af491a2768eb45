//! Printed payroll receipts: the print of each fixture receipt reads back to exactly the
//! facts `read_cfdi` reads from its XML, through the confusions OCR makes; checks, errors and
//! the XML-wins rule.

mod common;

use common::{dmy, money, print};
use proptest::prelude::*;
use rust_decimal::Decimal;
use score_docs::{
    BankLayout, CfdiFacts, Date, DocErrorCode, DocumentKind, Documento, Fuente, PerfilVerificado, SAT_VERIFICATION_SERVICE,
    profile_from_cfdi, read_cfdi_con, read_document_text, read_printed_receipt, receipts_for_profile, rfc_check_digit_ok,
};
use std::path::PathBuf;

/// A fixture receipt's facts, its certificate chained to the test CA (ca-prueba/ac) that
/// issued the fixtures' certificates.
fn fixture(name: &str) -> CfdiFacts {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents");
    let ac = std::fs::read(dir.join("ca-prueba/ac/AC_PRUEBAS.cer")).expect("test CA");
    let ca = score_docs::CertificadosSat::from_files([("AC_PRUEBAS.cer", ac)]).expect("a CA certificate");
    read_cfdi_con(&std::fs::read(dir.join(name)).expect("fixture"), &ca).expect("fixture reads")
}


/// What Tesseract does to such a print: upper case, accents dropped, some zeros read as O.
fn as_ocr_reads(text: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| match c {
            'á' | 'Á' => 'A',
            'é' | 'É' => 'E',
            'í' | 'Í' => 'I',
            'ó' | 'Ó' => 'O',
            'ú' | 'Ú' | 'ü' => 'U',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    out = out.replace(".00\n", ".O0\n");
    out
}

const RECEIPTS: [&str; 6] = [
    "quincenal-40-infonavit-1.xml",
    "semanal-33-fonacot-2.xml",
    "mensual-40-pensionado-1.xml",
    "cambio-patron-3.xml",
    "subcontratacion-33-ordinaria.xml",
    "finiquito-40-dos-complementos.xml",
];

#[test]
fn the_print_of_each_fixture_reads_back_to_the_xml_facts() {
    for name in RECEIPTS {
        let facts = fixture(name);
        for (fuente, text) in [(Fuente::Pdf, print(&facts)), (Fuente::Ocr, as_ocr_reads(&print(&facts)))] {
            let read = read_printed_receipt(&text, fuente, Decimal::new(91, 2)).unwrap_or_else(|e| panic!("{name} {fuente:?}: {e}\n{text}"));
            // The same facts, seniority included (each fixture's is what its dates give), but
            // paper carries no seal.
            let unsealed = CfdiFacts { sello: score_docs::Sello::impreso(), ..facts.clone() };
            assert_eq!(read.hechos, unsealed, "{name} {fuente:?}\n{text}");
            assert_eq!(read.fuente, fuente);
            assert_eq!(read.confianza, Decimal::new(91, 2));
            let c = &read.comprobaciones;
            assert!(c.uuid_valido && c.percepciones_cuadran && c.neto_cuadra && c.fechas_en_orden, "{name}: {c:?}");
            assert_eq!(c.rfc_emisor_valido, rfc_check_digit_ok(&facts.emisor_rfc));
            assert_eq!(c.rfc_receptor_valido, rfc_check_digit_ok(&facts.receptor_rfc));
            let deductions_add_up = facts.deducciones.iter().map(|d| d.importe).sum::<Decimal>() == facts.total_deducciones;
            assert_eq!(c.deducciones_cuadran, deductions_add_up, "{name}");
            assert_eq!(read.verificado, c.todas());
        }
    }
}

fn valid_facts() -> CfdiFacts {
    let mut f = fixture("quincenal-40-infonavit-1.xml");
    // A worker's RFC whose last character is its check digit (the SAT's test RFC of a person).
    f.receptor_rfc = "CACX7605101P8".to_owned();
    f
}

#[test]
fn a_receipt_is_verified_only_when_every_check_passes() {
    let facts = valid_facts();
    let good = read_printed_receipt(&print(&facts), Fuente::Pdf, Decimal::ONE).expect("reads");
    assert!(good.verificado, "{:?}", good.comprobaciones);
    let json: serde_json::Value = serde_json::from_str(&good.to_json()).expect("json");
    for key in ["uuid", "emisor_rfc", "neto", "deducciones", "fuente", "confianza", "verificado"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["fuente"], "pdf");

    // A wrong RFC check digit, a net pay that does not follow from the totals, dates out of
    // order: each one alone un-verifies the receipt.
    let text = print(&facts);
    let bad_rfc = text.replace("CACX7605101P8", "CACX7605101P9");
    let bad_net = text.replace(&format!("Neto a pagar: {}", money(facts.neto)), "Neto a pagar: $99,999.99");
    let bad_dates = text.replace(&format!("Fecha inicial de pago: {}", dmy(&facts.fecha_inicial_pago)), "Fecha inicial de pago: 20/01/2025");
    for (what, text) in [("rfc", bad_rfc), ("neto", bad_net), ("fechas", bad_dates)] {
        let read = read_printed_receipt(&text, Fuente::Ocr, Decimal::ONE).expect(what);
        assert!(!read.verificado, "{what}: {:?}", read.comprobaciones);
    }
}

#[test]
fn unreadable_and_other_documents_get_stable_codes() {
    let err = |text: &str| read_printed_receipt(text, Fuente::Ocr, Decimal::ONE).expect_err(text).code;
    assert_eq!(err(""), DocErrorCode::DocumentUnreadable);
    assert_eq!(err("  \n \n"), DocErrorCode::DocumentUnreadable);
    assert_eq!(err("Factura de una computadora\nTotal $12,000.00"), DocErrorCode::DocumentNotPayroll);
    let text = print(&valid_facts());
    let no_rfc = text.replace("RFC emisor: EKU9003173C9", "RFC emisor: ilegible");
    let e = read_printed_receipt(&no_rfc, Fuente::Ocr, Decimal::ONE).expect_err("no rfc");
    assert_eq!((e.code, e.field.as_deref()), (DocErrorCode::DocumentUnreadable, Some("emisor_rfc")));
    assert!(e.message.contains("RFC del emisor"), "{}", e.message);
    let no_net: String = text.lines().filter(|l| !l.starts_with("Neto")).collect::<Vec<_>>().join("\n");
    let e = read_printed_receipt(&no_net, Fuente::Ocr, Decimal::ONE).expect_err("no net");
    assert_eq!(e.field.as_deref(), Some("neto"));
}

#[test]
fn the_xml_wins_when_the_uuid_matches() {
    let xml = fixture("quincenal-40-infonavit-1.xml");
    let mut printed_same = read_printed_receipt(&print(&valid_facts()), Fuente::Ocr, Decimal::ONE).expect("reads");
    assert!(printed_same.verificado);
    printed_same.hechos.total_percepciones = Decimal::new(1, 0);
    let other = fixture("quincenal-40-infonavit-2.xml");
    let mut other_facts = other.clone();
    other_facts.receptor_rfc = "CACX7605101P8".to_owned();
    let printed_other = read_printed_receipt(&print(&other_facts), Fuente::Pdf, Decimal::ONE).expect("reads");
    let unverified = read_printed_receipt(&print(&fixture("quincenal-40-infonavit-3.xml")).replace("EKU9003173C9", "EKU9003173C8"), Fuente::Ocr, Decimal::ONE)
        .expect("reads");
    assert!(!unverified.verificado);
    let merged = receipts_for_profile(std::slice::from_ref(&xml), &[printed_same, printed_other.clone(), unverified]);
    assert_eq!(merged, vec![xml, printed_other.hechos]);
}

/// The six INFONAVIT receipts as sealed XML, and as read from their prints.
fn infonavit() -> (Vec<CfdiFacts>, Vec<CfdiFacts>) {
    let xml: Vec<CfdiFacts> = (1..=6).map(|i| fixture(&format!("quincenal-40-infonavit-{i}.xml"))).collect();
    let paper = xml
        .iter()
        .map(|f| read_printed_receipt(&print(f), Fuente::Pdf, Decimal::ONE).expect("reads").hechos)
        .collect();
    (xml, paper)
}

#[test]
fn paper_is_never_verified_and_says_how_to_confirm_it() {
    let reference = Date::parse("2025-04-10").expect("date");
    let (xml, paper) = infonavit();
    let sealed = profile_from_cfdi(&xml, reference).expect("profile");
    assert_eq!(sealed.verificacion.campos, ["estado", "ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "deudas_mensuales"]);
    assert!(sealed.verificacion.campos_impresos.is_empty() && sealed.verificacion.por_confirmar.is_empty());
    assert_eq!(sealed.perfil_impreso, PerfilVerificado::default());

    // Every receipt from paper: the same values, none verified, each receipt to confirm.
    let printed = profile_from_cfdi(&paper, reference).expect("profile");
    assert_eq!(printed.perfil, PerfilVerificado::default(), "paper verifies nothing");
    assert!(printed.verificacion.campos.is_empty());
    assert!(printed.deudas_nomina.is_empty());
    assert_eq!(printed.perfil_impreso, sealed.perfil, "what the paper says is what the XML proves");
    assert_eq!(printed.verificacion.campos_impresos, sealed.verificacion.campos);
    assert!(printed.verificacion.comprobaciones.sellos_validos, "paper is not a broken seal");
    let to_confirm = &printed.verificacion.por_confirmar;
    assert_eq!(to_confirm.len(), 6);
    for (p, x) in to_confirm.iter().zip(&xml) {
        let uuid = x.uuid.clone().expect("stamped");
        assert_eq!((p.recibo.as_str(), p.uuid.as_deref()), (uuid.as_str(), Some(uuid.as_str())));
        assert_eq!((p.emisor_rfc.as_str(), p.receptor_rfc.as_str()), (x.emisor_rfc.as_str(), x.receptor_rfc.as_str()));
        assert!(p.nota.contains(&uuid) && p.nota.contains(SAT_VERIFICATION_SERVICE) && p.nota.contains("XML"), "{}", p.nota);
    }
    // The latest receipt gives state, income type and seniority besides income and debts.
    assert_eq!(to_confirm[5].campos, sealed.verificacion.campos);
    assert_eq!(to_confirm[0].campos, ["ingreso_mensual", "deudas_mensuales"]);
    assert!(printed.verificacion.notas.iter().any(|n| n.contains("se leyeron de papel")), "{:?}", printed.verificacion.notas);

    // One print among sealed XML: the fields it helps prove are read from paper; the others
    // (from the latest receipt, an XML) stay verified.
    let mixed: Vec<CfdiFacts> = std::iter::once(paper[0].clone()).chain(xml[1..].iter().cloned()).collect();
    let mixed = profile_from_cfdi(&mixed, reference).expect("profile");
    assert_eq!(mixed.verificacion.campos, ["estado", "tipo_ingreso", "antiguedad_meses"]);
    assert_eq!(mixed.verificacion.campos_impresos, ["ingreso_mensual", "deudas_mensuales"]);
    assert_eq!(mixed.perfil.ingreso_mensual, None);
    assert_eq!(mixed.perfil_impreso.ingreso_mensual, sealed.perfil.ingreso_mensual);
    assert_eq!(mixed.verificacion.por_confirmar.len(), 1);
    assert_eq!(mixed.verificacion.por_confirmar[0].uuid, xml[0].uuid);

    // The XML of the printed receipt replaces it: verified again.
    let printed_first = read_printed_receipt(&print(&xml[0]), Fuente::Pdf, Decimal::ONE).expect("reads");
    let mut with_rfc = printed_first.clone();
    with_rfc.verificado = true;
    let merged = receipts_for_profile(&xml, &[with_rfc]);
    assert_eq!(profile_from_cfdi(&merged, reference).expect("profile"), sealed);

    // A broken seal outweighs paper: neither verified nor read from paper, and said why.
    let mut broken = xml.clone();
    broken[1].sello = score_docs::Sello::rechazado(score_docs::MotivoSello::SelloInvalido, None, None);
    broken[0] = paper[0].clone();
    let broken = profile_from_cfdi(&broken, reference).expect("profile");
    assert!(!broken.verificacion.campos_impresos.contains(&"ingreso_mensual"));
    assert!(!broken.verificacion.campos.contains(&"ingreso_mensual"));
    assert!(broken.verificacion.notas.iter().any(|n| n.contains("SELLO_INVALIDO")), "{:?}", broken.verificacion.notas);
}

#[test]
fn the_kind_is_told_from_the_text() {
    let layouts = BankLayout::builtin();
    let receipt = read_document_text(&print(&valid_facts()), None, Fuente::Pdf, Decimal::ONE, &layouts).expect("receipt");
    assert!(matches!(receipt, Documento::ReciboNomina(_)));
    assert!(receipt.to_json().starts_with("{\"tipo\":\"recibo_nomina\""));
    let e = read_document_text("Una carta cualquiera", Some(DocumentKind::EstadoCuenta), Fuente::Ocr, Decimal::ONE, &layouts)
        .expect_err("no bank");
    assert_eq!(e.code, DocErrorCode::DocumentUnsupportedType);
    assert_eq!("estado".parse::<DocumentKind>().map_err(|e| e.code), Err(DocErrorCode::DocumentUnsupportedType));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Any text, and any print with characters dropped or changed, gives facts or an error:
    /// never a panic.
    #[test]
    fn no_text_panics(text in "\\PC{0,400}", cut in 0usize..2000, junk in "\\PC{0,8}") {
        let layouts = BankLayout::builtin();
        let _ = read_document_text(&text, None, Fuente::Ocr, Decimal::ONE, &layouts);
        let print = print(&valid_facts());
        let at = print.char_indices().map(|(i, _)| i).nth(cut % print.chars().count()).unwrap_or(0);
        let mangled = format!("{}{junk}{}", &print[..at], &print[at..].chars().skip(3).collect::<String>());
        let _ = read_document_text(&mangled, None, Fuente::Ocr, Decimal::ONE, &layouts);
        let _ = read_document_text(&mangled, Some(DocumentKind::EstadoCuenta), Fuente::Ocr, Decimal::ONE, &layouts);
    }
}

#[test]
fn rfcs_are_found_without_this_readers_labels_by_their_check_digits() {
    // The worker of this fixture has a real RFC (the SAT's sample), so both check digits pass.
    let facts = fixture("quincenal-40-rfc-valido.xml");
    let print = common::print(&facts);
    let relabel = |print: &str, emisor: &str, receptor: &str| {
        print
            .lines()
            .map(|l| {
                if l.starts_with("RFC emisor:") {
                    format!("{emisor}{}     Régimen fiscal: 601", facts.emisor_rfc)
                } else if l.starts_with("RFC receptor:") {
                    format!("{receptor}{}   CURP: {}", facts.receptor_rfc, facts.receptor_curp)
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let layouts = [
        ("Empresa: ESCUELA KEMPER URGATE  R.F.C. ", "Trabajador: MARIA LUISA GARCIA LOPEZ  RFC: "),
        ("Patrón  RFC ", "Empleado  RFC "),
        ("", ""),
    ];
    for (emisor, receptor) in layouts {
        let text = relabel(&print, emisor, receptor);
        assert_ne!(text, print);
        let read = read_printed_receipt(&text, Fuente::Pdf, Decimal::ONE).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!((read.hechos.emisor_rfc.as_str(), read.hechos.receptor_rfc.as_str()), (facts.emisor_rfc.as_str(), facts.receptor_rfc.as_str()), "{text}");
        assert!(read.comprobaciones.rfc_emisor_valido && read.comprobaciones.rfc_receptor_valido);
    }
}

#[test]
fn a_print_without_version_issue_date_or_curp_label_still_reads() {
    let facts = fixture("quincenal-40-rfc-valido.xml");
    let text: String = print(&facts)
        .lines()
        .filter(|l| !l.starts_with("Versión del comprobante"))
        .map(|l| l.replace("CURP: ", "C.U.R.P ").replace("RFC receptor: ", "Trabajador RFC "))
        .collect::<Vec<_>>()
        .join("\n");
    let read = read_printed_receipt(&text, Fuente::Pdf, Decimal::ONE).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Nothing else is guessed: what the print does not show is absent.
    assert_eq!((read.hechos.version, read.hechos.fecha), (None, None));
    assert_eq!(read.hechos.receptor_curp, facts.receptor_curp, "the only CURP-shaped token");
    assert_eq!((read.hechos.uuid, read.hechos.neto), (facts.uuid, facts.neto));
    // Two CURP-shaped tokens and no label: neither is taken.
    let two = text.replace("C.U.R.P ", "Otra: GAML850101MJCRPR09 ");
    let e = read_printed_receipt(&two, Fuente::Pdf, Decimal::ONE).expect_err("ambiguous");
    assert_eq!(e.field.as_deref(), Some("receptor_curp"));
}

#[test]
fn dates_and_period_under_abbreviated_or_reworded_labels() {
    let facts = fixture("quincenal-40-infonavit-1.xml");
    let unsealed = CfdiFacts { sello: score_docs::Sello::impreso(), ..facts.clone() };
    let full = print(&facts);
    assert_eq!(read_printed_receipt(&full, Fuente::Pdf, Decimal::ONE).expect("full labels").hechos, unsealed);
    // As desktop payroll programs abbreviate them: the same facts as the full labels give.
    for short in [
        [("Fecha de pago:", "F. Pago |"), ("Fecha inicial de pago:", "Fec. ini. pago:"), ("Fecha final de pago:", "F. Final:")],
        [("Fecha de pago:", "Fec. de pago"), ("Fecha inicial de pago:", "F. Inicial"), ("Fecha final de pago:", "Fecha fin. pago")],
        [("Fecha de pago:", "Fecha pago:"), ("Entidad federativa:", "Ent. Fed.:"), ("Fecha inicio relación laboral:", "F. Ingreso:")],
    ]
    .into_iter()
    .map(|pairs| pairs.iter().fold(full.clone(), |text, (from, to)| text.replace(from, to)))
    {
        assert_ne!(short, full);
        let read = read_printed_receipt(&short, Fuente::Pdf, Decimal::ONE).unwrap_or_else(|e| panic!("{e}\n{short}"));
        assert_eq!(read.hechos, unsealed, "{short}");
    }
    // A pay date whose label is cut to nothing a reader could tell ("F. P.") is not guessed.
    let cut = full.replace("Fecha de pago:", "F. P.");
    let e = read_printed_receipt(&cut, Fuente::Pdf, Decimal::ONE).expect_err("no pay date label");
    assert_eq!(e.field.as_deref(), Some("fecha_pago"));
}

#[test]
fn every_fixtures_seniority_is_what_its_dates_give() {
    // make_receipts.py computes each receipt's Antigüedad from its start date and its period's
    // end; the print of each reads it back, which the reader does only when the dates give it.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents");
    let mut names: Vec<String> = std::fs::read_dir(&dir).expect("fixtures").filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
    names.retain(|n| n.ends_with(".xml") && !n.starts_with("rechazo-"));
    names.sort();
    let mut checked = 0;
    for name in &names {
        let facts = fixture(name);
        let (Some(_), Some(seniority)) = (&facts.fecha_inicio_rel_laboral, &facts.antiguedad) else { continue };
        let read = read_printed_receipt(&print(&facts), Fuente::Pdf, Decimal::ONE).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(read.hechos.antiguedad.as_ref(), Some(seniority), "{name}");
        checked += 1;
    }
    assert_eq!(checked, 21, "every fixture receipt with a start date and a seniority");
}

#[test]
fn seniority_on_paper_only_when_its_start_date_and_the_periods_end_give_it() {
    // 2019-08-16 to 2025-01-15: 1,980 days counting both ends, 282 whole weeks, as the XML says.
    let facts = fixture("quincenal-40-infonavit-1.xml");
    assert_eq!(facts.antiguedad.as_deref(), Some("P282W"));
    let seniority = |text: &str| read_printed_receipt(text, Fuente::Pdf, Decimal::ONE).unwrap_or_else(|e| panic!("{e}\n{text}")).hechos.antiguedad;
    let text = print(&facts);
    assert_eq!(seniority(&text).as_deref(), Some("P282W"));
    assert_eq!(seniority(&text.replace("P282W", "P5Y4M30D")).as_deref(), Some("P5Y4M30D"), "years, months and days");
    assert_eq!(seniority(&text.replace("P282W", "P5Y4M")), None, "no days");
    // A seniority the dates do not give reads as nothing, never as printed: two weeks too many
    // (the SAT's rule, NOM174, allows none), or an OCR slip in one digit (282 read as 232).
    assert_eq!(seniority(&text.replace("P282W", "P284W")), None);
    assert_eq!(seniority(&text.replace("P282W", "P232W")), None);
    // Another period's end moves the weeks: the same P282W is wrong a month later.
    let later = fixture("quincenal-40-infonavit-3.xml");
    assert_eq!(later.antiguedad.as_deref(), Some("P287W"));
    assert_eq!(seniority(&print(&later)).as_deref(), Some("P287W"));
    assert_eq!(seniority(&print(&later).replace("P287W", "P282W")), None);
    // Years, months and days: the weekly receipts' seniority (2023-02-20 to 2024-11-17).
    let weekly = fixture("semanal-33-fonacot-2.xml");
    assert_eq!(weekly.antiguedad.as_deref(), Some("P1Y8M28D"));
    assert_eq!(seniority(&print(&weekly)).as_deref(), Some("P1Y8M28D"));
    assert_eq!(seniority(&print(&weekly).replace("P1Y8M28D", "P1Y8M15D")), None);
    // Tesseract's reading of the seniority line of this receipt printed at 300 dpi (PNG) and
    // rotated 1 degree (JPEG) by benches/ocr/accuracy.py: the W read twice, repaired because
    // the dates give P282W; the same slip on a seniority the dates do not give stays refused.
    let ocr = |seniority: &str| {
        let line = format!("Fecha inicio relación laboral: 16/08/2019  Antigúedad: {seniority}");
        text.lines().map(|l| if l.contains("Antigüedad") { line.as_str() } else { l }).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(seniority(&ocr("P282wW")).as_deref(), Some("P282W"));
    assert_eq!(seniority(&ocr("P282Ww")).as_deref(), Some("P282W"));
    assert_eq!(seniority(&ocr("P2B2W")).as_deref(), Some("P282W"), "a digit read as a letter");
    assert_eq!(seniority(&ocr("P284wW")), None, "repaired, but not what the dates give");
    assert_eq!(seniority(&ocr("P2B4W")), None);
    // The label with its "ü" read as "i", on a noisy rotated photo of the same print.
    let noisy = ocr("P282w").replace("Antigúedad", "Antigiedad");
    assert_eq!(seniority(&noisy).as_deref(), Some("P282W"));
    // Without a start date there is nothing to check against: kept as printed.
    let undated: String = text.lines().map(|l| if l.contains("Antigüedad") { "Antigüedad: P284W" } else { l }).collect::<Vec<_>>().join("\n");
    let read = read_printed_receipt(&undated, Fuente::Pdf, Decimal::ONE).expect("reads");
    assert_eq!((read.hechos.fecha_inicio_rel_laboral, read.hechos.antiguedad.as_deref()), (None, Some("P284W")));
    // ... but an OCR slip is repaired only where dates confirm it: without them, nothing.
    let undated_slip = undated.replace("P284W", "P282wW");
    let read = read_printed_receipt(&undated_slip, Fuente::Pdf, Decimal::ONE).expect("reads");
    assert_eq!(read.hechos.antiguedad, None);
}
