//! Numbers as written: a JSON text reads the digits written, never through a binary double;
//! a host number (Python float, JavaScript number) reads as its double's shortest round-trip
//! digits, so a literal of at most 17 significant digits that is its double's shortest reads
//! the same from both.

use rust_decimal::Decimal;
use score_core::{ErrorCode, Profile, score, score_json};
use serde_json::Value;
use std::str::FromStr;

/// A profile text with `extra` fields after the required ones.
fn profile_text(ingreso: &str, antiguedad: &str, extra: &str) -> String {
    format!(r#"{{"estado":"JAL","ingreso_mensual":{ingreso},"tipo_ingreso":"asalariado","antiguedad_meses":{antiguedad}{extra}}}"#)
}

fn error_of(text: &str) -> (ErrorCode, Option<String>) {
    let e = score_json(text).expect_err(text);
    (e.code, e.field)
}

#[test]
fn a_json_text_reads_the_digits_written() {
    // 22 significant digits: the nearest double is 10379.2, the amount written is not.
    let profile = Profile::from_json_str(&profile_text("10379.1999999999999999", "60", "")).expect("valid");
    assert_eq!(profile.ingreso_mensual, Decimal::from_str("10379.1999999999999999").expect("decimal"));
    assert_ne!("10379.1999999999999999".parse::<f64>().expect("double").to_string(), "10379.1999999999999999");
    // 17 digits that are not their double's shortest (0.1): the text keeps them.
    let profile = Profile::from_json_str(&profile_text("30000", "60", r#","deudas_mensuales":0.10000000000000001"#)).expect("valid");
    assert_eq!(profile.deudas_mensuales, Some(Decimal::from_str("0.10000000000000001").expect("decimal")));
    // The co-borrower's numbers too: 29,999.99999999999999999 is less than the household's
    // 30,000 (its double is 30,000, which would be refused as not less).
    let co = r#","coacreditado":{"ingreso_mensual":29999.99999999999999999,"tipo_ingreso":"mixto","antiguedad_meses":1.2e1}"#;
    let profile = Profile::from_json_str(&profile_text("30000", "60", co)).expect("valid");
    let coacreditado = profile.coacreditado.expect("a co-borrower");
    assert_eq!(coacreditado.ingreso_mensual, Decimal::from_str("29999.99999999999999999").expect("decimal"));
    assert_eq!(coacreditado.antiguedad_meses, 12);
}

#[test]
fn validation_reads_the_digits_written() {
    // Below a centavo as written, though its double is 0.01.
    let text = profile_text("30000", "60", r#","deudas_mensuales":0.0099999999999999999999"#);
    assert_eq!(error_of(&text), (ErrorCode::ValueOutOfRange, Some("deudas_mensuales".to_owned())));
    // Not whole months as written, though the double is 36: reported by the JSON value reader,
    // which reads the text's digits too, in the profile and in its co-borrower.
    let text = profile_text("30000", "36.0000000000000000001", "");
    assert_eq!(error_of(&text), (ErrorCode::NotAnInteger, Some("antiguedad_meses".to_owned())));
    let co = r#","coacreditado":{"ingreso_mensual":1000,"tipo_ingreso":"mixto","antiguedad_meses":12.0000000000000000001}"#;
    let text = profile_text("30000", "36", co);
    assert_eq!(error_of(&text), (ErrorCode::NotAnInteger, Some("coacreditado.antiguedad_meses".to_owned())));
    // Far beyond a `Decimal`: out of range; beyond a double: not JSON the parser accepts.
    assert_eq!(error_of(&profile_text("1e30", "36", "")).0, ErrorCode::AmountTooLarge);
    // A count that large is out of its range, as any count.
    assert_eq!(error_of(&profile_text("30000", "1e30", "")), (ErrorCode::ValueOutOfRange, Some("antiguedad_meses".to_owned())));
    assert_eq!(error_of(&profile_text("1e400", "36", "")).0, ErrorCode::InvalidJson);
}

const TEXT: &str = r#"{"estado":"02","ingreso_mensual":10379.199999999999,"tipo_ingreso":"MIXTO","antiguedad_meses":60}"#;

#[test]
fn a_17_digit_literal_reads_the_same_from_text_and_from_a_host_double() {
    // The text path (score_json, HTTP, scoreJson).
    let from_text: Value = serde_json::from_str(&score_json(TEXT).expect("scores")).expect("report JSON");
    // What a binding builds from the host's double of the same literal (Python's float and
    // JavaScript's number are the correctly rounded double; its shortest digits are the literal's).
    let host: f64 = "10379.199999999999".parse().expect("a double");
    assert_eq!(host.to_string(), "10379.199999999999");
    let mut profile: Value = serde_json::from_str(TEXT).expect("profile JSON");
    profile["ingreso_mensual"] = Value::from(host);
    let from_host = serde_json::to_value(score(&Profile::from_json_value(&profile).expect("valid")).expect("scores"))
        .expect("report value");
    // With calibration mx-2026.11-2 (income in pesos) this literal sat next to a rounding tie:
    // 2.43 exactly, 2.44 through a misparsed double. The agreement is what must hold under
    // any calibration; `text_numbers_parse_to_the_correctly_rounded_double` checks the parse.
    assert_eq!(from_text, from_host);
}

#[test]
fn text_numbers_parse_to_the_correctly_rounded_double() {
    // Literals whose nearest double a fast, approximate parse misses by one unit in the last place.
    for literal in ["10379.199999999999", "2.2250738585072011e-308", "9007199254740993", "0.30000000000000004"] {
        let parsed: Value = serde_json::from_str(literal).expect("a number");
        assert_eq!(parsed.as_f64(), literal.parse::<f64>().ok(), "{literal}");
    }
}

#[test]
fn a_profile_written_as_text_keeps_the_digits_of_its_amounts() {
    // Amounts a double cannot hold, in the profile and in its co-borrower.
    let co = r#","deudas_mensuales":0.10000000000000001,"ahorro":150000.50,"subcuenta_fondo":1e5,"coacreditado":{"ingreso_mensual":29999.99999999999999999,"tipo_ingreso":"mixto","antiguedad_meses":12,"deudas_mensuales":0.05,"subcuenta_fondo":20000.125}"#;
    let profile = Profile::from_json_str(&profile_text("30000", "60", co)).expect("valid");
    let text = profile.to_json_string();
    assert_eq!(Profile::from_json_str(&text).expect("reads back"), profile);
    assert!(text.contains(r#""ingreso_mensual":29999.99999999999999999"#), "{text}");
    assert!(text.contains(r#""deudas_mensuales":0.10000000000000001"#), "{text}");
    // Through its JSON value the co-borrower's income is its double, 30,000: not less than
    // the household's, so that profile does not even read back.
    let through_double = profile.to_json_value().to_string();
    assert_eq!(Profile::from_json_str(&through_double).expect_err("30,000 is not less").code, ErrorCode::ValueOutOfRange);
    // Otherwise the text is the JSON value's: the same members, the same canonical forms.
    let plain = Profile::from_json_str(r#"{"estado":"Jalisco","ingreso_mensual":42000.50,"tipo_ingreso":"asalariado","antiguedad_meses":30,"deudas_mensuales":3500,"edad":33}"#)
        .expect("valid");
    let value: Value = serde_json::from_str(&plain.to_json_string()).expect("JSON");
    assert_eq!(value, plain.to_json_value());
}
