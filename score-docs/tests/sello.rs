//! The seal (issue 43): receipts sealed in the tests with a certificate the test CA issued verify;
//! any change after sealing, a certificate of someone else, out of date or without the SAT's
//! stamp does not, and such a receipt proves no profile field. Nor does a receipt whose seal is
//! valid but whose certificate no loaded CA issued (`AC_DESCONOCIDA`). The Addenda is never read.
//! Files not in UTF-8 are refused.

#[path = "common/seal.rs"]
mod seal;

use seal::{certificate, certificate_issued, key, seal, set_attr};
use rsa::RsaPrivateKey;
use score_docs::{
    CertificadosSat, CfdiFacts, Date, DocErrorCode, MotivoCaSat, MotivoNoVerificado, MotivoSello, cadena_original,
    profile_from_cfdi, read_cfdi, read_cfdi_con,
};
use std::path::Path;
use std::str::FromStr;
use std::sync::OnceLock;

const NUMBER: &str = "30001000000500003416";

fn test_key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| key(43))
}

/// The test CA's key (the one of fixtures/documents/ca-prueba/, made by seal_fixtures).
fn ca_key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| key(4343))
}

/// The test CA of fixtures/documents/ca-prueba/ac, loaded in place of the SAT's.
fn ca_prueba() -> &'static CertificadosSat {
    static CA: OnceLock<CertificadosSat> = OnceLock::new();
    CA.get_or_init(|| {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents/ca-prueba/ac/AC_PRUEBAS.cer");
        CertificadosSat::from_files([("AC_PRUEBAS.cer", std::fs::read(file).expect("test CA"))]).expect("a CA certificate")
    })
}

/// A CSD for `rfc` that the test CA issued.
fn issued(rfc: &str, number: &str, from: u16, to: u16) -> Vec<u8> {
    let name = x509_cert::name::Name::from_str("CN=AC DE PRUEBAS DE PLATFORM-SCORE,O=platform-score,C=MX").expect("name");
    certificate_issued(test_key(), rfc, number, from, to, name, ca_key())
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fixture receipt sealed with the test key and a certificate for `rfc` the test CA issued.
fn sealed(name: &str, rfc: &str) -> String {
    seal(&fixture(name), test_key(), &issued(rfc, NUMBER, 2023, 2027), NUMBER)
}

/// The facts of `xml`, its certificate chained to the test CA.
fn read(xml: &[u8]) -> Result<CfdiFacts, score_docs::DocError> {
    read_cfdi_con(xml, ca_prueba())
}

fn sello_of(xml: &str) -> score_docs::Sello {
    read(xml.as_bytes()).expect("readable receipt").sello
}

fn reference() -> Date {
    Date::parse("2025-03-01").expect("date")
}

#[test]
fn a_sealed_receipt_verifies_in_cfdi_40_and_33() {
    for (name, rfc) in [("quincenal-40-infonavit-1.xml", "EKU9003173C9"), ("semanal-33-fonacot-1.xml", "IIA040805DZ4")] {
        let xml = sealed(name, rfc);
        let sello = sello_of(&xml);
        assert!(sello.valido, "{name}: {sello:?}");
        assert_eq!(sello.motivo, None);
        assert_eq!(sello.no_certificado.as_deref(), Some(NUMBER));
        assert_eq!(sello.rfc_certificado.as_deref(), Some(rfc));
        assert!(sello.ca_sat_verificada, "{name}: {sello:?}");
        let facts = read(xml.as_bytes()).expect("facts");
        let profile = profile_from_cfdi(&[facts], reference()).expect("profile");
        assert!(profile.verificacion.campos.contains(&"ingreso_mensual"), "{name}");
        assert!(profile.verificacion.comprobaciones.sellos_validos);
    }
}

#[test]
fn a_change_after_sealing_breaks_the_seal_and_verifies_nothing() {
    let xml = sealed("quincenal-40-infonavit-1.xml", "EKU9003173C9");
    let changes = [
        ("<nomina12:Nomina", "TotalPercepciones", "1017325.50"),
        ("<cfdi:Comprobante", "Fecha", "2025-01-16T18:30:00"),
        ("<cfdi:Receptor", "Rfc", "XAXX010101000"),
        ("<cfdi:Emisor", "Rfc", "IIA040805DZ4"),
        ("<nomina12:Receptor", "FechaInicioRelLaboral", "2001-08-16"),
    ];
    for (tag, name, value) in changes {
        let changed = set_attr(&xml, tag, name, value);
        assert_ne!(changed, xml);
        let facts = read(changed.as_bytes()).expect("still read");
        assert!(!facts.sello.valido, "{name}");
        assert_eq!(facts.sello.motivo, Some(MotivoSello::SelloInvalido), "{name}");
        let profile = profile_from_cfdi(&[facts], reference()).expect("profile");
        assert!(profile.verificacion.campos.is_empty(), "{name}: {:?}", profile.verificacion.campos);
        assert_eq!(profile.perfil.ingreso_mensual, None, "{name}");
        let failed = &profile.verificacion.comprobaciones.sellos_invalidos;
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].motivo, MotivoNoVerificado::Sello(MotivoSello::SelloInvalido));
        assert_eq!(failed[0].recibo, "C75DE8C1-B7C3-4E52-A209-1267A736A9BF");
        assert!(profile.verificacion.notas.iter().any(|n| n.contains("SELLO_INVALIDO")), "{:?}", profile.verificacion.notas);
    }
    // White space the XSLT normalises away is not a change.
    let spaced = set_attr(&xml, "<cfdi:Emisor", "Nombre", "  ESCUELA   KEMPER\tURGATE ");
    assert!(sello_of(&spaced).valido);
}

#[test]
fn the_certificate_must_be_the_issuers_in_force_and_numbered_as_stated() {
    let xml = fixture("quincenal-40-infonavit-1.xml");
    let other_rfc = issued("IIA040805DZ4", NUMBER, 2023, 2027);
    let sello = sello_of(&seal(&xml, test_key(), &other_rfc, NUMBER));
    assert_eq!(sello.motivo, Some(MotivoSello::CertificadoNoCorresponde));
    assert_eq!(sello.rfc_certificado.as_deref(), Some("IIA040805DZ4"));

    let other_number = issued("EKU9003173C9", "30001000000500009999", 2023, 2027);
    let sello = sello_of(&seal(&xml, test_key(), &other_number, NUMBER));
    assert_eq!(sello.motivo, Some(MotivoSello::CertificadoNoCorresponde));
    assert_eq!(sello.no_certificado.as_deref(), Some("30001000000500009999"));

    let expired = issued("EKU9003173C9", NUMBER, 2020, 2024);
    assert_eq!(sello_of(&seal(&xml, test_key(), &expired, NUMBER)).motivo, Some(MotivoSello::CertificadoVencido));

    // Signed with another key than the certificate's.
    let other_key = key(7);
    let cert = issued("EKU9003173C9", NUMBER, 2023, 2027);
    assert_eq!(sello_of(&seal(&xml, &other_key, &cert, NUMBER)).motivo, Some(MotivoSello::SelloInvalido));

    let garbage = set_attr(&xml, "<cfdi:Comprobante", "Certificado", "bm90IGEgY2VydGlmaWNhdGU=");
    assert_eq!(sello_of(&garbage).motivo, Some(MotivoSello::CertificadoNoCorresponde));
}

#[test]
fn the_stamp_must_be_there_and_certify_this_seal() {
    let unstamped = sealed("sin-timbre-40.xml", "EKU9003173C9");
    assert_eq!(sello_of(&unstamped).motivo, Some(MotivoSello::SinTimbre));
    let xml = sealed("quincenal-40-infonavit-1.xml", "EKU9003173C9");
    let other = set_attr(&xml, "<tfd:TimbreFiscalDigital", "SelloCFD", "QUJD");
    assert_eq!(sello_of(&other).motivo, Some(MotivoSello::SelloInvalido));
}

#[test]
fn a_receipt_without_a_seal_is_read_but_proves_nothing() {
    let xml = sealed("quincenal-40-infonavit-1.xml", "EKU9003173C9");
    for name in ["Sello", "Certificado", "NoCertificado"] {
        let bare = xml.replacen(&format!(" {name}=\""), " Quitado=\"", 1);
        let facts = read(bare.as_bytes()).expect("read");
        assert_eq!(facts.sello.motivo, Some(MotivoSello::SinSello), "{name}");
        assert!(profile_from_cfdi(&[facts], reference()).expect("profile").verificacion.campos.is_empty());
    }
}

#[test]
fn one_bad_seal_unverifies_the_fields_that_receipt_proves() {
    let good: Vec<_> = (1..=6).map(|i| sealed(&format!("quincenal-40-infonavit-{i}.xml"), "EKU9003173C9")).collect();
    let mut facts: Vec<_> = good.iter().map(|x| read(x.as_bytes()).expect("read")).collect();
    let all = profile_from_cfdi(&facts, reference()).expect("profile");
    assert!(all.verificacion.campos.contains(&"ingreso_mensual"));
    // The oldest receipt's seal broken: income comes from all six, so it is no longer verified.
    let broken = set_attr(&good[0], "<nomina12:Nomina", "TotalPercepciones", "99999.00");
    facts[0] = read(broken.as_bytes()).expect("read");
    let profile = profile_from_cfdi(&facts, reference()).expect("profile");
    assert!(!profile.verificacion.campos.contains(&"ingreso_mensual"));
    assert!(!profile.verificacion.campos.contains(&"deudas_mensuales"));
    assert_eq!(profile.perfil.ingreso_mensual, None);
    // What the latest receipt alone proves stays verified.
    assert!(profile.verificacion.campos.contains(&"estado"), "{:?}", profile.verificacion.campos);
    assert!(!profile.verificacion.comprobaciones.sellos_validos);
}

#[test]
fn a_valid_seal_by_a_certificate_no_sat_ca_issued_proves_nothing() {
    // A forger's own certificate with the employer's RFC: every check of the seal passes.
    let forged = seal(&fixture("quincenal-40-infonavit-1.xml"), test_key(), &certificate(test_key(), "EKU9003173C9", NUMBER, 2023, 2027), NUMBER);
    for (set, facts) in [("test CA", read(forged.as_bytes())), ("carried SAT CAs", read_cfdi(forged.as_bytes()))] {
        let facts = facts.expect("read");
        assert!(facts.sello.valido, "{set}: {:?}", facts.sello);
        assert_eq!((facts.sello.ca_sat_verificada, facts.sello.ca_sat_motivo), (false, Some(MotivoCaSat::AcDesconocida)), "{set}");
        assert!(!facts.sello.prueba());
        let profile = profile_from_cfdi(std::slice::from_ref(&facts), reference()).expect("profile");
        assert!(profile.verificacion.campos.is_empty(), "{set}: {:?}", profile.verificacion.campos);
        assert_eq!(profile.perfil, Default::default(), "{set}");
        let failed = &profile.verificacion.comprobaciones.sellos_invalidos;
        assert_eq!(failed.len(), 1, "{set}");
        assert_eq!((failed[0].recibo.as_str(), failed[0].motivo), ("C75DE8C1-B7C3-4E52-A209-1267A736A9BF", MotivoNoVerificado::CaSat(MotivoCaSat::AcDesconocida)));
        assert_eq!(failed[0].motivo.as_str(), "AC_DESCONOCIDA");
        assert!(!profile.verificacion.comprobaciones.sellos_validos);
        assert!(profile.verificacion.notas.iter().any(|n| n.contains("(AC_DESCONOCIDA)")), "{:?}", profile.verificacion.notas);
        // On the wire the reason is the code alone, as the seal's own are.
        let wire = serde_json::to_value(&profile.verificacion.comprobaciones.sellos_invalidos).expect("json");
        assert_eq!(wire, serde_json::json!([{"recibo": "C75DE8C1-B7C3-4E52-A209-1267A736A9BF", "motivo": "AC_DESCONOCIDA"}]));
    }
    // The same receipt sealed with the test CA's certificate verifies only with that CA loaded.
    let chained = sealed("quincenal-40-infonavit-1.xml", "EKU9003173C9");
    let with_ca = profile_from_cfdi(&[read(chained.as_bytes()).expect("read")], reference()).expect("profile");
    assert!(with_ca.verificacion.campos.contains(&"ingreso_mensual"));
    let carried = profile_from_cfdi(&[read_cfdi(chained.as_bytes()).expect("read")], reference()).expect("profile");
    assert!(carried.verificacion.campos.is_empty(), "{:?}", carried.verificacion.campos);
}

#[test]
fn the_addenda_is_never_read() {
    let xml = sealed("quincenal-40-infonavit-1.xml", "EKU9003173C9");
    let complemento = xml.find("<cfdi:Complemento>").expect("complement");
    let end = xml.find("</cfdi:Complemento>").expect("complement end") + "</cfdi:Complemento>".len();
    let nomina = &xml[complemento + "<cfdi:Complemento>".len()..xml.find("<tfd:TimbreFiscalDigital").expect("stamp")];
    let forged = set_attr(nomina, "<nomina12:Nomina", "TotalPercepciones", "1017325.50");
    let addenda = format!("<cfdi:Addenda>{forged}</cfdi:Addenda>");

    // A second Nómina in the Addenda, after the sealed complement: read from the complement.
    let after = format!("{}{addenda}{}", &xml[..end], &xml[end..]);
    let facts = read(after.as_bytes()).expect("read");
    assert_eq!(facts.total_percepciones.to_string(), "17325.50");
    assert!(facts.sello.valido, "the Addenda is outside the seal: {:?}", facts.sello);

    // The fake one placed before the real complement.
    let before = format!("{}{addenda}{}", &xml[..complemento], &xml[complemento..]);
    assert_eq!(read(before.as_bytes()).expect("read").total_percepciones.to_string(), "17325.50");

    // A Nómina outside any complement (under a concept) is not read either.
    let hidden = xml.replacen("</cfdi:Concepto>", &format!("{forged}</cfdi:Concepto>"), 1);
    let hidden = if hidden == xml { xml.replacen("ObjetoImp=\"01\"/>", &format!("ObjetoImp=\"01\">{forged}</cfdi:Concepto>"), 1) } else { hidden };
    assert_ne!(hidden, xml);
    assert_eq!(read(hidden.as_bytes()).expect("read").total_percepciones.to_string(), "17325.50");

    // A Nómina only in the Addenda: not a payroll receipt.
    let only = format!("{}{}{}", &xml[..complemento], addenda, &xml[end..]);
    assert_eq!(read(only.as_bytes()).map_err(|e| e.code).err(), Some(DocErrorCode::DocumentNotPayroll));
}

#[test]
fn only_utf8_as_a_cfdi_must_be() {
    let xml = fixture("quincenal-40-infonavit-1.xml");
    // "MARÍA" with the Í as Windows-1252 writes it (0xCD), in a file declared UTF-8.
    let cp1252 = xml.replace("MARÍA", "MAR\u{0}A").into_bytes();
    let cp1252: Vec<u8> = cp1252.into_iter().map(|b| if b == 0 { 0xCD } else { b }).collect();
    let err = read(&cp1252).expect_err("refused");
    assert_eq!(err.code, DocErrorCode::DocumentInvalidXml);
    assert!(err.message.contains("UTF-8"), "{}", err.message);
    // Declared as another encoding: refused too, whatever the bytes.
    let declared = xml.replacen("encoding=\"UTF-8\"", "encoding=\"windows-1252\"", 1);
    let err = read(declared.as_bytes()).expect_err("refused");
    assert_eq!(err.code, DocErrorCode::DocumentInvalidXml);
    assert!(err.message.contains("windows-1252"), "{}", err.message);
}

#[test]
fn the_cadena_original_follows_the_stylesheet_order_not_the_documents() {
    // Attributes and elements written out of order, an optional attribute present but empty,
    // white space and a character reference to normalise, and an Addenda that must not appear.
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:nomina12="http://www.sat.gob.mx/nomina12" LugarExpedicion="44100" Total="10.00" Version="4.0" Serie="" Fecha="2025-01-15T12:00:00" NoCertificado="1" SubTotal="10.00" Moneda="MXN" TipoDeComprobante="N" Exportacion="01" Sello="x">
  <cfdi:Receptor UsoCFDI="CN01" Rfc="XAXX010101000" Nombre="  ANA   PEREZ " DomicilioFiscalReceptor="44100" RegimenFiscalReceptor="605"/>
  <cfdi:Emisor Rfc="EKU9003173C9" Nombre="E" RegimenFiscal="601"/>
  <cfdi:Conceptos><cfdi:Concepto ClaveProdServ="84111505" Cantidad="1" ClaveUnidad="ACT" Descripcion="Pago de n&#243;mina" ValorUnitario="10.00" Importe="10.00" ObjetoImp="01"/></cfdi:Conceptos>
  <cfdi:Complemento>
    <nomina12:Nomina Version="1.2" TipoNomina="O" FechaPago="2025-01-15" FechaInicialPago="2025-01-01" FechaFinalPago="2025-01-15" NumDiasPagados="15" TotalPercepciones="10.00">
      <nomina12:Receptor Curp="XEXX010101HNEXXXA4" TipoContrato="01" TipoRegimen="02" NumEmpleado="1" PeriodicidadPago="04" ClaveEntFed="JAL" Antigüedad="P1W"/>
      <nomina12:Percepciones TotalGravado="10.00" TotalExento="0.00"><nomina12:Percepcion ImporteExento="0.00" TipoPercepcion="001" Clave="001" Concepto="Sueldo" ImporteGravado="10.00"/></nomina12:Percepciones>
    </nomina12:Nomina>
  </cfdi:Complemento>
  <cfdi:Addenda><nomina12:Nomina Version="9"/></cfdi:Addenda>
</cfdi:Comprobante>"#;
    let expected = "||4.0||2025-01-15T12:00:00|1|10.00|MXN|10.00|N|01|44100\
|EKU9003173C9|E|601|XAXX010101000|ANA PEREZ|44100|605|CN01\
|84111505|1|ACT|Pago de nómina|10.00|10.00|01\
|1.2|O|2025-01-15|2025-01-01|2025-01-15|15|10.00\
|XEXX010101HNEXXXA4|P1W|01|02|1|04|JAL\
|10.00|0.00|001|001|Sueldo|10.00|0.00||";
    assert_eq!(cadena_original(xml.as_bytes()).expect("cadena"), expected);
}
