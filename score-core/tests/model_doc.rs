//! MODEL.md, the compiled constants and the embedded calibration must agree: every parameter,
//! every curve breakpoint and every state row is parsed from the document and compared, both
//! ways, with `params.rs` (the fixed weights and input limits), `states.rs` (the states' names)
//! and `calibration/mx-2026.toml` (every figure a calibration can change).

mod incluida;

use incluida::{cifra, del_estado, producto, puntos, salario_minimo_mensual};
use rust_decimal::Decimal;
use score_core::params::PARAMETERS;
use score_core::states::STATES;
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

/// The embedded calibration's curves by the name MODEL.md gives each: `curvas.ingreso` is
/// `CURVA_INGRESO`.
fn curvas() -> std::collections::BTreeSet<String> {
    let cal = score_core::Calibration::default();
    let nombres = cal.cifras().into_iter().filter_map(|(path, _)| Some(path.strip_prefix("curvas.")?.split('.').next()?.to_owned()));
    nombres.map(|n| format!("CURVA_{}", n.to_uppercase())).collect()
}

/// The parameters of MODEL.md section 11 that are the calibration's, by the name the document
/// gives them, with their value in the embedded calibration: most are `general.<name>`, the bank
/// mortgage's are its product's keys, and the minimum income is the monthly minimum wage.
fn de_la_calibracion() -> Vec<(String, Decimal)> {
    let general = [
        "PUNTOS_DEUDAS_NO_DECLARADAS", "PROPORCION_DEUDAS_NO_DECLARADAS", "PUNTOS_TIPO_ASALARIADO", "PUNTOS_TIPO_MIXTO",
        "PUNTOS_TIPO_PENSIONADO", "PUNTOS_TIPO_INDEPENDIENTE", "LINEA_POBREZA_URBANA", "PERSONAS_HOGAR_DEFAULT",
        "FACTOR_MIN", "FACTOR_MAX", "PTI_MAX", "DTI_TOTAL_MAX", "RENDIMIENTO_RENTA_ANUAL", "APORTACION_FONDO",
        "UMA_DIARIA", "TOPE_SBC_UMAS", "DIAS_POR_MES", "MESES_FONDO_MAX", "PROPORCION_SALARIO_MIXTO", "M2_NUCLEO_BASE",
        "M2_POR_DORMITORIO_EXTRA", "FACTOR_MUROS_CIRCULACION", "PERSONAS_POR_DORMITORIO", "UMBRAL_M2_ADECUADO",
        "UMBRAL_M2_HOLGADO", "UMBRAL_ENGANCHE_PARCIAL", "UMBRAL_RECOMENDACION", "MAX_RECOMENDACIONES_COMPONENTE",
    ];
    let banco = producto("bancario");
    let del_banco = [
        ("TASA_ANUAL", "tasa_anual"),
        ("PLAZO_MAX_ANIOS", "plazo_max_anios"),
        ("EDAD_MAX_FIN_PLAZO", "edad_mas_plazo_max"),
        ("LTV_ASALARIADO", "ltv_max"),
        ("LTV_INDEPENDIENTE", "ltv_max.independiente"),
    ];
    let mut v: Vec<(String, Decimal)> =
        general.iter().map(|name| (name.to_string(), cifra(&format!("general.{}", name.to_lowercase())))).collect();
    v.extend(del_banco.iter().map(|(name, key)| (name.to_string(), cifra(&format!("productos[{banco}].{key}")))));
    v.push(("INGRESO_MINIMO".to_owned(), salario_minimo_mensual()));
    v
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
    let compiled = PARAMETERS.iter().map(|&(name, value)| (name.to_owned(), value, "the code"));
    let calibrated = de_la_calibracion().into_iter().map(|(name, value)| (name, value, "the calibration"));
    for (name, value, origin) in compiled.chain(calibrated) {
        let doc_value = documented.remove(&name).unwrap_or_else(|| panic!("{name} is not in MODEL.md section 11"));
        assert_eq!(doc_value, value, "{name}: MODEL.md says {doc_value}, {origin} {value}");
    }
    assert!(documented.is_empty(), "MODEL.md documents parameters the code lacks: {:?}", documented.keys());
}

#[test]
fn every_curve_is_documented_breakpoint_by_breakpoint() {
    let doc = model_md();
    let documented: std::collections::BTreeSet<String> =
        doc.split("#### `CURVA_").skip(1).filter_map(|h| Some(format!("CURVA_{}", h.split('`').next()?))).collect();
    assert_eq!(documented, curvas(), "MODEL.md documents a heading for each of the calibration's curves, and no other");
    for name in curvas() {
        let curve = puntos(&format!("curvas.{}", name.trim_start_matches("CURVA_").to_lowercase()));
        let heading = format!("#### `{name}`");
        let after = doc.split(&heading).nth(1).unwrap_or_else(|| panic!("MODEL.md has no heading {heading}"));
        let table: Vec<(Decimal, Decimal)> = after
            .lines()
            .skip_while(|l| !l.trim_start().starts_with('|'))
            .take_while(|l| l.trim_start().starts_with('|'))
            .filter_map(cells)
            .filter_map(|row| Some((number(row.first()?)?, number(row.get(1)?)?)))
            .collect();
        assert_eq!(table, curve, "{name}: MODEL.md and the calibration differ");
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
    let estados = score_core::Calibration::default().to_json_value()["estados"].clone();
    // A figure of the calibration is an estimate when it says why instead of citing a source.
    let tag = |i: usize, figura: &str| if estados[i][figura].get("estimacion").is_some() { "E" } else { "S" };
    for (i, (row, state)) in rows.iter().zip(STATES.iter()).enumerate() {
        let inegi = u8::try_from(i + 1).expect("32 states");
        let name = state.nombre;
        assert_eq!(row[0], state.clave, "{name}: clave");
        assert_eq!(row[1], state.iso, "{name}: ISO code");
        assert_eq!(row[2], state.nombre, "{name}: name");
        assert_eq!(estados[i]["clave"], state.clave, "{name}: the calibration's row");
        assert_eq!(number(row[3]), Some(del_estado(inegi, "factor")), "{name}: factor_platform_v2");
        assert_eq!(row[4], tag(i, "factor"), "{name}: factor tag");
        assert_eq!(number(row[5]), Some(del_estado(inegi, "precio_m2")), "{name}: price per m2");
        assert_eq!(row[6], tag(i, "precio_m2"), "{name}: price tag");
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
