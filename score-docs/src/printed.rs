//! Printed payroll receipts (the "representación impresa" of a CFDI de nómina, as a PDF's
//! text or Tesseract's reading of a scan or photo) into the same facts as [`crate::read_cfdi`].
//!
//! The print carries what the XML carries, as labelled values ("Folio fiscal: …", "RFC
//! emisor: …", "Fecha inicial de pago: …") and two tables (perceptions and deductions, one
//! line each: SAT code, concept, amount). Labels are found case- and accent-insensitively
//! wherever they stand on a line, so two labels sharing a line (a two-column print) are read
//! too. Nothing is guessed: a required value not found is `DOCUMENT_UNREADABLE` naming the
//! field, and a reading is used for a profile only when the checks of
//! [`ComprobacionesImpreso`] pass (RFC check digits, totals that add up, dates in order); even
//! then its facts are read from paper, never verified (paper has no seal: the profile puts them
//! in `perfil_impreso`, to be confirmed by the XML or by the SAT's service with the UUID).

use crate::antiguedad;
use crate::catalogo;
use crate::date::Date;
use crate::error::{DocError, DocErrorCode};
use crate::qr::CodigoQr;
use crate::facts::{CfdiFacts, ComprobacionesImpreso, Deduccion, Fuente, ReciboImpreso};
use crate::tabla;
use crate::text::{self, Line};
use rust_decimal::Decimal;

/// Labels of each value (folded: lower case, no accents, single blanks), most specific first.
const UUID: &[&str] = &["folio fiscal", "uuid"];
const VERSION: &[&str] = &["version del comprobante", "version cfdi", "version"];
const FECHA: &[&str] = &["fecha y hora de emision", "fecha de emision", "fecha emision", "fecha de expedicion"];
// "rec": Tesseract's reading of "RFC" on a slightly rotated page (benches/ocr/accuracy.py).
const EMISOR_RFC: &[&str] = &["rfc del emisor", "rfc emisor", "emisor rfc", "rec emisor"];
const RECEPTOR_RFC: &[&str] =
    &["rfc del receptor", "rfc receptor", "receptor rfc", "rfc del trabajador", "rfc trabajador", "rec receptor"];
const CURP: &[&str] = &["curp"];
// "nomina" last: "Nómina ordinaria".
const TIPO_NOMINA: &[&str] = &["tipo de nomina", "tipo nomina", "nomina"];
const FECHA_PAGO: &[&str] = &["fecha de pago", "fecha pago", "pagado el", "fecha de deposito"];
const FECHA_INICIAL: &[&str] = &["fecha inicial de pago", "fecha inicial pago", "fecha inicial"];
const FECHA_FINAL: &[&str] = &["fecha final de pago", "fecha final pago", "fecha final"];
const PERIODO: &[&str] = &["periodo de pago", "periodo"];
const DIAS: &[&str] = &["numero de dias pagados", "num dias pagados", "dias pagados", "dias laborados", "dias"];
const PERIODICIDAD: &[&str] = &["periodicidad de pago", "periodicidad"];
// "regimen" last: a regime by name ("Régimen: Sueldos"); the issuer's "Régimen fiscal: 601"
// is no `c_TipoRegimen` value and reads as nothing.
const REGIMEN: &[&str] = &["tipo de regimen", "tipo regimen", "regimen de contratacion", "regimen"];
const ENTIDAD: &[&str] = &["clave entidad federativa", "entidad federativa", "clave ent fed", "entidad", "estado"];
const INICIO_REL: &[&str] = &[
    "fecha de inicio de relacion laboral",
    "fecha inicio relacion laboral",
    "inicio de relacion laboral",
    "inicio de la relacion laboral",
    "inicio rel laboral",
    "fecha de ingreso",
    "fecha ingreso",
    "fecha de alta",
    "alta",
];
// "antigiedad": Tesseract's reading of "Antigüedad" on a noisy rotated photo (the noise
// variant of benches/ocr/accuracy.py, drawn with another seed).
const ANTIGUEDAD: &[&str] = &["antiguedad", "antigiedad"];
const TOTAL_PERCEPCIONES: &[&str] =
    &["total de percepciones", "total percepciones", "suma de percepciones", "total de ingresos", "total ingresos", "suma de ingresos"];
const TOTAL_DEDUCCIONES: &[&str] =
    &["total de deducciones", "total deducciones", "suma de deducciones", "total de descuentos", "total descuentos", "suma de descuentos"];
const TOTAL_OTROS: &[&str] = &["total de otros pagos", "total otros pagos", "otros pagos"];
/// A summary that names a total by its table's name alone ("Percepciones: $4,200.00"), read
/// only when no total label above is printed and only as a field's whole label closed by a
/// colon ([`Line::after_field`]), never a heading. The totals read either way must agree with
/// the table's lines and the net (`percepciones_cuadran`, `deducciones_cuadran`, `neto_cuadra`).
const SUMMARY_PERCEPCIONES: &[&str] = &["percepciones", "ingresos"];
const SUMMARY_DEDUCCIONES: &[&str] = &["deducciones", "descuentos"];
const NETO: &[&str] =
    &["neto a pagar", "neto a recibir", "neto pagado", "total neto", "neto", "liquido a pagar", "total a pagar", "total pagado"];

fn unreadable(field: &str, what: &str) -> DocError {
    DocError::new(
        DocErrorCode::DocumentUnreadable,
        Some(field),
        format!("No se pudo leer {what} en el recibo impreso. Sube el XML del recibo o una imagen más nítida."),
    )
}

fn first<T>(value: Option<String>, parse: impl Fn(&str) -> Option<T>) -> Option<T> {
    value.and_then(|v| text::tokens(&v).find_map(&parse))
}

/// Each value written for `labels`, in order: after the label on its line, or, where the
/// label heads a column of a grid, under it on the next line ([`Line::below`]).
fn values<'a>(lines: &'a [Line], labels: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    lines.iter().enumerate().flat_map(move |(i, l)| {
        let below = lines.get(i + 1).and_then(|next| l.below(labels, next));
        l.after(labels).into_iter().chain(below)
    })
}

/// The first token of a value for `labels` that parses.
fn find<T>(lines: &[Line], labels: &[&str], parse: impl Fn(&str) -> Option<T>) -> Option<T> {
    values(lines, labels).find_map(|v| first(Some(v), &parse))
}

/// The first date for `labels`: a token that reads as a date, else a date in words ("1 de
/// marzo de 2021").
fn find_date(lines: &[Line], labels: &[&str]) -> Option<Date> {
    find(lines, labels, text::parse_date).or_else(|| values(lines, labels).find_map(|v| text::date_in_words(&v)))
}

/// The amount of a summary line that names a total by its table's name alone
/// ([`SUMMARY_PERCEPCIONES`]): the first token after the label, when it is an amount.
fn summary_amount(lines: &[Line], words: &[&str]) -> Option<Decimal> {
    words.iter().find_map(|w| {
        lines.iter().filter_map(|l| l.after_field(w)).find_map(|v| text::tokens(&text::close_amounts(&v)).next().and_then(text::parse_money))
    })
}

/// The first value for `labels` that `parse` reads whole (catalogue values: "02 - Sueldos").
fn find_value<T>(lines: &[Line], labels: &[&str], parse: impl Fn(&str) -> Option<T>) -> Option<T> {
    values(lines, labels).find_map(|v| parse(&v))
}

/// Words naming the worker or the employer on a line that also carries an RFC, as payroll
/// programs print them without this reader's labels ("Trabajador: NAME  RFC: …", "R.F.C.").
const WORKER_WORDS: &[&str] = &["trabajador", "empleado", "receptor", "colaborador"];
const EMPLOYER_WORDS: &[&str] = &["emisor", "empresa", "patron", "empleador", "razon social"];

/// Without a known label: an RFC-shaped token whose check digit is right, on a line naming
/// `who`, or else the only such token in the whole text other than `other` (the party already
/// found) of `length` characters when given (a worker is a person: 13; an employer, when
/// several remain, a company: 12). A check digit makes a stray word very unlikely to pass.
fn rfc_anywhere(lines: &[Line], who: &[&str], other: Option<&str>, length: usize) -> Option<String> {
    let valid_in = |line: &Line| -> Vec<String> {
        let text = line.text();
        text::tokens(&text)
            .map(|t| t.trim_matches('.'))
            .filter_map(text::parse_rfc)
            .filter(|r| text::rfc_check_digit_ok(r) && Some(r.as_str()) != other)
            .collect()
    };
    let named = lines.iter().filter(|l| who.iter().any(|w| l.contains(w))).flat_map(valid_in).next();
    named.or_else(|| {
        let mut all: Vec<String> = lines.iter().flat_map(valid_in).collect();
        all.sort();
        all.dedup();
        if all.len() > 1 {
            all.retain(|r| r.chars().count() == length);
        }
        (all.len() == 1).then(|| all.remove(0))
    })
}

/// Without a legible "CURP" label: the only CURP-shaped token of the text (18 characters whose
/// letters, birth date, sex and state are where a CURP has them), as for RFCs.
fn curp_anywhere(lines: &[Line]) -> Option<String> {
    let mut all: Vec<String> = lines
        .iter()
        .flat_map(|l| text::tokens(&l.text()).filter_map(|t| text::parse_curp(t.trim_matches('.'))).collect::<Vec<_>>())
        .filter(|c| {
            let (month, day) = (c[6..8].parse::<u32>().unwrap_or(0), c[8..10].parse::<u32>().unwrap_or(0));
            (1..=12).contains(&month) && (1..=31).contains(&day) && matches!(&c[10..11], "H" | "M" | "X")
        })
        .collect();
    all.sort();
    all.dedup();
    (all.len() == 1).then(|| all.remove(0))
}

fn periodicidad(lines: &[Line]) -> Option<String> {
    find_value(lines, PERIODICIDAD, catalogo::periodicidad).or_else(|| catalogo::periodicidad_anywhere(lines))
}

/// `O` or `E` from the value's first word ("O", "Ordinaria", "O - Ordinaria").
fn tipo_nomina(value: &str) -> Option<String> {
    let value = text::fold(value);
    // OCR reads a boxed "O" as "(0)" now and then.
    let word = value.split(|c: char| c.is_whitespace() || c == '-').map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).find(|w| !w.is_empty())?;
    match word {
        "o" | "ordinaria" | "0" => Some("O".to_owned()),
        "e" | "extraordinaria" => Some("E".to_owned()),
        _ => None,
    }
}

/// Without a "Periodo" label: the first line with two dates joined by "al" or "a" ("Del
/// 01/01/2025 al 15/01/2025").
fn period_anywhere(lines: &[Line]) -> Option<Vec<Date>> {
    lines.iter().find_map(|l| {
        let dates = text::dates_in(&l.text());
        let joined = text::tokens(&text::fold(&l.text())).any(|w| w == "al" || w == "a");
        (dates.len() == 2 && joined).then_some(dates)
    })
}

/// The printed net without a net label: a line whose "Total" stands alone before an amount
/// ("Total: $12,644.38"; not "Total percepciones …"). The net is checked against the totals
/// read either way (`neto_cuadra`).
fn bare_total(lines: &[Line]) -> Option<Decimal> {
    lines.iter().filter_map(|l| l.after(&["total"])).find_map(|v| text::tokens(&text::close_amounts(&v)).next().and_then(text::parse_money))
}

fn version(token: &str) -> Option<String> {
    // OCR reads the point as a comma now and then ("4,0").
    let t: String = token.chars().map(|c| match c {
        'O' | 'o' => '0',
        ',' => '.',
        c => c,
    }).collect();
    matches!(t.as_str(), "3.3" | "4.0").then_some(t)
}

/// The issue timestamp as written when it is `YYYY-MM-DDThh:mm:ss`, else the date in ISO form.
fn issue_stamp(token: &str) -> Option<String> {
    let date = text::parse_date(token)?;
    let time = token.get(10..).filter(|t| t.len() == 9 && t.starts_with('T'));
    Some(match time {
        Some(t) => format!("{date}{t}"),
        None => date.to_string(),
    })
}

/// Whether the text looks like a payroll receipt (as opposed to a bank statement or anything
/// else): it names perceptions and deductions, or a line calls it a payroll receipt ("Recibo
/// de nómina", "Recibo electrónico de nómina", "Recibo de pago de nómina").
pub(crate) fn looks_like_receipt(folded: &str) -> bool {
    (folded.contains("percepciones") && folded.contains("deducciones"))
        || folded.lines().any(|l| l.find("recibo").is_some_and(|at| l[at..].contains("nomina")))
}

/// Reads a printed payroll receipt from its text. `confianza` is the text's confidence (1 for
/// a PDF's text layer; Tesseract's mean word confidence, 0–1, for OCR).
///
/// Errors: `DOCUMENT_NOT_PAYROLL` when the text is not a payroll receipt,
/// `DOCUMENT_UNREADABLE` (field: the missing value) when a required value cannot be read.
pub fn read_printed_receipt(text: &str, fuente: Fuente, confianza: Decimal) -> Result<ReciboImpreso, DocError> {
    read_printed_receipt_with_qr(text, None, fuente, confianza)
}

/// [`read_printed_receipt`] with the print's QR code when one was decoded: the UUID and both
/// RFCs are the QR code's (exact, where OCR is not), `fuente` is `qr`, and the QR code's
/// total must equal the net pay computed from the totals read (`total_qr_cuadra`), else the
/// receipt is not verified. Without a QR code (`None`), the text alone as `fuente` says.
pub fn read_printed_receipt_with_qr(
    text: &str,
    qr: Option<&CodigoQr>,
    fuente: Fuente,
    confianza: Decimal,
) -> Result<ReciboImpreso, DocError> {
    let fuente = if qr.is_some() { Fuente::Qr } else { fuente };
    let lines = text::lines(text);
    if lines.is_empty() {
        return Err(DocError::new(
            DocErrorCode::DocumentUnreadable,
            None,
            "El documento no tiene texto legible. Sube el XML del recibo, el PDF original o una foto más nítida.",
        ));
    }
    if !looks_like_receipt(&text::fold(text)) {
        return Err(DocError::new(
            DocErrorCode::DocumentNotPayroll,
            None,
            "El documento no parece un recibo de nómina: no se encontraron percepciones ni deducciones.",
        ));
    }
    let uuid = qr.map(|q| q.uuid.clone()).or_else(|| lines
        .iter()
        .filter_map(|l| l.after(UUID))
        .find_map(|v| text::uuid_in(&v))
        .or_else(|| text::tokens(text).find_map(text::parse_uuid)));
    let emisor_rfc = qr.map(|q| q.emisor_rfc.clone()).or_else(|| find(&lines, EMISOR_RFC, text::parse_rfc_checked));
    let receptor_rfc = qr.map(|q| q.receptor_rfc.clone()).or_else(|| find(&lines, RECEPTOR_RFC, text::parse_rfc_checked));
    let emisor_rfc = emisor_rfc
        .or_else(|| rfc_anywhere(&lines, EMPLOYER_WORDS, receptor_rfc.as_deref(), 12))
        .ok_or_else(|| unreadable("emisor_rfc", "el RFC del emisor"))?;
    let receptor_rfc = receptor_rfc
        .or_else(|| rfc_anywhere(&lines, WORKER_WORDS, Some(&emisor_rfc), 13))
        .ok_or_else(|| unreadable("receptor_rfc", "el RFC del trabajador"))?;
    let receptor_curp = find(&lines, CURP, text::parse_curp_repaired)
        .or_else(|| curp_anywhere(&lines))
        .ok_or_else(|| unreadable("receptor_curp", "la CURP del trabajador"))?;
    // Neither proves anything about the worker, and many prints show neither: read when shown.
    let version = find(&lines, VERSION, version);
    let fecha = find(&lines, FECHA, issue_stamp);
    let tipo_nomina = find_value(&lines, TIPO_NOMINA, tipo_nomina).ok_or_else(|| unreadable("tipo_nomina", "el tipo de nómina (ordinaria o extraordinaria)"))?;
    let fecha_pago = find_date(&lines, FECHA_PAGO).ok_or_else(|| unreadable("fecha_pago", "la fecha de pago"))?;
    let period = text::labelled(&lines, PERIODO).map(|v| text::dates_in(&v)).filter(|d| d.len() >= 2).or_else(|| period_anywhere(&lines));
    let fecha_inicial = find_date(&lines, FECHA_INICIAL)
        .or_else(|| period.as_ref().map(|d| d[0]))
        .ok_or_else(|| unreadable("fecha_inicial_pago", "la fecha inicial del periodo"))?;
    let fecha_final = find_date(&lines, FECHA_FINAL)
        .or_else(|| period.as_ref().map(|d| d[1]))
        .ok_or_else(|| unreadable("fecha_final_pago", "la fecha final del periodo"))?;
    let num_dias_pagados = find(&lines, DIAS, text::parse_number).ok_or_else(|| unreadable("num_dias_pagados", "los días pagados"))?;
    let periodicidad_pago = periodicidad(&lines).ok_or_else(|| unreadable("periodicidad_pago", "la periodicidad de pago"))?;
    let tipo_regimen = find_value(&lines, REGIMEN, catalogo::tipo_regimen).ok_or_else(|| unreadable("tipo_regimen", "el tipo de régimen"))?;
    let clave_ent_fed = find(&lines, ENTIDAD, catalogo::estado).ok_or_else(|| unreadable("clave_ent_fed", "la entidad federativa"))?;
    let fecha_inicio = find_date(&lines, INICIO_REL);
    // Kept only when the printed start date and period's end give exactly it (the SAT's rule);
    // a seniority printed without a start date has nothing to be checked against and is kept.
    // Not well formed as read (OCR's `P282wW`), it is repaired only where those dates confirm it.
    let antiguedad = match find(&lines, ANTIGUEDAD, antiguedad::iso_duration) {
        Some(a) => Some(a).filter(|a| fecha_inicio.is_none_or(|start| antiguedad::agrees(a, start, fecha_final))),
        None => fecha_inicio.and_then(|start| {
            find(&lines, ANTIGUEDAD, antiguedad::ocr_repaired).filter(|a| antiguedad::agrees(a, start, fecha_final))
        }),
    };
    let money = |labels: &[&str]| values(&lines, labels).find_map(|v| text::money_in(&v).first().copied());
    let total_percepciones = money(TOTAL_PERCEPCIONES)
        .or_else(|| summary_amount(&lines, SUMMARY_PERCEPCIONES))
        .ok_or_else(|| unreadable("total_percepciones", "el total de percepciones"))?;
    let total_deducciones = money(TOTAL_DEDUCCIONES).or_else(|| summary_amount(&lines, SUMMARY_DEDUCCIONES)).unwrap_or(Decimal::ZERO);
    let total_otros_pagos = money(TOTAL_OTROS).unwrap_or(Decimal::ZERO);
    let neto_impreso = money(NETO).or_else(|| bare_total(&lines)).ok_or_else(|| unreadable("neto", "el neto a pagar"))?;
    let (percepciones, deducciones) = tabla::tables(&lines, TOTAL_PERCEPCIONES, TOTAL_DEDUCCIONES);
    let deducciones: Vec<Deduccion> = deducciones
        .into_iter()
        .map(|(tipo, importe)| Deduccion { tipo, importe })
        .collect();
    let neto = total_percepciones - total_deducciones + total_otros_pagos;

    let in_order = |a: Date, b: Date| a <= b;
    let comprobaciones = ComprobacionesImpreso {
        uuid_valido: uuid.is_some(),
        rfc_emisor_valido: text::rfc_check_digit_ok(&emisor_rfc),
        rfc_receptor_valido: text::rfc_check_digit_ok(&receptor_rfc),
        percepciones_cuadran: !percepciones.is_empty() && percepciones.iter().map(|(_, a)| *a).sum::<Decimal>() == total_percepciones,
        deducciones_cuadran: deducciones.iter().map(|d| d.importe).sum::<Decimal>() == total_deducciones,
        neto_cuadra: neto == neto_impreso,
        fechas_en_orden: in_order(fecha_inicial, fecha_final)
            && in_order(fecha_inicial, fecha_pago)
            && fecha_inicio.is_none_or(|start| in_order(start, fecha_inicial)),
        total_qr_cuadra: qr.map(|q| q.total == neto),
    };
    let hechos = CfdiFacts {
        uuid,
        version,
        fecha,
        emisor_rfc,
        receptor_rfc,
        receptor_curp,
        nomina_version: "1.2".to_owned(),
        tipo_nomina,
        fecha_pago: fecha_pago.to_string(),
        fecha_inicial_pago: fecha_inicial.to_string(),
        fecha_final_pago: fecha_final.to_string(),
        num_dias_pagados,
        periodicidad_pago,
        total_percepciones,
        total_deducciones,
        total_otros_pagos,
        neto,
        fecha_inicio_rel_laboral: fecha_inicio.map(|d| d.to_string()),
        antiguedad,
        clave_ent_fed,
        tipo_regimen,
        deducciones,
        // Paper carries no seal.
        sello: crate::facts::Sello::impreso(),
    };
    Ok(ReciboImpreso {
        hechos,
        fuente,
        confianza: confianza.clamp(Decimal::ZERO, Decimal::ONE).round_dp(2),
        verificado: comprobaciones.todas(),
        comprobaciones,
        neto_impreso,
        qr: qr.cloned(),
    })
}

/// The receipts a profile is built from when some were read from XML and some from print:
/// every XML receipt, then each printed receipt whose checks all pass and whose UUID no XML
/// receipt has (the XML wins: it is the stamped original); the rest are left out. The profile
/// shows what the prints say as read from paper, never verified.
pub fn receipts_for_profile(xml: &[CfdiFacts], printed: &[ReciboImpreso]) -> Vec<CfdiFacts> {
    let mut out = xml.to_vec();
    for p in printed.iter().filter(|p| p.verificado) {
        let from_xml = p.hechos.uuid.is_some() && xml.iter().any(|x| x.uuid == p.hechos.uuid);
        if !from_xml {
            out.push(p.hechos.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A public employer's print: totals named by their tables alone ("Percepciones:"), one
    /// table of both kinds with a "P/D" column, the start date in words.
    const SUMMARY_BY_NAME: &str = "\
SERVICIOS INTEGRALES DEL BAJIO SA DE CV
Comprobante fiscal digital por internet - Recibo de nómina
Nombre del empleado:         MARIA LUISA GARCIA LOPEZ                 R.F.C. del patrón:         EKU9003173C9
Núm. de empleado:            1043                                     Folio fiscal (UUID):
R.F.C.:                      TOMA920505KL6                                D0F631CA-1DDB-48DB-ABCF-CB9E057CDC98
C.U.R.P.:                    TOMA920505MQTRNN01                       Fecha de pago:             15/01/2025
Puesto:                      ANALISTA ADMINISTRATIVO                  Periodo:                   01/01/2025 - 15/01/2025
Régimen:                     02 - Sueldos                             Días trabajados:           15
Fecha de ingreso:            1 de marzo de 2021                       Periodicidad:              04 Quincenal
                                                                      Tipo de nómina:            Ordinaria
                                                                      Entidad federativa:        QUE
P/D   Clave     Concepto                                       Percepción           Deducción
P     001       Sueldos, salarios, rayas y jornales              3,780.00
P     010       Premios por puntualidad                            420.00
D     001       Seguridad social                                                        95.12
D     002       ISR                                                                    120.00
                                                  Percepciones:                     $4,200.00
                                                  Deducciones:                        $215.12
                                                  Otros pagos:                        $107.38
                                                  Neto a cobrar:                    $4,092.26
";

    fn read(text: &str) -> Result<ReciboImpreso, DocError> {
        read_printed_receipt(text, Fuente::Pdf, Decimal::ONE)
    }

    #[test]
    fn totals_named_by_their_tables_alone() {
        let r = read(SUMMARY_BY_NAME).expect("read");
        let cents = |c: i64| Decimal::new(c, 2);
        assert_eq!(
            (r.hechos.total_percepciones, r.hechos.total_deducciones, r.hechos.total_otros_pagos, r.hechos.neto),
            (cents(420_000), cents(21_512), cents(10_738), cents(409_226))
        );
        assert_eq!(r.hechos.deducciones.iter().map(|d| (d.tipo.as_str(), d.importe)).collect::<Vec<_>>(), [("001", cents(9_512)), ("002", cents(12_000))]);
        assert_eq!(r.hechos.fecha_inicio_rel_laboral.as_deref(), Some("2021-03-01"));
        assert!(r.verificado, "{:?}", r.comprobaciones);
    }

    #[test]
    fn a_table_name_is_a_total_only_as_a_summary_field() {
        // A heading, or a label that ends or begins with the name, gives no total: the print is
        // refused, not guessed.
        for summary in [
            "PERCEPCIONES                                       $4,200.00",
            "                                  Otras percepciones:       $4,200.00",
            "                                  Percepciones gravadas:    $4,200.00",
        ] {
            let text = SUMMARY_BY_NAME.replace("                                                  Percepciones:                     $4,200.00", summary);
            let err = read(&text).expect_err(summary);
            assert_eq!((err.code, err.field.as_deref()), (DocErrorCode::DocumentUnreadable, Some("total_percepciones")), "{summary}");
        }
        // A summary amount the table's lines do not add up to is read, never verified.
        let wrong = SUMMARY_BY_NAME.replace("$4,200.00", "$4,300.00");
        let r = read(&wrong).expect("read");
        assert!(!r.verificado && !r.comprobaciones.percepciones_cuadran);
    }
}
