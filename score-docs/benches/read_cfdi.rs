//! Reading one payroll receipt, its seal checked (the seal's check under 200 µs), side by side
//! with the same receipt without a seal (the reading alone) and the cadena original alone; and
//! the profile of six receipts.
//!
//! `cargo bench -p score-docs --bench read_cfdi`; figures in score-docs/README.md and
//! benches/RESULTS.md.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../fixtures/documents/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn bench(c: &mut Criterion) {
    let one = fixture("quincenal-40-infonavit-1.xml");
    assert!(score_docs::read_cfdi(&one).is_ok_and(|f| f.sello.valido));
    c.bench_function("read_cfdi/quincenal-40 (one receipt, seal checked)", |b| {
        b.iter(|| score_docs::read_cfdi(black_box(&one)));
    });
    // The same receipt with its seal's attribute renamed: read, the seal's check stops at once.
    let unsealed = String::from_utf8(one.clone()).expect("UTF-8").replacen(" Sello=\"", " SinSello=\"", 1).into_bytes();
    assert!(score_docs::read_cfdi(&unsealed).is_ok_and(|f| !f.sello.valido));
    c.bench_function("read_cfdi/quincenal-40 (one receipt, no seal to check)", |b| {
        b.iter(|| score_docs::read_cfdi(black_box(&unsealed)));
    });
    c.bench_function("cadena_original/quincenal-40", |b| {
        b.iter(|| score_docs::cadena_original(black_box(&one)));
    });
    // The chain to the SAT's CAs: a receipt whose CSD a loaded CA issued (every fixture's: the
    // test CA of fixtures/documents/ca-prueba, RSA-2048), its CA's signature checked (a fresh set each
    // time) or remembered (one set); and one RSA-4096 certificate signature as the SAT's CAs
    // make them (AC5 under Banco de México's ARC5, SHA-512).
    let chained = one.clone();
    let ca = score_docs::CertificadosSat::from_files([("AC_PRUEBAS.cer", fixture("ca-prueba/ac/AC_PRUEBAS.cer"))]).expect("test CA");
    assert!(score_docs::read_cfdi_con(&chained, &ca).is_ok_and(|f| f.sello.valido && f.sello.ca_sat_verificada));
    c.bench_function("read_cfdi_con/chained to a loaded CA (its signature checked)", |b| {
        b.iter(|| score_docs::read_cfdi_con(black_box(&chained), &ca.clone()));
    });
    c.bench_function("read_cfdi_con/chained to a loaded CA (its signature remembered)", |b| {
        b.iter(|| score_docs::read_cfdi_con(black_box(&chained), &ca));
    });
    let root = |name: &str| std::fs::read(format!("{}/ca-sat/{name}", env!("CARGO_MANIFEST_DIR"))).expect("ca-sat");
    let arc5 = score_docs::CertificadosSat::from_files([("ARC5_IES.cer", root("banxico/ARC5_IES.cer"))]).expect("ARC5");
    let ac5 = root("AC5_SAT.cer");
    assert_eq!(arc5.verifica(&ac5, "2025-01-15T00:00:00"), Ok(()));
    c.bench_function("verifica/AC5 under ARC5 (RSA-4096, SHA-512)", |b| {
        b.iter(|| arc5.clone().verifica(black_box(&ac5), "2025-01-15T00:00:00"));
    });
    let six: Vec<Vec<u8>> = (1..=6).map(|i| fixture(&format!("quincenal-40-infonavit-{i}.xml"))).collect();
    let reference = score_docs::Date::parse("2025-03-01").expect("date");
    c.bench_function("profile_from_cfdi_bytes/6 receipts", |b| {
        b.iter(|| score_docs::profile_from_cfdi_bytes(black_box(&six), reference));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
