//! The calibration document: the embedded one holds exactly the compiled model's figures, reads
//! back what it writes, and every fault is refused with `CALIBRATION_INVALID` and its key's path.

use rust_decimal::Decimal;
use score_core::calibration::{Calibration, EMBEDDED_TOML};
use score_core::{CALIBRATION, ErrorCode};

#[test]
fn the_embedded_calibration_is_the_default_and_names_the_reports() {
    let cal = Calibration::default();
    assert_eq!(cal.id(), CALIBRATION);
    assert_eq!(cal, Calibration::from_toml(EMBEDDED_TOML).expect("valid"));
    assert_eq!(cal.cifra("productos[2].tasa_anual"), Some(Decimal::new(1154, 4)));
    assert_eq!(cal.cifra("productos[2].no_existe"), None);
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

/// Faults of the document's shape, found by the reader before any check of the figures: each
/// names its key's path and says in Spanish what was found and what is expected.
#[test]
fn the_reader_names_each_shape_fault_in_spanish() {
    let tasa = "tasa_anual = { valor = 0.1154, fuente = \"universal_2026_02_22\"";
    let casos: [(String, &str, &str); 10] = [
        (cambiada(tasa, "tasa_anual = { valor = true, fuente = \"universal_2026_02_22\""), "productos[2].tasa_anual.valor",
            "`productos[2].tasa_anual.valor` tiene un tipo equivocado (el valor lógico true; se espera un número o un número decimal escrito como texto)."),
        (cambiada(tasa, "tasa_anual = { valor = \"once\", fuente = \"universal_2026_02_22\""), "productos[2].tasa_anual.valor",
            "`productos[2].tasa_anual.valor`: «once» no es un número decimal"),
        (cambiada(tasa, "tasa_anual = { valor = 0.1154, fuente = \"universal_2026_02_22\", moneda = \"MXN\""), "productos[2].tasa_anual.moneda",
            "La calibración no conoce la clave `productos[2].tasa_anual.moneda` (¿un error de escritura?)."),
        (cambiada("tipo = \"bancario\"", "tipo = \"hipoteca\""), "productos[2].tipo",
            "`productos[2].tipo` no admite «hipoteca»: se espera uno de `infonavit`, `fovissste`, `bancario`, `infonavit_mas_banco`, `unamos_creditos`, `cofinavit`."),
        (cambiada("tipo = \"bancario\"", "tipo = 3"), "productos[2].tipo",
            "`productos[2].tipo` tiene un tipo equivocado (el número entero 3; se espera un texto)."),
        (cambiada(&format!("id = \"{CALIBRATION}\"\n"), ""), "id", "Falta `id` en la calibración."),
        (cambiada("uma_vigente_desde = \"2026-02-01\"\n", ""), "general.uma_vigente_desde", "Falta `general.uma_vigente_desde` en la calibración."),
        (cambiada("[[0.5, 0], [1, 100]]", "[[0.5, 0], [1, 100, 3]]"), "curvas.ahorro_cobertura.puntos[1]",
            "`curvas.ahorro_cobertura.puntos[1]` debe ser un punto [x, y]; tiene 3 valores."),
        (cambiada("[[0.5, 0], [1, 100]]", "[[0.5, 0], [1, inf]]"), "curvas.ahorro_cobertura.puntos[1][1]",
            "`curvas.ahorro_cobertura.puntos[1][1]`: el número no es finito"),
        (format!("moneda = \"MXN\"\n{EMBEDDED_TOML}"), "moneda", "La calibración no conoce la clave `moneda` (¿un error de escritura?)."),
    ];
    for (text, path, message) in casos {
        assert_eq!(falla(&text), (path.to_owned(), format!("La calibración no es válida. {message}")));
    }
    let (path, message) = falla(&cambiada("[general]", "[general\n"));
    assert_eq!(path, "");
    assert!(message.starts_with("La calibración no es válida. La calibración no es TOML válido: "), "{message}");
}

/// A figure is read from the digits the document wrote: as a double's shortest form where it
/// is a number, exactly where it is text (for more digits than a double keeps).
#[test]
fn figures_are_read_from_their_digits() {
    let cifra = |text: &str, path: &str| {
        let cal = Calibration::from_toml(text).expect("valid");
        cal.cifras().into_iter().find(|(p, _)| p == path).expect("path").1
    };
    let tasa = "valor = 0.1154, fuente = \"universal_2026_02_22\"";
    assert_eq!(cifra(EMBEDDED_TOML, "productos[2].tasa_anual"), Decimal::new(1154, 4));
    assert_eq!(cifra(&cambiada(tasa, "valor = 0.1154000000000000000000001, fuente = \"universal_2026_02_22\""), "productos[2].tasa_anual"), Decimal::new(1154, 4));
    let exacta: Decimal = "0.1154000000000000000000001".parse().expect("decimal");
    assert_eq!(cifra(&cambiada(tasa, "valor = \"0.1154000000000000000000001\", fuente = \"universal_2026_02_22\""), "productos[2].tasa_anual"), exacta);
    assert_eq!(cifra(&cambiada("valor = 823,", "valor = 8_23,"), "productos[0].credito_max_umas"), Decimal::from(823));
    assert_eq!(cifra(&cambiada("valor = 823,", "valor = 0x337,"), "productos[0].credito_max_umas"), Decimal::from(823));
    assert_eq!(cifra(&cambiada("valor = 823,", "valor = 8.23e2,"), "productos[0].credito_max_umas"), Decimal::from(823));
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
    cambiada(&format!("id = \"{CALIBRATION}\""), &format!("id = \"{id}\""))
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
        assert_eq!(other, plain.replace(&format!("\"calibracion\":\"{CALIBRATION}\""), "\"calibracion\":\"banco-ejemplo-2026.03\""));
        assert_ne!(other, plain);
    }
}

/// The report of the fixture profile `n` (its JSON text) under `cal`, as JSON.
fn informe(text: &str, cal: &Calibration) -> serde_json::Value {
    serde_json::from_str(&score_core::score_json_calibrated(text, cal).expect("valid")).expect("json")
}

/// The offer of `producto` in a report.
fn oferta<'a>(report: &'a serde_json::Value, producto: &str) -> &'a serde_json::Value {
    report["productos"].as_array().expect("productos").iter().find(|o| o["producto"] == producto).expect("offer")
}

const PERFIL: &str = r#"{"estado":"JAL","ingreso_mensual":25000,"tipo_ingreso":"asalariado","antiguedad_meses":48,"ahorro":150000,"edad":35,"deudas_mensuales":1000}"#;

/// A loaded calibration computes with its own figures: a lower bank rate lends more at that
/// rate, as the annuity of PRODUCTS.md section 2.3 says, and nothing else of the report moves.
#[test]
fn a_changed_bank_rate_changes_the_bank_offer_as_the_method_says() {
    let text = cambiada(
        "tasa_anual = { valor = 0.1154, fuente = \"universal_2026_02_22\"",
        "tasa_anual = { valor = 0.1099, fuente = \"universal_2026_02_22\"",
    );
    let cal = Calibration::from_toml(&text).expect("a valid calibration scores with its figures");
    let (antes, despues) = (informe(PERFIL, &Calibration::default()), informe(PERFIL, &cal));
    let (a, b) = (oferta(&antes, "HIPOTECA_BANCARIA"), oferta(&despues, "HIPOTECA_BANCARIA"));
    assert_eq!(a["tasa_anual"], 0.1154);
    assert_eq!(b["tasa_anual"], 0.1099);
    // The same payment buys the annuity of the new rate: credit = payment / payment per peso.
    let pago = Decimal::try_from(b["pago_mensual"].as_f64().expect("pago")).expect("decimal");
    assert_eq!(a["pago_mensual"], b["pago_mensual"]);
    let meses = 12 * b["plazo_anios"].as_u64().expect("plazo") as u32;
    let seguros = Decimal::new(103, 5);
    let por_peso = score_core::products::cuota_por_peso(Decimal::new(1099, 4), meses, seguros);
    let credito = (pago / por_peso).round_dp(2);
    assert_eq!(Decimal::try_from(b["credito_max"].as_f64().expect("credito")).expect("decimal"), credito);
    assert!(b["credito_max"].as_f64() > a["credito_max"].as_f64());
    assert!(b["cat"].as_f64() < a["cat"].as_f64());
    // INFONAVIT's own credit does not read the bank's rate.
    assert_eq!(oferta(&antes, "INFONAVIT"), oferta(&despues, "INFONAVIT"));
    assert_eq!(antes["score"], despues["score"]);
}

/// The UMA moves INFONAVIT's rate (its table is in UMAs): a higher UMA puts the same salary in
/// a lower band, so a lower rate and a larger credit; the score does not read it.
#[test]
fn a_changed_uma_moves_infonavits_rate_band() {
    let cal = Calibration::from_toml(&cambiada(
        "uma_diaria = { valor = 117.31, fuente = \"uma_2026\" }",
        "uma_diaria = { valor = 130, fuente = \"uma_2026\" }",
    ))
    .expect("valid");
    let (antes, despues) = (informe(PERFIL, &Calibration::default()), informe(PERFIL, &cal));
    let (a, b) = (oferta(&antes, "INFONAVIT"), oferta(&despues, "INFONAVIT"));
    // 25,000 a month is 25,000 / (117.31 × 30.4) = 7.01 UMAs: the top rate (from 6.6 UMAs); at
    // 130 a day it is 6.33 UMAs, inside the table: a lower rate.
    assert_eq!(a["tasa_anual"], 0.1045);
    assert!(b["tasa_anual"].as_f64() < a["tasa_anual"].as_f64(), "{a} {b}");
    let asalariado = r#"{"estado":"JAL","ingreso_mensual":15000,"tipo_ingreso":"asalariado","antiguedad_meses":48,"ahorro":150000,"edad":35,"deudas_mensuales":0}"#;
    let (antes, despues) = (informe(asalariado, &Calibration::default()), informe(asalariado, &cal));
    let (a, b) = (oferta(&antes, "INFONAVIT"), oferta(&despues, "INFONAVIT"));
    // 15,000 is 4.21 UMAs of 117.31 and 3.80 of 130: a lower rate, more credit (the payment
    // share is 30% from 3 UMAs either way).
    assert!(b["tasa_anual"].as_f64() < a["tasa_anual"].as_f64(), "{a} {b}");
    assert!(b["credito_max"].as_f64() > a["credito_max"].as_f64(), "{a} {b}");
    assert_eq!(antes["score"], despues["score"]);
}

/// A bank product's minimum income (`ingreso_min`) refuses a household below it with
/// `INGRESO_MENOR_AL_MINIMO_DEL_BANCO`, and changes nothing above it.
#[test]
fn a_banks_minimum_income_refuses_lower_incomes() {
    let con_minimo = |minimo: u32| {
        let text = cambiada(
            "credito_min = { valor = 250000,",
            &format!("ingreso_min = {{ valor = {minimo}, estimacion = \"un ingreso mínimo del banco\" }}\ncredito_min = {{ valor = 250000,"),
        );
        Calibration::from_toml(&text).expect("valid")
    };
    let banco = |cal: &Calibration| oferta(&informe(PERFIL, cal), "HIPOTECA_BANCARIA").clone();
    let refusada = banco(&con_minimo(30_000));
    assert_eq!(refusada["elegible"], false);
    assert_eq!(refusada["motivos"], serde_json::json!(["INGRESO_MENOR_AL_MINIMO_DEL_BANCO"]));
    assert_eq!(banco(&con_minimo(25_000)), banco(&Calibration::default()));
}

/// The calibrations of `fixtures/calibraciones/dos-bancos.json` (every surface reads them).
fn dos_bancos() -> Vec<(Calibration, serde_json::Value)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/calibraciones/dos-bancos.json");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    doc["casos"]
        .as_array()
        .expect("casos")
        .iter()
        .map(|caso| {
            let text = cambiada(caso["reemplazar"].as_str().expect("text"), caso["por"].as_str().expect("text"));
            (Calibration::from_toml(&text).expect("two bank products are valid"), caso.clone())
        })
        .collect()
}

/// A calibration with two bank products lists both, in its order after FOVISSSTE, and
/// recommends the one that buys the most house; each is the bank mortgage of its own figures:
/// the second one's offer is the one the calibration with it alone as its bank gives.
#[test]
fn two_bank_products_recommend_the_one_that_buys_the_most_house() {
    let casos = dos_bancos();
    assert_eq!(casos.len(), 2);
    for (cal, caso) in &casos {
        let r = informe(&caso["perfil"].to_string(), cal);
        let claves: Vec<&str> = r["productos"].as_array().expect("productos").iter().map(|o| o["producto"].as_str().expect("clave")).collect();
        assert_eq!(serde_json::json!(claves), caso["productos"], "{}", caso["description"]);
        assert_eq!(r["producto_recomendado"], caso["producto_recomendado"], "{}", caso["description"]);
        let otro = claves[3];
        let (valor_otro, valor_promedio) =
            (oferta(&r, otro)["valor_vivienda_max"].as_f64().expect("f64"), oferta(&r, "HIPOTECA_BANCARIA")["valor_vivienda_max"].as_f64().expect("f64"));
        let mas_casa = if valor_otro > valor_promedio { otro } else { "HIPOTECA_BANCARIA" };
        assert_eq!(r["producto_recomendado"], mas_casa);
        assert_eq!(r["capacidad_compra_estimada"]["credito_max"], oferta(&r, mas_casa)["credito_max"]);
        // The second product alone as the calibration's bank: its offer is the same.
        let solo = cal
            .to_toml()
            .replacen("clave = \"HIPOTECA_BANCARIA\"", "clave = \"PROMEDIO_RETIRADO\"", 1)
            .replace("banco = \"HIPOTECA_BANCARIA\"", &format!("banco = \"{otro}\""));
        let solo = Calibration::from_toml(&solo).expect("valid");
        assert_eq!(oferta(&informe(&caso["perfil"].to_string(), &solo), otro), oferta(&r, otro));
    }
}

/// Cofinavit lends its bank part with the 70/30 scheme's bank product: naming another one is
/// refused at its key; a calibration without Cofinavit is valid and does not list it.
#[test]
fn cofinavit_is_optional_and_lends_with_the_schemes_bank() {
    let (cal, _) = dos_bancos().swap_remove(0);
    let otro = cal.to_toml().replacen("tipo = \"cofinavit\"\nbanco = \"HIPOTECA_BANCARIA\"", "tipo = \"cofinavit\"\nbanco = \"BANCO_TASA_BAJA\"", 1);
    let (campo, mensaje) = falla(&otro);
    assert_eq!(campo, "productos[6].banco", "{mensaje}");
    assert!(mensaje.contains("«HIPOTECA_BANCARIA»"), "{mensaje}");
    let inicio = EMBEDDED_TOML.find("[[productos]]\nclave = \"COFINAVIT\"").expect("Cofinavit");
    let fin = inicio + EMBEDDED_TOML[inicio..].find("\n\n").expect("its end");
    let sin = Calibration::from_toml(&EMBEDDED_TOML.replacen(&EMBEDDED_TOML[inicio..fin], "", 1)).expect("valid without Cofinavit");
    let r = informe(PERFIL, &sin);
    let claves: Vec<&str> = r["productos"].as_array().expect("productos").iter().map(|o| o["producto"].as_str().expect("clave")).collect();
    assert_eq!(claves, ["INFONAVIT", "FOVISSSTE", "HIPOTECA_BANCARIA", "INFONAVIT_MAS_BANCO", "UNAMOS_CREDITOS"]);
    let con = informe(PERFIL, &Calibration::default());
    assert_eq!(con["productos"].as_array().expect("productos").len(), 6);
}

/// A loan-to-value by income type applies to that type alone.
#[test]
fn a_loan_to_value_for_mixed_incomes_applies_to_them() {
    let cal = Calibration::from_toml(&cambiada("valor = 0.90, independiente = 0.80,", "valor = 0.90, independiente = 0.80, mixto = 0.85,"))
        .expect("valid");
    let mixto = PERFIL.replace("asalariado", "mixto");
    let b = informe(&mixto, &cal);
    let banco = oferta(&b, "HIPOTECA_BANCARIA");
    let (credito, valor) = (banco["credito_max"].as_f64().expect("f64"), banco["valor_vivienda_max"].as_f64().expect("f64"));
    assert!((credito / valor - 0.85).abs() < 1e-6, "{credito} / {valor}");
    assert_eq!(oferta(&informe(PERFIL, &cal), "HIPOTECA_BANCARIA"), oferta(&informe(PERFIL, &Calibration::default()), "HIPOTECA_BANCARIA"));
}

/// The bank products the round-trip proptest adds, by `clave`, with the offset of each one's
/// rate from the proptest's.
const DOS_BANCOS_TASAS: [(&str, u32); 2] = [("BANCO_UNO", 0), ("BANCO_DOS", 150)];

fn tasa_otro(desplazamiento: &u32, tasa: u32) -> u32 {
    tasa + desplazamiento
}

/// A bank product `clave` at rate `tasa` (the second product of `dos-bancos.json`), followed by
/// the 70/30 product's first line, which it is inserted before.
fn dos_bancos_por(clave: &str, tasa: Decimal) -> String {
    let (_, caso) = dos_bancos().swap_remove(0);
    caso["por"]
        .as_str()
        .expect("text")
        .replacen("BANCO_TASA_BAJA", clave, 1)
        .replacen("valor = 0.095,", &format!("valor = {tasa},"), 1)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// A calibration written with `to_toml` and read again is the same and scores identically.
    #[test]
    fn written_and_read_again_scores_identically(id in "[a-z][a-z0-9.-]{0,30}", which in 0usize..1000, tasa in 500u32..2500, uma in 9000u32..20000, tasa_extra in 500u32..2500) {
        // Other figures too: a bank rate and a UMA of the proptest's choosing.
        let text = renombrada(&id)
            .replacen("valor = 0.1154,", &format!("valor = {},", Decimal::new(i64::from(tasa), 4)), 1)
            .replacen("valor = 117.31,", &format!("valor = {},", Decimal::new(i64::from(uma), 2)), 1);
        // Several bank products: the two of `dos-bancos.json`, at rates of the proptest's choosing.
        let text = DOS_BANCOS_TASAS.iter().fold(text, |text, (clave, desplazamiento)| {
            let banco = dos_bancos_por(clave, Decimal::new(i64::from(tasa_otro(desplazamiento, tasa_extra)), 4));
            text.replacen("[[productos]]\nclave = \"INFONAVIT_MAS_BANCO\"", &banco, 1)
        });
        let cal = Calibration::from_toml(&text).expect("valid");
        proptest::prop_assert_eq!(cal.to_toml().matches("tipo = \"bancario\"").count(), 3);
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
