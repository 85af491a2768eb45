//! Every mistake of a profile at once: on random profiles with mistakes planted field by field,
//! the list is exactly the planted mistakes in the documented order (unknown keys, then each
//! field as read in `FIELDS` order, then the ranges in `FIELDS` order), and its first one is
//! the single error a reader that stops at the first mistake gives: `code`, `field` and
//! `message` of the error.

use proptest::prelude::*;
use score_core::{ErrorCode, FIELDS};
use serde_json::{Map, Value, json};

/// When a mistake is found: 0 unknown keys, 1 as the field is read, 2 its range.
type Fase = u8;

/// A mistake: the value (`None`: left out), its code and the phase it is found in.
type Falta = (Option<Value>, ErrorCode, Fase);

/// Each field's valid value (`None`: left out) and its possible mistakes.
fn menu() -> Vec<(&'static str, Option<Value>, Vec<Falta>)> {
    use ErrorCode::*;
    vec![
        ("estado", Some(json!("CMX")), vec![
            (Some(json!("XX")), UnknownState, 1),
            (Some(json!(5)), InvalidType, 1),
            (None, MissingField, 1),
        ]),
        ("ingreso_mensual", Some(json!(30000)), vec![
            (Some(json!(-5)), NegativeAmount, 2),
            (Some(json!(0)), ValueOutOfRange, 2),
            (Some(json!("x")), InvalidType, 1),
            (Some(json!(1e9)), AmountTooLarge, 2),
        ]),
        ("tipo_ingreso", Some(json!("asalariado")), vec![
            (Some(json!("foo")), UnknownIncomeType, 1),
            (None, MissingField, 1),
        ]),
        ("antiguedad_meses", Some(json!(36)), vec![
            (Some(json!(1.5)), NotAnInteger, 1),
            (Some(json!(-1)), ValueOutOfRange, 1),
            (Some(json!(10000)), ValueOutOfRange, 2),
        ]),
        ("deudas_mensuales", Some(json!(1000)), vec![
            (Some(json!(-1)), NegativeAmount, 2),
            (Some(json!(true)), InvalidType, 1),
        ]),
        ("ahorro", None, vec![(Some(json!(-3)), NegativeAmount, 2), (Some(json!(0.001)), ValueOutOfRange, 2)]),
        ("edad", Some(json!(35)), vec![(Some(json!(15)), ValueOutOfRange, 2), (Some(json!(30.5)), NotAnInteger, 1)]),
        ("personas_hogar", Some(json!(3)), vec![(Some(json!(0)), ValueOutOfRange, 2), (Some(json!([3])), InvalidType, 1)]),
        ("institucion", None, vec![(Some(json!("IMSS")), UnknownInstitution, 1)]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_planted_mistake_is_listed_in_order_and_the_first_is_the_single_error(
        choices in proptest::collection::vec(0usize..8, 9),
        unknown in proptest::collection::vec(prop::sample::select(vec!["zeta", "alfa", "ESTADO", "ingreso"]), 0..3),
    ) {
        let mut profile = Map::new();
        let mut planted: Vec<(Fase, usize, ErrorCode, String)> = Vec::new();
        for ((field, valid, mistakes), choice) in menu().into_iter().zip(choices) {
            // About half the fields are valid.
            let (value, mistake) = match mistakes.get(choice.wrapping_sub(4)) {
                Some((value, code, fase)) => (value.clone(), Some((*code, *fase))),
                None => (valid, None),
            };
            if let Some(value) = value {
                profile.insert(field.to_owned(), value);
            }
            if let Some((code, fase)) = mistake {
                let at = FIELDS.iter().position(|f| *f == field).expect("a field");
                planted.push((fase, at, code, field.to_owned()));
            }
        }
        for key in &unknown {
            profile.insert((*key).to_owned(), json!(1));
            planted.push((0, 0, ErrorCode::UnknownField, (*key).to_owned()));
        }
        planted.sort_by(|a, b| (a.0, a.1, &a.3).cmp(&(b.0, b.1, &b.3)));
        planted.dedup();
        let value = Value::Object(profile);
        let by_value = score_core::score_value(&value);
        let by_text = score_core::score_json(&value.to_string());
        if planted.is_empty() {
            prop_assert!(by_value.is_ok(), "{}", value);
            return Ok(());
        }
        let e = by_value.expect_err("mistakes planted");
        prop_assert_eq!(Some(&e), by_text.as_ref().err(), "text and value agree: {}", value);
        let listed: Vec<(ErrorCode, String)> =
            e.errors.iter().map(|d| (d.codigo, d.campo.clone().unwrap_or_default())).collect();
        let wanted: Vec<(ErrorCode, String)> = planted.iter().map(|p| (p.2, p.3.clone())).collect();
        prop_assert_eq!(&listed, &wanted, "{}", value);
        // The single error is the first of the list, as a reader that stops at it gives it.
        let first = &e.errors[0];
        prop_assert_eq!((first.codigo, first.campo.as_ref(), &first.mensaje), (e.code, e.field.as_ref(), &e.message));
        let single = first_mistake(&value);
        prop_assert_eq!((e.code, e.field.clone()), single, "{}", value);
    }
}

/// The first mistake by the rule the model had when it gave one error: an unknown key (the
/// least), else the first field in `FIELDS` order that cannot be read, else the first range
/// broken in `FIELDS` order. Written from the rule, not from the code.
fn first_mistake(profile: &Value) -> (ErrorCode, Option<String>) {
    let map = profile.as_object().expect("an object");
    if let Some(key) = map.keys().filter(|k| !FIELDS.contains(&k.as_str())).min() {
        return (ErrorCode::UnknownField, Some(key.clone()));
    }
    for fase in [1, 2] {
        for (field, valid, mistakes) in menu() {
            let value = map.get(field).cloned();
            if value == valid {
                continue;
            }
            if let Some((_, code, _)) = mistakes.iter().find(|(v, _, f)| *v == value && *f == fase) {
                return (*code, Some(field.to_owned()));
            }
        }
    }
    panic!("no mistake in {profile}")
}

/// The four-mistake profile of issue 44, which every surface reads from the fixtures.
#[test]
fn the_four_mistakes_come_in_the_documented_order() {
    let case: Value = serde_json::from_str(include_str!("../../fixtures/cases/143-error-four-mistakes.json")).expect("json");
    let e = score_core::score_value(&case["input"]).expect_err("four mistakes");
    let codes: Vec<&str> = e.errors.iter().map(|d| d.codigo.as_str()).collect();
    assert_eq!(codes, ["UNKNOWN_STATE", "UNKNOWN_INCOME_TYPE", "NOT_AN_INTEGER", "NEGATIVE_AMOUNT"]);
    assert_eq!(serde_json::to_value(&e.errors).expect("json"), case["error"]["errores"]);
}

/// A valid profile validates without allocating (its error list stays empty), and a profile
/// built in Rust gets the same list as its JSON.
#[test]
fn a_profile_built_in_rust_lists_its_range_mistakes() {
    let mut p = score_core::Profile::from_json_str(
        r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
    )
    .expect("valid");
    assert_eq!(p.validate(), Ok(()));
    p.edad = Some(10);
    p.personas_hogar = Some(0);
    p.ahorro = rust_decimal::Decimal::new(-1, 0);
    let e = p.validate().expect_err("three mistakes");
    let fields: Vec<&str> = e.errors.iter().filter_map(|d| d.campo.as_deref()).collect();
    assert_eq!(fields, ["ahorro", "edad", "personas_hogar"]);
    assert_eq!(Err(e), score_core::Profile::from_json_value(&p.to_json_value()).map(|_| ()));
}
