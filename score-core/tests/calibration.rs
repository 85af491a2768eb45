//! The calibration document: the embedded one holds exactly the compiled model's figures, reads
//! back what it writes, and every fault is refused with `CALIBRATION_INVALID` and its key's path.

use rust_decimal::Decimal;
use score_core::calibration::{Calibration, EMBEDDED_TOML};
use score_core::params::*;
use score_core::products::rules::*;
use score_core::products::ISAI;
use score_core::states::STATES;
use score_core::{CALIBRATION, ErrorCode};

/// The compiled figure each path of the embedded document must equal.
fn compiladas() -> Vec<(String, Decimal)> {
    let mut v: Vec<(String, Decimal)> = [
        ("general.salario_minimo_diario", SALARIO_MINIMO_DIARIO),
        ("general.dias_por_mes", DIAS_POR_MES),
        ("general.uma_diaria", UMA_DIARIA),
        ("general.linea_pobreza_urbana", LINEA_POBREZA_URBANA),
        ("general.personas_hogar_default", PERSONAS_HOGAR_DEFAULT),
        ("general.factor_min", FACTOR_MIN),
        ("general.factor_max", FACTOR_MAX),
        ("general.puntos_deudas_no_declaradas", PUNTOS_DEUDAS_NO_DECLARADAS),
        ("general.proporcion_deudas_no_declaradas", PROPORCION_DEUDAS_NO_DECLARADAS),
        ("general.puntos_tipo_asalariado", PUNTOS_TIPO_ASALARIADO),
        ("general.puntos_tipo_mixto", PUNTOS_TIPO_MIXTO),
        ("general.puntos_tipo_pensionado", PUNTOS_TIPO_PENSIONADO),
        ("general.puntos_tipo_independiente", PUNTOS_TIPO_INDEPENDIENTE),
        ("general.pti_max", PTI_MAX),
        ("general.dti_total_max", DTI_TOTAL_MAX),
        ("general.rendimiento_renta_anual", RENDIMIENTO_RENTA_ANUAL),
        ("general.aportacion_fondo", APORTACION_FONDO),
        ("general.tope_sbc_umas", TOPE_SBC_UMAS),
        ("general.meses_fondo_max", MESES_FONDO_MAX),
        ("general.proporcion_salario_mixto", PROPORCION_SALARIO_MIXTO),
        ("general.m2_nucleo_base", M2_NUCLEO_BASE),
        ("general.m2_por_dormitorio_extra", M2_POR_DORMITORIO_EXTRA),
        ("general.factor_muros_circulacion", FACTOR_MUROS_CIRCULACION),
        ("general.personas_por_dormitorio", PERSONAS_POR_DORMITORIO),
        ("general.umbral_m2_adecuado", UMBRAL_M2_ADECUADO),
        ("general.umbral_m2_holgado", UMBRAL_M2_HOLGADO),
        ("general.umbral_enganche_parcial", UMBRAL_ENGANCHE_PARCIAL),
        ("general.umbral_recomendacion", UMBRAL_RECOMENDACION),
        ("general.max_recomendaciones_componente", MAX_RECOMENDACIONES_COMPONENTE),
    ]
    .into_iter()
    .map(|(p, d)| (p.to_owned(), d))
    .collect();
    fn curva_en(v: &mut Vec<(String, Decimal)>, path: &str, c: &score_core::curve::Curve) {
        for (i, (x, y)) in c.points().iter().enumerate() {
            v.push((format!("{path}.puntos[{i}][0]"), *x));
            v.push((format!("{path}.puntos[{i}][1]"), *y));
        }
    }
    for (n, c) in [
        ("ingreso", &CURVA_INGRESO),
        ("antiguedad_asalariado", &CURVA_ANTIGUEDAD_ASALARIADO),
        ("antiguedad_independiente", &CURVA_ANTIGUEDAD_INDEPENDIENTE),
        ("deudas", &CURVA_DEUDAS),
        ("ahorro", &CURVA_AHORRO),
        ("ahorro_cobertura", &CURVA_AHORRO_COBERTURA),
        ("salud_financiera", &CURVA_SALUD_FINANCIERA),
    ] {
        curva_en(&mut v, &format!("curvas.{n}"), c);
    }
    for (n, d) in [("notario", NOTARIO), ("registro", REGISTRO), ("avaluo", AVALUO)] {
        v.push((format!("gastos_cierre.{n}"), d));
    }
    curva_en(&mut v, "productos[0].tasa_por_umas", &INFONAVIT_TASA_POR_UMAS);
    let entero = |n: u32| Decimal::from(n);
    for (p, d) in [
        ("productos[0].cargo_mensual", INFONAVIT_CARGO_MENSUAL),
        ("productos[0].pago_max_salario_minimo", INFONAVIT_PTI_SALARIO_MINIMO),
        ("productos[0].pago_max_sobre_ingreso", INFONAVIT_PTI_MAX),
        ("productos[0].plazo_max_anios", entero(INFONAVIT_PLAZO_MAX)),
        ("productos[0].edad_mas_plazo_max", entero(INFONAVIT_EDAD_MAX_FIN_PLAZO)),
        ("productos[0].antiguedad_min_meses", entero(INFONAVIT_ANTIGUEDAD_MIN)),
        ("productos[0].credito_max", INFONAVIT_CREDITO_MAX),
        ("productos[1].tasa_anual", FOVISSSTE_TASA),
        ("productos[1].cargo_mensual", FOVISSSTE_CARGO_MENSUAL),
        ("productos[1].pago_max_sobre_ingreso", FOVISSSTE_PTI),
        ("productos[1].plazo_max_anios", entero(FOVISSSTE_PLAZO_MAX)),
        ("productos[1].edad_mas_plazo_max", entero(FOVISSSTE_EDAD_MAX_FIN_PLAZO)),
        ("productos[1].antiguedad_min_meses", entero(FOVISSSTE_ANTIGUEDAD_MIN)),
        ("productos[1].credito_max", FOVISSSTE_CREDITO_MAX),
        ("productos[2].tasa_anual", TASA_ANUAL),
        ("productos[2].comision_apertura", BANCO_COMISION_APERTURA),
        // The two insurances together are the calibrated monthly load.
        ("productos[2].seguro_vida_mensual", BANCO_SEGUROS_MENSUAL - Decimal::new(39, 5)),
        ("productos[2].seguro_danos_mensual", Decimal::new(39, 5)),
        ("productos[2].ltv_max", LTV_ASALARIADO),
        ("productos[2].ltv_max.independiente", LTV_INDEPENDIENTE),
        ("productos[2].pago_max_sobre_ingreso", PTI_MAX),
        ("productos[2].plazo_max_anios", PLAZO_MAX_ANIOS),
        ("productos[2].edad_mas_plazo_max", EDAD_MAX_FIN_PLAZO),
        ("productos[2].antiguedad_min_meses", entero(BANCO_ANTIGUEDAD_MIN_ASALARIADO)),
        ("productos[2].antiguedad_min_meses.independiente", entero(BANCO_ANTIGUEDAD_MIN_INDEPENDIENTE)),
        ("productos[2].credito_min", BANCO_CREDITO_MIN),
        ("productos[3].tasa_anual", COFI_TASA_INFONAVIT),
        ("productos[3].credito_max", COFI_INFONAVIT_MAX),
        ("productos[3].parte_infonavit", COFI_PARTE_INFONAVIT),
        ("productos[4].credito_max", UNAMOS_CREDITO_MAX),
    ] {
        v.push((p.to_owned(), d));
    }
    for (i, (s, (isai, _))) in STATES.iter().zip(ISAI).enumerate() {
        v.push((format!("estados[{i}].factor"), s.factor));
        v.push((format!("estados[{i}].precio_m2"), s.precio_m2));
        v.push((format!("estados[{i}].isai"), isai));
    }
    v
}

#[test]
fn the_embedded_calibration_holds_the_compiled_figures() {
    let cal = Calibration::default();
    assert_eq!(cal.id(), CALIBRATION);
    let mut documento = cal.cifras();
    let mut compiladas = compiladas();
    documento.sort_by(|a, b| a.0.cmp(&b.0));
    compiladas.sort_by(|a, b| a.0.cmp(&b.0));
    let paths = |v: &[(String, Decimal)]| v.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(paths(&documento), paths(&compiladas), "the document and the compiled model name the same figures");
    for ((path, a), (_, b)) in documento.iter().zip(&compiladas) {
        assert_eq!(a, b, "{path}");
    }
    // Derived figures: the monthly minimum wage and UMA are the daily ones by `dias_por_mes`.
    assert_eq!(SALARIO_MINIMO_MENSUAL, SALARIO_MINIMO_DIARIO * DIAS_POR_MES);
    assert_eq!(UMA_MENSUAL, UMA_DIARIA * DIAS_POR_MES);
}

#[test]
fn a_calibration_reads_back_what_it_writes() {
    let cal = Calibration::default();
    let text = cal.to_toml();
    let again = Calibration::from_toml(&text).expect("written calibration reads back");
    assert_eq!(again, cal);
    assert_eq!(again.to_toml(), text);
}

/// The embedded text with `from` replaced by `to` (once).
fn cambiada(from: &str, to: &str) -> String {
    assert!(EMBEDDED_TOML.contains(from), "{from}");
    EMBEDDED_TOML.replacen(from, to, 1)
}

fn falla(text: &str) -> (String, String) {
    let e = Calibration::from_toml(text).expect_err("refused");
    assert_eq!(e.code, ErrorCode::CalibrationInvalid, "{e}");
    assert_eq!(e.code.as_str(), "CALIBRATION_INVALID");
    (e.field.unwrap_or_default(), e.message)
}

/// The refused documents of `fixtures/calibraciones/invalidas.json` (every surface reads them).
#[test]
fn every_fault_names_its_key() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/calibraciones/invalidas.json");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let casos = doc["casos"].as_array().expect("casos");
    assert!(casos.len() >= 20);
    for caso in casos {
        let text = cambiada(caso["reemplazar"].as_str().expect("text"), caso["por"].as_str().expect("text"));
        let (field, message) = falla(&text);
        assert_eq!(caso["error"]["code"], "CALIBRATION_INVALID");
        assert_eq!(field, caso["error"]["field"].as_str().expect("field"), "{}: {message}", caso["description"]);
        assert!(message.contains(|c: char| c.is_alphabetic()), "{message}");
    }
}

/// The valid profiles of `fixtures/cases/` (as JSON text).
fn fixture_profiles() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cases");
    let mut files: Vec<_> = std::fs::read_dir(dir).expect("cases").map(|e| e.expect("entry").path()).collect();
    files.sort();
    files
        .iter()
        .filter_map(|f| {
            let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(f).expect("read")).expect("json");
            let input = case.get("input")?.to_string();
            score_core::ValidProfile::from_json_str(&input).ok().map(|_| input)
        })
        .collect()
}

/// The embedded calibration renamed: another `id`, date, product name and source.
fn renombrada(id: &str) -> String {
    cambiada("id = \"mx-2026.11-6\"", &format!("id = \"{id}\""))
        .replacen("vigente_desde = \"2026-02-01\"", "vigente_desde = \"2026-03-15\"", 1)
        .replacen("nombre = \"Hipoteca bancaria promedio del mercado\"", "nombre = \"Hipoteca Ejemplo\"", 1)
}

#[test]
fn every_fixture_scores_alike_under_the_default_and_a_loaded_calibration() {
    let embedded = Calibration::default();
    let loaded = Calibration::from_toml(&embedded.to_toml()).expect("reads back");
    let renamed = Calibration::from_toml(&renombrada("banco-ejemplo-2026.03")).expect("renamed");
    assert_eq!(renamed.id(), "banco-ejemplo-2026.03");
    assert_eq!(renamed.vigente_desde(), "2026-03-15");
    let profiles = fixture_profiles();
    assert!(profiles.len() > 50, "{}", profiles.len());
    for text in profiles {
        let plain = score_core::score_json(&text).expect("valid");
        assert_eq!(score_core::score_json_calibrated(&text, &embedded).expect("valid"), plain);
        assert_eq!(score_core::score_json_calibrated(&text, &loaded).expect("valid"), plain);
        let other = score_core::score_json_calibrated(&text, &renamed).expect("valid");
        assert_eq!(other, plain.replace("\"calibracion\":\"mx-2026.11-6\"", "\"calibracion\":\"banco-ejemplo-2026.03\""));
        assert_ne!(other, plain);
    }
}

#[test]
fn a_figure_this_version_cannot_apply_is_refused_not_ignored() {
    let text = cambiada(
        "tasa_anual = { valor = 0.1165, fuente = \"dinero_2025_t1\" }",
        "tasa_anual = { valor = 0.1099, fuente = \"dinero_2025_t1\" }",
    );
    let (field, message) = falla(&text);
    assert_eq!(field, "productos[2].tasa_anual");
    assert!(message.contains("0.1099") && message.contains("0.1165"), "{message}");
    // A figure the embedded calibration does not have, even an optional one, is refused too.
    let text = cambiada(
        "credito_min = { valor = 250000,",
        "ingreso_min = { valor = 15000, estimacion = \"un ingreso mínimo del banco\" }\ncredito_min = { valor = 250000,",
    );
    assert_eq!(falla(&text).0, "productos[2].ingreso_min");
    let text = cambiada("valor = 0.90, independiente = 0.80,", "valor = 0.90, independiente = 0.80, mixto = 0.85,");
    assert_eq!(falla(&text).0, "productos[2].ltv_max.mixto");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// A calibration written with `to_toml` and read again is the same and scores identically.
    #[test]
    fn written_and_read_again_scores_identically(id in "[a-z][a-z0-9.-]{0,30}", which in 0usize..1000) {
        let cal = Calibration::from_toml(&renombrada(&id)).expect("valid");
        let again = Calibration::from_toml(&cal.to_toml()).expect("reads back");
        proptest::prop_assert_eq!(&again, &cal);
        let profiles = fixture_profiles();
        let text = &profiles[which % profiles.len()];
        proptest::prop_assert_eq!(
            score_core::score_json_calibrated(text, &again).expect("valid"),
            score_core::score_json_calibrated(text, &cal).expect("valid")
        );
    }
}
