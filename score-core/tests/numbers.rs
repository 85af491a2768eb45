//! Numbers as written: a JSON text and a host number (Python float, JavaScript number) with the
//! same literal read to the same decimal, the literal's shortest round-trip digits.

use score_core::{Profile, score, score_json};
use serde_json::Value;

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
