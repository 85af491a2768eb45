//! The seal (issue 43): receipts sealed in the tests with a test certificate verify; any change
//! after sealing, a certificate of someone else, out of date or without the SAT's stamp does
//! not, and such a receipt proves no profile field. The Addenda is never read. Files not in
//! UTF-8 are refused.

#[path = "common/seal.rs"]
mod seal;

use seal::{certificate, key, seal, set_attr};
use rsa::RsaPrivateKey;
use score_docs::{Date, DocErrorCode, MotivoSello, cadena_original, profile_from_cfdi, read_cfdi};
use std::path::Path;
use std::sync::OnceLock;

const NUMBER: &str = "30001000000500003416";

fn test_key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| key(43))
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fixture receipt sealed with the test key and a certificate for `rfc`.
fn sealed(name: &str, rfc: &str) -> String {
    let cert = certificate(test_key(), rfc, NUMBER, 2023, 2027);
    seal(&fixture(name), test_key(), &cert, NUMBER)
}

fn sello_of(xml: &str) -> score_docs::Sello {
    read_cfdi(xml.as_bytes()).expect("readable receipt").sello
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
        assert!(!sello.ca_sat_verificada);
        let facts = read_cfdi(xml.as_bytes()).expect("facts");
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
        let facts = read_cfdi(changed.as_bytes()).expect("still read");
        assert!(!facts.sello.valido, "{name}");
        assert_eq!(facts.sello.motivo, Some(MotivoSello::SelloInvalido), "{name}");
        let profile = profile_from_cfdi(&[facts], reference()).expect("profile");
        assert!(profile.verificacion.campos.is_empty(), "{name}: {:?}", profile.verificacion.campos);
        assert_eq!(profile.perfil.ingreso_mensual, None, "{name}");
        let failed = &profile.verificacion.comprobaciones.sellos_invalidos;
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].motivo, MotivoSello::SelloInvalido);
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
    let other_rfc = certificate(test_key(), "IIA040805DZ4", NUMBER, 2023, 2027);
    let sello = sello_of(&seal(&xml, test_key(), &other_rfc, NUMBER));
    assert_eq!(sello.motivo, Some(MotivoSello::CertificadoNoCorresponde));
    assert_eq!(sello.rfc_certificado.as_deref(), Some("IIA040805DZ4"));

    let other_number = certificate(test_key(), "EKU9003173C9", "30001000000500009999", 2023, 2027);
    let sello = sello_of(&seal(&xml, test_key(), &other_number, NUMBER));
    assert_eq!(sello.motivo, Some(MotivoSello::CertificadoNoCorresponde));
    assert_eq!(sello.no_certificado.as_deref(), Some("30001000000500009999"));

    let expired = certificate(test_key(), "EKU9003173C9", NUMBER, 2020, 2024);
    assert_eq!(sello_of(&seal(&xml, test_key(), &expired, NUMBER)).motivo, Some(MotivoSello::CertificadoVencido));

    // Signed with another key than the certificate's.
    let other_key = key(7);
    let cert = certificate(test_key(), "EKU9003173C9", NUMBER, 2023, 2027);
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
        let facts = read_cfdi(bare.as_bytes()).expect("read");
        assert_eq!(facts.sello.motivo, Some(MotivoSello::SinSello), "{name}");
        assert!(profile_from_cfdi(&[facts], reference()).expect("profile").verificacion.campos.is_empty());
    }
}

#[test]
fn one_bad_seal_unverifies_the_fields_that_receipt_proves() {
    let good: Vec<_> = (1..=6).map(|i| sealed(&format!("quincenal-40-infonavit-{i}.xml"), "EKU9003173C9")).collect();
    let mut facts: Vec<_> = good.iter().map(|x| read_cfdi(x.as_bytes()).expect("read")).collect();
    let all = profile_from_cfdi(&facts, reference()).expect("profile");
    assert!(all.verificacion.campos.contains(&"ingreso_mensual"));
    // The oldest receipt's seal broken: income comes from all six, so it is no longer verified.
    let broken = set_attr(&good[0], "<nomina12:Nomina", "TotalPercepciones", "99999.00");
    facts[0] = read_cfdi(broken.as_bytes()).expect("read");
    let profile = profile_from_cfdi(&facts, reference()).expect("profile");
    assert!(!profile.verificacion.campos.contains(&"ingreso_mensual"));
    assert!(!profile.verificacion.campos.contains(&"deudas_mensuales"));
    assert_eq!(profile.perfil.ingreso_mensual, None);
    // What the latest receipt alone proves stays verified.
    assert!(profile.verificacion.campos.contains(&"estado"), "{:?}", profile.verificacion.campos);
    assert!(!profile.verificacion.comprobaciones.sellos_validos);
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
    let facts = read_cfdi(after.as_bytes()).expect("read");
    assert_eq!(facts.total_percepciones.to_string(), "17325.50");
    assert!(facts.sello.valido, "the Addenda is outside the seal: {:?}", facts.sello);

    // The fake one placed before the real complement.
    let before = format!("{}{addenda}{}", &xml[..complemento], &xml[complemento..]);
    assert_eq!(read_cfdi(before.as_bytes()).expect("read").total_percepciones.to_string(), "17325.50");

    // A Nómina outside any complement (under a concept) is not read either.
    let hidden = xml.replacen("</cfdi:Concepto>", &format!("{forged}</cfdi:Concepto>"), 1);
    let hidden = if hidden == xml { xml.replacen("ObjetoImp=\"01\"/>", &format!("ObjetoImp=\"01\">{forged}</cfdi:Concepto>"), 1) } else { hidden };
    assert_ne!(hidden, xml);
    assert_eq!(read_cfdi(hidden.as_bytes()).expect("read").total_percepciones.to_string(), "17325.50");

    // A Nómina only in the Addenda: not a payroll receipt.
    let only = format!("{}{}{}", &xml[..complemento], addenda, &xml[end..]);
    assert_eq!(read_cfdi(only.as_bytes()).map_err(|e| e.code).err(), Some(DocErrorCode::DocumentNotPayroll));
}

#[test]
fn only_utf8_as_a_cfdi_must_be() {
    let xml = fixture("quincenal-40-infonavit-1.xml");
    // "MARÍA" with the Í as Windows-1252 writes it (0xCD), in a file declared UTF-8.
    let cp1252 = xml.replace("MARÍA", "MAR\u{0}A").into_bytes();
    let cp1252: Vec<u8> = cp1252.into_iter().map(|b| if b == 0 { 0xCD } else { b }).collect();
    let err = read_cfdi(&cp1252).expect_err("refused");
    assert_eq!(err.code, DocErrorCode::DocumentInvalidXml);
    assert!(err.message.contains("UTF-8"), "{}", err.message);
    // Declared as another encoding: refused too, whatever the bytes.
    let declared = xml.replacen("encoding=\"UTF-8\"", "encoding=\"windows-1252\"", 1);
    let err = read_cfdi(declared.as_bytes()).expect_err("refused");
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
