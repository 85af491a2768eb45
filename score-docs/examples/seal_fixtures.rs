//! Seals the payroll receipts of fixtures/documents/ with the test key and a test certificate
//! for each issuer (tests/common/seal.rs): run after make_receipts.py, which writes them
//! unsealed. `cargo run -p score-docs --example seal_fixtures`
//!
//! The key comes from a fixed seed and the certificate is not the SAT's: these seals prove the
//! reader's checks, not any real issuer.
//!
//! Also writes fixtures/documents/ca-prueba/: a test CA (`ac/AC_PRUEBAS.cer`, seed 4343), the
//! stand-in for the SAT's CAs that an operator would load with `SAT_CA_DIR`, and a receipt
//! sealed with a CSD that CA issued (`quincenal-40-ca-prueba.xml`), for the server's and the
//! page's tests of `ca_sat_verificada`.

#[path = "../tests/common/seal.rs"]
mod seal;

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents");
    let key = seal::key(43);
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
        let cert = seal::certificate(&key, &facts.emisor_rfc, &number, 2023, 2027);
        let mut sealed = seal::seal(&xml, &key, &cert, &number);
        if name.starts_with("sello-alterado-") {
            // Forged after sealing, as make_receipts.py expects: +1,000,000.00 in perceptions.
            let raised = facts.total_percepciones + rust_decimal::Decimal::new(100_000_000, 2);
            sealed = seal::set_attr(&sealed, "<nomina12:Nomina", "TotalPercepciones", &raised.to_string());
        }
        std::fs::write(&path, sealed).expect("write");
        println!("{name}: sellado ({}, {number})", facts.emisor_rfc);
    }
    write_test_ca(&dir, &key);
}

/// The name of the test CA of fixtures/documents/ca-prueba/.
const TEST_CA: &str = "CN=AC DE PRUEBAS DE PLATFORM-SCORE,O=platform-score,C=MX";

fn write_test_ca(dir: &Path, key: &rsa::RsaPrivateKey) {
    use std::str::FromStr;
    let ca_key = seal::key(4343);
    let out = dir.join("ca-prueba");
    std::fs::create_dir_all(out.join("ac")).expect("ca-prueba/ac");
    std::fs::write(out.join("ac/AC_PRUEBAS.cer"), seal::ca_certificate(&ca_key, TEST_CA, 2020, 2035)).expect("write");
    let xml = std::fs::read_to_string(dir.join("quincenal-40-infonavit-1.xml")).expect("read");
    let number = "30001000000500004343";
    let issuer = x509_cert::name::Name::from_str(TEST_CA).expect("name");
    let cert = seal::certificate_issued(key, "EKU9003173C9", number, 2023, 2027, issuer, &ca_key);
    std::fs::write(out.join("quincenal-40-ca-prueba.xml"), seal::seal(&xml, key, &cert, number)).expect("write");
    println!("ca-prueba: AC_PRUEBAS.cer, quincenal-40-ca-prueba.xml ({number})");
}
