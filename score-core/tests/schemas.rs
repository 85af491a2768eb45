//! The committed JSON Schemas (`fixtures/profile.schema.json`, `fixtures/report.schema.json`)
//! are what score-core generates: a change to the report's walk or to the profile's fields
//! fails here until the files are regenerated with `BLESS=1 cargo test -p score-core --test
//! schemas` (and the bindings' type stubs, checked against these files, follow).

use std::path::PathBuf;

fn check(file: &str, schema: &serde_json::Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(file);
    let generated = score_core::schema::to_file_text(schema);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write the schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{file} drifted from score-core: run `BLESS=1 cargo test -p score-core --test schemas` and review the diff"
    );
}

#[test]
fn profile_schema_is_committed() {
    check("profile.schema.json", &score_core::schema::profile_schema());
}

#[test]
fn report_schema_is_committed() {
    check("report.schema.json", &score_core::schema::report_schema());
}

/// Every fixture's profile and report fit the schemas' keys and types (a small checker of
/// the subset of JSON Schema the generator writes).
#[test]
fn fixtures_fit_the_schemas() {
    let profile = score_core::schema::profile_schema();
    let report = score_core::schema::report_schema();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/cases");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("fixtures/cases") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("fixture");
        let case: serde_json::Value = serde_json::from_str(&text).expect("fixture JSON");
        let Some(input) = case.get("input") else { continue };
        if let Ok(out) = score_core::score_value(input) {
            assert_eq!(fits(&profile, input), Ok(()), "{input}");
            let out = serde_json::to_value(&out).expect("report");
            assert_eq!(fits(&report, &out), Ok(()));
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked} fixtures");
}

fn fits(schema: &serde_json::Value, value: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    if let Some(branches) = schema["anyOf"].as_array() {
        return if branches.iter().any(|b| fits(b, value).is_ok()) { Ok(()) } else { Err(format!("{value} fits no branch of {schema}")) };
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return Err(format!("no type in {schema}")),
    };
    let ok = types.iter().any(|t| match (*t, value) {
        ("null", Value::Null) | ("string", Value::String(_)) | ("array", Value::Array(_)) => true,
        ("object", Value::Object(_)) => true,
        ("number", Value::Number(_)) | ("boolean", Value::Bool(_)) => true,
        ("integer", Value::Number(n)) => n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    });
    if !ok {
        return Err(format!("{value} is not {types:?}"));
    }
    if let (Some(all), Some(s)) = (schema["enum"].as_array(), value.as_str()) {
        if !all.iter().any(|a| a == s) {
            return Err(format!("{s} not in {all:?}"));
        }
    }
    match value {
        Value::Object(map) => {
            for key in schema["required"].as_array().into_iter().flatten() {
                let key = key.as_str().unwrap_or_default();
                if !map.contains_key(key) {
                    return Err(format!("missing {key}"));
                }
            }
            for (key, v) in map {
                let Some(sub) = schema["properties"].get(key) else { return Err(format!("unknown key {key}")) };
                fits(sub, v).map_err(|e| format!("{key}: {e}"))?;
            }
        }
        Value::Array(items) => {
            for item in items {
                fits(&schema["items"], item)?;
            }
        }
        _ => {}
    }
    Ok(())
}
