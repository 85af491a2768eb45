//! Seals the payroll receipts of fixtures/documents/ with the test key and, for each issuer, a
//! certificate issued by the test CA of fixtures/documents/ca-prueba/ (tests/common/seal.rs):
//! run after make_receipts.py, which writes them unsealed.
//! `cargo run -p score-docs --example seal_fixtures`
//!
//! The keys come from fixed seeds and nothing here is the SAT's: these seals prove the reader's
//! checks, not any real issuer. The fixtures' expected facts are read with the test CA loaded in
//! place of the SAT's (`CertificadosSat::from_files` with `ca-prueba/ac/AC_PRUEBAS.cer`, seed
//! 4343), the stand-in for the SAT's CAs that an operator loads with `SAT_CA_DIR`.
//!
//! Two receipts are spoiled on purpose: `sello-alterado-*` is changed after sealing
//! (+1,000,000.00 in perceptions), and `ca-desconocida-*` is sealed validly with a certificate
//! its issuer made itself (the employer's RFC, signed by its own key in the name of "AC DE
//! PRUEBAS (NO ES DEL SAT)"), which no CA loaded issued.

#[path = "../tests/common/seal.rs"]
mod seal;

use std::path::Path;
use std::str::FromStr;

/// The name of the test CA of fixtures/documents/ca-prueba/.
const TEST_CA: &str = "CN=AC DE PRUEBAS DE PLATFORM-SCORE,O=platform-score,C=MX";

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents");
    let key = seal::key(43);
    let ca_key = seal::key(4343);
    let ca_dir = dir.join("ca-prueba/ac");
    std::fs::create_dir_all(&ca_dir).expect("ca-prueba/ac");
    std::fs::write(ca_dir.join("AC_PRUEBAS.cer"), seal::ca_certificate(&ca_key, TEST_CA, 2020, 2035)).expect("write");
    let issuer = x509_cert::name::Name::from_str(TEST_CA).expect("name");
    let mut names: Vec<_> = std::fs::read_dir(&dir).expect("fixtures/documents").map(|e| e.expect("entry").path()).collect();
    names.sort();
    for path in names {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if !name.ends_with(".xml") || name.starts_with("rechazo-") {
            continue;
        }
        let xml = std::fs::read_to_string(&path).expect("read");
        let facts = score_docs::read_cfdi(xml.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let number = facts.sello.no_certificado.clone().unwrap_or_else(|| "30001000000500003416".to_owned());
        let cert = if name.starts_with("ca-desconocida-") {
            seal::certificate(&key, &facts.emisor_rfc, &number, 2023, 2027)
        } else {
            seal::certificate_issued(&key, &facts.emisor_rfc, &number, 2023, 2027, issuer.clone(), &ca_key)
        };
        let mut sealed = seal::seal(&xml, &key, &cert, &number);
        if name.starts_with("sello-alterado-") {
            // Forged after sealing, as make_receipts.py expects: +1,000,000.00 in perceptions.
            let raised = facts.total_percepciones + rust_decimal::Decimal::new(100_000_000, 2);
            sealed = seal::set_attr(&sealed, "<nomina12:Nomina", "TotalPercepciones", &raised.to_string());
        }
        std::fs::write(&path, sealed).expect("write");
        println!("{name}: sellado ({}, {number})", facts.emisor_rfc);
    }
}
