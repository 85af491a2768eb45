//! The chain to the SAT's CA certificates (issue 43): a receipt's certificate is
//! `ca_sat_verificada` only when one of the loaded CAs signed it and was in force on the
//! receipt's date. The tests' certificates are not the SAT's (`AC_DESCONOCIDA`); a test CA
//! loaded in their place verifies them; a certificate that copies the SAT's CA name without
//! its key does not. The carried CAs are the SAT's own: AC5 verifies under Banco de México's
//! root ARC5.

#[path = "common/seal.rs"]
mod seal;

use rsa::RsaPrivateKey;
use score_docs::{CertificadosSat, DocErrorCode, MotivoCaSat, MotivoSello, read_cfdi, read_cfdi_con};
use seal::{ca_certificate, certificate, certificate_issued, key, seal, set_attr};
use std::path::Path;
use std::str::FromStr;
use std::sync::OnceLock;
use x509_cert::Certificate;
use x509_cert::der::Decode;
use x509_cert::name::Name;

const NUMBER: &str = "30001000000500003416";
const TEST_CA: &str = "CN=AC DE PRUEBAS DE PLATFORM-SCORE,O=platform-score,C=MX";

fn keys() -> &'static (RsaPrivateKey, RsaPrivateKey) {
    static KEYS: OnceLock<(RsaPrivateKey, RsaPrivateKey)> = OnceLock::new();
    KEYS.get_or_init(|| (key(43), key(4343)))
}

fn file(path: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn receipt() -> String {
    String::from_utf8(file("../fixtures/documents/quincenal-40-infonavit-1.xml")).expect("UTF-8")
}

/// The fixture receipt (dated 2025-01-15) sealed with a CSD issued by `issuer` with `ca_key`.
fn sealed_by(issuer: Name, ca_key: &RsaPrivateKey) -> String {
    let (csd_key, _) = keys();
    let cert = certificate_issued(csd_key, "EKU9003173C9", NUMBER, 2023, 2027, issuer, ca_key);
    seal(&receipt(), csd_key, &cert, NUMBER)
}

fn test_ca(from: u16, to: u16) -> CertificadosSat {
    let (_, ca_key) = keys();
    CertificadosSat::from_files([("prueba.cer", ca_certificate(ca_key, TEST_CA, from, to))]).expect("test CA")
}

#[test]
fn the_carried_certificates_are_the_sats_and_ac5_is_certified_by_banco_de_mexico() {
    assert_eq!(CertificadosSat::incluidos().len(), 4);
    let banxico = CertificadosSat::from_files([("ARC5_IES.cer", file("ca-sat/banxico/ARC5_IES.cer"))]).expect("ARC5");
    let ac5 = file("ca-sat/AC5_SAT.cer");
    assert_eq!(banxico.verifica(&ac5, "2025-01-15T18:30:00"), Ok(()));
    // The same certificate with one byte of its key changed is not the one ARC5 signed.
    let mut forged = ac5.clone();
    let at = forged.len() / 2;
    forged[at] ^= 1;
    assert!(matches!(banxico.verifica(&forged, "2025-01-15T18:30:00"), Err(MotivoCaSat::FirmaAcInvalida | MotivoCaSat::SinCertificado)));
    // ARC5 was not in force before 7 December 2018.
    assert_eq!(banxico.verifica(&ac5, "2018-01-01T00:00:00"), Err(MotivoCaSat::AcVencida));
    // AC4 is certified by ARC2 (with SHA-1), not by ARC5.
    assert_eq!(banxico.verifica(&file("ca-sat/AC4_SAT.cer"), "2020-01-01T00:00:00"), Err(MotivoCaSat::AcDesconocida));
}

#[test]
fn the_tests_certificates_are_not_the_sats() {
    for name in ["quincenal-40-infonavit-1.xml", "semanal-33-fonacot-1.xml", "sello-alterado-40.xml"] {
        let facts = read_cfdi(&file(&format!("../fixtures/documents/{name}"))).expect("read");
        assert!(!facts.sello.ca_sat_verificada, "{name}");
        assert_eq!(facts.sello.ca_sat_motivo, Some(MotivoCaSat::AcDesconocida), "{name}");
    }
    let (_, ca_key) = keys();
    let xml = sealed_by(Name::from_str(TEST_CA).expect("name"), ca_key);
    let sello = read_cfdi(xml.as_bytes()).expect("read").sello;
    assert!(sello.valido, "{sello:?}");
    assert_eq!((sello.ca_sat_verificada, sello.ca_sat_motivo), (false, Some(MotivoCaSat::AcDesconocida)));
}

#[test]
fn a_loaded_ca_verifies_what_it_issued_in_force_and_untouched() {
    let (_, ca_key) = keys();
    let xml = sealed_by(Name::from_str(TEST_CA).expect("name"), ca_key);
    let set = test_ca(2020, 2030);
    let sello = read_cfdi_con(xml.as_bytes(), &set).expect("read").sello;
    assert!(sello.valido && sello.ca_sat_verificada, "{sello:?}");
    assert_eq!(sello.ca_sat_motivo, None);
    // Read again with the same set (the signature remembered): the same answer.
    assert_eq!(read_cfdi_con(xml.as_bytes(), &set).expect("read").sello, sello);
    // Remembered for these bytes only: another CSD with the CA's name but not its key is not.
    let impostor = sealed_by(Name::from_str(TEST_CA).expect("name"), &key(98));
    assert_eq!(read_cfdi_con(impostor.as_bytes(), &set).expect("read").sello.ca_sat_motivo, Some(MotivoCaSat::FirmaAcInvalida));

    // The chain is the certificate's: a receipt changed after sealing keeps it, and fails its seal.
    let changed = set_attr(&xml, "<nomina12:Nomina", "TotalPercepciones", "1017325.50");
    let sello = read_cfdi_con(changed.as_bytes(), &test_ca(2020, 2030)).expect("read").sello;
    assert_eq!((sello.valido, sello.motivo, sello.ca_sat_verificada), (false, Some(MotivoSello::SelloInvalido), true));

    // The CA not in force on the receipt's date (2025-01-15).
    let sello = read_cfdi_con(xml.as_bytes(), &test_ca(2015, 2024)).expect("read").sello;
    assert_eq!((sello.ca_sat_verificada, sello.ca_sat_motivo), (false, Some(MotivoCaSat::AcVencida)));

    // A CA with the same name and another key: a certificate that only copies the name.
    let impostor = sealed_by(Name::from_str(TEST_CA).expect("name"), &key(99));
    let sello = read_cfdi_con(impostor.as_bytes(), &test_ca(2020, 2030)).expect("read").sello;
    assert!(sello.valido, "the seal itself is fine: {sello:?}");
    assert_eq!((sello.ca_sat_verificada, sello.ca_sat_motivo), (false, Some(MotivoCaSat::FirmaAcInvalida)));
}

#[test]
fn the_sats_name_without_the_sats_key_is_refused() {
    let ac5 = Certificate::from_der(&file("ca-sat/AC5_SAT.cer")).expect("AC5");
    let (_, ca_key) = keys();
    let xml = sealed_by(ac5.tbs_certificate.subject, ca_key);
    let sello = read_cfdi(xml.as_bytes()).expect("read").sello;
    assert!(sello.valido, "{sello:?}");
    assert_eq!((sello.ca_sat_verificada, sello.ca_sat_motivo), (false, Some(MotivoCaSat::FirmaAcInvalida)));
}

#[test]
fn no_certificate_nothing_to_chain() {
    let (csd_key, _) = keys();
    let xml = seal(&receipt(), csd_key, &certificate(csd_key, "EKU9003173C9", NUMBER, 2023, 2027), NUMBER);
    let bare = xml.replacen(" Certificado=\"", " Quitado=\"", 1);
    let sello = read_cfdi(bare.as_bytes()).expect("read").sello;
    assert_eq!((sello.ca_sat_verificada, sello.ca_sat_motivo), (false, Some(MotivoCaSat::SinCertificado)));
}

#[test]
fn an_operators_set_must_be_certificates() {
    let (_, ca_key) = keys();
    let der = ca_certificate(ca_key, TEST_CA, 2020, 2030);
    let pem = format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &der)
    );
    let set = CertificadosSat::from_files([("prueba.pem", pem.into_bytes())]).expect("PEM");
    let xml = sealed_by(Name::from_str(TEST_CA).expect("name"), ca_key);
    assert!(read_cfdi_con(xml.as_bytes(), &set).expect("read").sello.ca_sat_verificada);

    let error = CertificadosSat::from_files([("notas.txt", b"no es un certificado".to_vec())]).expect_err("refused");
    assert_eq!((error.code, error.field.as_deref()), (DocErrorCode::DocumentUnreadable, Some("notas.txt")));
    let none: [(&str, Vec<u8>); 0] = [];
    assert_eq!(CertificadosSat::from_files(none).expect_err("empty").code, DocErrorCode::DocumentUnreadable);
}
