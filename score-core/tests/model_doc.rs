//! MODEL.md and the code's tables must agree: every parameter, every curve breakpoint and every
//! state row is parsed from the document and compared with `params.rs` / `states.rs`, both ways.

use rust_decimal::Decimal;
use score_core::params::{CURVES, PARAMETERS};
use score_core::states::{STATES, SourceTag};
use std::collections::BTreeMap;
use std::str::FromStr;

fn model_md() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/MODEL.md")).expect("MODEL.md next to Cargo.toml")
}

/// The cells of a Markdown table row, trimmed; `None` for other lines.
fn cells(line: &str) -> Option<Vec<&str>> {
    let line = line.trim();
    let inner = line.strip_prefix('|')?.strip_suffix('|')?;
    Some(inner.split('|').map(str::trim).collect())
}

/// A number as written in the document: thousands separators allowed ("9,600").
fn number(cell: &str) -> Option<Decimal> {
    Decimal::from_str(&cell.replace(',', "")).ok()
}

fn backticked(cell: &str) -> Option<&str> {
    cell.strip_prefix('`')?.strip_suffix('`')
}

#[test]
fn every_parameter_is_documented_with_its_value() {
    let doc = model_md();
    let section = doc.split("## 11. Parameters").nth(1).expect("section 11");
    let mut documented = BTreeMap::new();
    for row in section.lines().filter_map(cells) {
        if let (Some(name), Some(value)) = (row.first().and_then(|c| backticked(c)), row.get(1).and_then(|c| number(c))) {
            assert!(row.len() >= 5 && !row[4].is_empty(), "{name}: needs a source or reasoning");
            assert!(["S", "C", "E"].contains(&row[3]), "{name}: tag must be S, C or E");
            assert!(documented.insert(name.to_owned(), value).is_none(), "{name} documented twice");
        }
    }
    for (name, value) in PARAMETERS {
        let doc_value = documented.remove(*name).unwrap_or_else(|| panic!("{name} is not in MODEL.md section 11"));
        assert_eq!(doc_value, *value, "{name}: MODEL.md says {doc_value}, the code {value}");
    }
    assert!(documented.is_empty(), "MODEL.md documents parameters the code lacks: {:?}", documented.keys());
}

#[test]
fn every_curve_is_documented_breakpoint_by_breakpoint() {
    let doc = model_md();
    for (name, curve) in CURVES {
        let heading = format!("#### `{name}`");
        let after = doc.split(&heading).nth(1).unwrap_or_else(|| panic!("MODEL.md has no heading {heading}"));
        let table: Vec<(Decimal, Decimal)> = after
            .lines()
            .skip_while(|l| !l.trim_start().starts_with('|'))
            .take_while(|l| l.trim_start().starts_with('|'))
            .filter_map(cells)
            .filter_map(|row| Some((number(row.first()?)?, number(row.get(1)?)?)))
            .collect();
        assert_eq!(table.as_slice(), curve.points(), "{name}: MODEL.md and params.rs differ");
    }
}

#[test]
fn every_state_row_is_documented() {
    let doc = model_md();
    let section = doc.split("## 10. States").nth(1).expect("section 10").split("\n## ").next().expect("text");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .filter_map(cells)
        .filter(|row| row.first().is_some_and(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_digit())))
        .collect();
    assert_eq!(rows.len(), 32, "MODEL.md lists 32 states");
    let tag = |t: SourceTag| match t {
        SourceTag::Sourced => "S",
        SourceTag::Estimated => "E",
    };
    for (row, state) in rows.iter().zip(STATES.iter()) {
        let name = state.nombre;
        assert_eq!(row[0], state.clave, "{name}: clave");
        assert_eq!(row[1], state.iso, "{name}: ISO code");
        assert_eq!(row[2], state.nombre, "{name}: name");
        assert_eq!(number(row[3]), Some(state.factor), "{name}: factor_platform_v2");
        assert_eq!(row[4], tag(state.factor_source), "{name}: factor tag");
        assert_eq!(number(row[5]), Some(state.precio_m2), "{name}: price per m2");
        assert_eq!(row[6], tag(state.precio_m2_source), "{name}: price tag");
        assert!(row.get(7).is_some_and(|basis| !basis.is_empty()), "{name}: basis");
    }
}

#[test]
fn the_disclaimer_is_documented_verbatim() {
    assert!(model_md().contains(&format!("> {}", score_core::DISCLAIMER)), "MODEL.md section 9 quotes the disclaimer");
}

#[test]
fn the_calibration_is_documented() {
    let expected = format!("`calibracion` **`{}`**", score_core::CALIBRATION);
    assert!(model_md().contains(&expected), "MODEL.md section 9.2 names the calibration: {expected}");
}

/// Every accepted name of every state is in MODEL.md's table of accepted forms, on its row.
#[test]
fn every_state_alias_is_documented() {
    let doc = model_md();
    for (i, state) in score_core::states::STATES.iter().enumerate() {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| {} | {} | ", state.clave, state.iso)))
            .unwrap_or_else(|| panic!("MODEL.md lists the accepted names of {}", state.iso));
        for alias in state.aliases {
            assert!(row.contains(&format!("`{alias}`")), "{alias} of {} is not documented", state.iso);
            assert_eq!(score_core::State::parse(alias).map(|s| usize::from(s.inegi())), Some(i + 1), "{alias}");
        }
    }
}
