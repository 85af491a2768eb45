//! The golden fixtures of fixtures/documents/: every receipt's facts (or refusal code) and
//! every profile case, exactly as the JSON files state them. Python, Node and the browser
//! read the same files. The receipts' certificates are chained to the test CA of
//! fixtures/documents/ca-prueba/ac, loaded in place of the SAT's as every surface's fixture
//! tests load it (against the SAT's own CAs they prove nothing: tests/certificados_sat.rs).

use score_docs::{CertificadosSat, CfdiFacts, Date, profile_from_cfdi_bytes_con, read_cfdi_con};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents")
}

/// The test CA (ca-prueba/ac), as an operator's `SAT_CA_DIR` would hold it.
fn ca_prueba() -> CertificadosSat {
    let file = dir().join("ca-prueba/ac/AC_PRUEBAS.cer");
    CertificadosSat::from_files([("AC_PRUEBAS.cer", std::fs::read(file).expect("test CA"))]).expect("a CA certificate")
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_receipt_reads_to_its_expected_facts() {
    let ca = ca_prueba();
    let mut checked = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("fixtures/documents")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    paths.sort();
    for xml in paths {
        let expected = json(&xml.with_extension("json"));
        let bytes = std::fs::read(&xml).expect("read");
        let name = xml.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        match (read_cfdi_con(&bytes, &ca), expected.get("error")) {
            (Ok(facts), None) => {
                let got = serde_json::to_value(&facts).expect("facts serialise");
                assert_eq!(got, expected, "{name}");
                // The JSON text form is the same value.
                assert_eq!(serde_json::from_str::<Value>(&facts.to_json()).ok(), Some(expected), "{name}");
                // The stored form (the server keeps facts, not files) reads back to the same facts.
                assert_eq!(CfdiFacts::from_json(&facts.to_json()).ok(), Some(facts), "{name}");
            }
            (Err(e), Some(err)) => assert_eq!(Some(e.code_str()), err["code"].as_str(), "{name}: {e}"),
            (Ok(facts), Some(err)) => panic!("{name}: expected {err}, read {facts:?}"),
            (Err(e), None) => panic!("{name}: {e}"),
        }
        checked += 1;
    }
    assert!(checked >= 27, "only {checked} receipts");
}

#[test]
fn every_profile_case_gives_its_expected_profile() {
    let ca = ca_prueba();
    let cases = json(&dir().join("profiles.json"));
    let cases = cases.as_array().expect("a list of cases");
    assert!(cases.len() >= 9);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let receipts: Vec<Vec<u8>> = case["receipts"]
            .as_array()
            .expect("receipts")
            .iter()
            .map(|f| std::fs::read(dir().join(f.as_str().expect("file name"))).expect("receipt"))
            .collect();
        let reference = Date::parse(case["reference_date"].as_str().expect("date")).expect("valid date");
        match (profile_from_cfdi_bytes_con(&receipts, reference, &ca), case.get("error")) {
            (Ok(profile), None) => {
                let got = serde_json::to_value(&profile).expect("serialise");
                assert_eq!(got, case["expected"], "{name}\n{}", serde_json::to_string_pretty(&got).unwrap_or_default());
            }
            (Err(e), Some(err)) => {
                assert_eq!(Some(e.code_str()), err["code"].as_str(), "{name}: {e}");
                assert_eq!(e.field.as_deref(), err["field"].as_str(), "{name}: {e}");
            }
            (Ok(p), Some(err)) => panic!("{name}: expected {err}, got {}", p.to_json()),
            (Err(e), None) => panic!("{name}: {e}"),
        }
    }
}
