//! The verdict's sentences and the recommendations' texts state the limits of the calibration
//! in use: a bank's calibration with another total-debt limit, another share of income assumed
//! for undeclared debts, another age limit or another seniority minimum reads its own figures,
//! and the closing costs are the calibration's states', and the embedded one reads its own.

use score_core::calibration::{Calibration, EMBEDDED_TOML};
use score_core::{CodigoDictamen, verdict_text};

/// The embedded document with one figure changed.
fn cambiada(cambios: &[(&str, &str)]) -> Calibration {
    let texto = cambios.iter().fold(EMBEDDED_TOML.to_owned(), |t, (de, a)| {
        assert!(t.contains(de), "{de}");
        t.replacen(de, a, 1)
    });
    Calibration::from_toml(&texto).expect("a valid calibration")
}

/// A bank that lends up to 35% of income in debts, assumes 20% for undeclared ones and lends
/// until 80 years of age.
fn banco() -> Calibration {
    cambiada(&[
        ("dti_total_max = { valor = 0.40,", "dti_total_max = { valor = 0.35,"),
        ("proporcion_deudas_no_declaradas = { valor = 0.17,", "proporcion_deudas_no_declaradas = { valor = 0.2,"),
        (
            "edad_mas_plazo_max = { valor = 75, fuente = \"club_hipotecario_2025\" }",
            "edad_mas_plazo_max = { valor = 80, fuente = \"club_hipotecario_2025\" }",
        ),
    ])
}

/// The text of the item `codigo` of the list at `lista` (a JSON pointer) in the report of
/// `perfil` under `cal`.
fn texto(perfil: &str, cal: &Calibration, lista: &str, codigo: &str) -> Option<String> {
    let informe: serde_json::Value =
        serde_json::from_str(&score_core::score_json_calibrated(perfil, cal).expect("valid")).expect("json");
    informe
        .pointer(lista)
        .and_then(|l| l.as_array())
        .expect(lista)
        .iter()
        .find(|m| m["codigo"] == codigo)
        .map(|m| m["texto"].as_str().expect("texto").to_owned())
}

/// The sentence of the verdict's reason `codigo` in the report of `perfil` under `cal`.
fn motivo(perfil: &str, cal: &Calibration, codigo: &str) -> Option<String> {
    texto(perfil, cal, "/dictamen/motivos", codigo)
}

/// The recommendation `codigo`'s text in the report of `perfil` under `cal`.
fn recomendacion(perfil: &str, cal: &Calibration, codigo: &str) -> Option<String> {
    texto(perfil, cal, "/recomendaciones_detalle", codigo)
}

const CON_DEUDAS: &str = r#"{"estado": "JAL", "ingreso_mensual": 20000, "tipo_ingreso": "asalariado",
    "antiguedad_meses": 36, "ahorro": 50000, "edad": 35, "deudas_mensuales": 7500}"#;
const SIN_DEUDAS: &str = r#"{"estado": "JAL", "ingreso_mensual": 20000, "tipo_ingreso": "asalariado",
    "antiguedad_meses": 36, "ahorro": 50000, "edad": 35}"#;
const MAYOR: &str = r#"{"estado": "JAL", "ingreso_mensual": 20000, "tipo_ingreso": "asalariado",
    "antiguedad_meses": 36, "ahorro": 50000, "edad": 78, "deudas_mensuales": 0}"#;

#[test]
fn the_total_debt_limit_is_the_calibrations() {
    // 7,500 of 20,000 is 37.5%: within the embedded 40%, above the bank's 35%.
    assert_eq!(motivo(CON_DEUDAS, &Calibration::default(), "DEUDA_MAYOR_AL_LIMITE"), None);
    let texto = motivo(CON_DEUDAS, &banco(), "DEUDA_MAYOR_AL_LIMITE").expect("refused by the bank's limit");
    assert_eq!(texto, "Tus deudas pasan del 35% de tu ingreso, el límite de endeudamiento para un crédito.");
}

#[test]
fn the_share_assumed_for_undeclared_debts_is_the_calibrations() {
    let incluida = motivo(SIN_DEUDAS, &Calibration::default(), "DEUDAS_NO_DECLARADAS").expect("assumed");
    assert!(incluida.contains("se supuso el 17% de tu ingreso"), "{incluida}");
    assert_eq!(incluida, verdict_text(CodigoDictamen::DeudasNoDeclaradas));
    let del_banco = motivo(SIN_DEUDAS, &banco(), "DEUDAS_NO_DECLARADAS").expect("assumed");
    assert!(del_banco.contains("se supuso el 20% de tu ingreso"), "{del_banco}");
}

#[test]
fn the_age_limit_is_the_calibrations() {
    // At 78 the embedded bank (75) has no term left; the bank's (80) lends over two years.
    let incluida = motivo(MAYOR, &Calibration::default(), "SIN_PLAZO_POR_EDAD").expect("no term left");
    assert!(incluida.ends_with("no puedes pasar de 75 años."), "{incluida}");
    assert_eq!(motivo(MAYOR, &banco(), "SIN_PLAZO_POR_EDAD"), None);
    let viejo = MAYOR.replace("\"edad\": 78", "\"edad\": 80");
    let del_banco = motivo(&viejo, &banco(), "SIN_PLAZO_POR_EDAD").expect("no term left");
    assert!(del_banco.ends_with("no puedes pasar de 80 años."), "{del_banco}");
}

/// A figure written with more places reads as written, without trailing zeros.
#[test]
fn a_limit_with_decimals_reads_as_a_percentage() {
    let cal = cambiada(&[("dti_total_max = { valor = 0.40,", "dti_total_max = { valor = 0.325,")]);
    let texto = motivo(CON_DEUDAS, &cal, "DEUDA_MAYOR_AL_LIMITE").expect("above 32.5%");
    assert!(texto.contains("del 32.5% de tu ingreso"), "{texto}");
}

/// The recommendations that state a limit read the calibration's too: the debt limit, and the
/// bank's seniority minimum by income type.
#[test]
fn the_recommendations_state_the_calibrations_limits() {
    let texto = recomendacion(CON_DEUDAS, &banco(), "DEUDA_MAYOR_AL_LIMITE").expect("above the bank's limit");
    assert!(texto.contains("hasta bajar del 35% de tu ingreso"), "{texto}");
    let nuevo = SIN_DEUDAS.replace("\"antiguedad_meses\": 36", "\"antiguedad_meses\": 2");
    let incluida = recomendacion(&nuevo, &Calibration::default(), "ANTIGUEDAD_CORTA").expect("short seniority");
    assert!(incluida.contains("suelen pedir de 6 meses a 2 años en el empleo"), "{incluida}");
    assert_eq!(incluida, score_core::recommendation_text(score_core::CodigoRecomendacion::AntiguedadCorta));
    let un_anio = cambiada(&[("antiguedad_min_meses = { valor = 6, independiente = 24", "antiguedad_min_meses = { valor = 12, independiente = 12")]);
    let texto = recomendacion(&nuevo, &un_anio, "ANTIGUEDAD_CORTA").expect("short seniority");
    assert!(texto.contains("suelen pedir 1 año en el empleo"), "{texto}");
}

const POCO_AHORRO: &str = r#"{"estado": "AGU", "ingreso_mensual": 14000, "tipo_ingreso": "asalariado",
    "antiguedad_meses": 6, "ahorro": 0, "edad": 24, "deudas_mensuales": 0, "personas_hogar": 1}"#;

#[test]
fn the_closing_costs_are_the_calibrations_states() {
    // The embedded states' ISAI with notary (1.5%), registry (0.6%) and appraisal (0.25%).
    let incluida = recomendacion(POCO_AHORRO, &Calibration::default(), "AHORRO_BAJO").expect("low savings");
    assert!(incluida.contains("(entre 4.15% y 6.35% del valor, según el estado)"), "{incluida}");
    // A notary at 2.5% adds a point to every state.
    let cara = cambiada(&[("notario = { valor = 0.015,", "notario = { valor = 0.025,")]);
    let texto = recomendacion(POCO_AHORRO, &cara, "AHORRO_BAJO").expect("low savings");
    assert!(texto.contains("(entre 5.15% y 7.35% del valor, según el estado)"), "{texto}");
}
