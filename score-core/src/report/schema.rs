//! The types of the profile and of the report as data: the report's [`Shape`] (recorded from
//! the report's walk, so it is the walk's keys, order and types) and JSON Schemas of both
//! (draft 2020-12), from which the committed `fixtures/*.schema.json` and the type stubs of
//! every binding are checked.

use crate::params::{ANTIGUEDAD_MAX_MESES, EDAD_MAX, EDAD_MIN, MONTO_MENSUAL_MAX, MONTO_MINIMO, PERSONAS_HOGAR_MAX, SALDO_MAX};
use crate::profile::{COACREDITADO_FIELDS, FIELDS, IncomeType};
use crate::report::Text;
use crate::walk::{Key, Label, ReportSink, Slot};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

/// The type of a value of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// An object: its keys in order.
    Object(Vec<(Key, Shape)>),
    /// An array of items of one shape.
    Array(Box<Shape>),
    /// A whole number (`score`, `plazo_anios`).
    Integer,
    /// A yes or no.
    Boolean,
    /// A shown figure: a JSON number (an integer when whole).
    Decimal,
    /// One of a closed set of names.
    Label(&'static [&'static str]),
    /// A text.
    Text,
    /// A shown figure or one of a closed set of names (a simulated profile field's value:
    /// an amount, a count or an income type).
    DecimalOrLabel(&'static [&'static str]),
    /// The inner shape or `null`.
    Nullable(Box<Shape>),
}

/// A report with items in both of its arrays (several recommendations), whose walk visits
/// every key: what the shape, the column layout and tests are recorded from.
pub(crate) fn probe_report() -> crate::ScoreReport {
    const JALISCO: crate::State = match crate::State::from_inegi(14) {
        Some(state) => state,
        None => panic!("14 is Jalisco's INEGI key"),
    };
    let profile = crate::Profile {
        estado: JALISCO,
        ingreso_mensual: Decimal::from(18_000),
        tipo_ingreso: IncomeType::Mixto,
        antiguedad_meses: 8,
        deudas_mensuales: None,
        ahorro: Decimal::ZERO,
        edad: Some(61),
        personas_hogar: None,
        subcuenta_fondo: None,
        // A state worker: INFONAVIT's offer lists its reason, and the bank's is recommended.
        institucion: Some(crate::Institucion::Fovissste),
        coacreditado: None,
    };
    crate::model::report(
        crate::cifras::Cifras::incluidas(),
        &profile,
        crate::Opciones::default(),
    )
}

/// The report's shape, as its walk visits it.
pub fn report_shape() -> Shape {
    let mut recorder = Recorder::default();
    probe_report().walk(&mut recorder);
    recorder.done.unwrap_or(Shape::Object(Vec::new()))
}

/// An object or array being recorded.
#[derive(Debug)]
enum Open {
    Object(Slot, Vec<(Key, Shape)>),
    Array(Slot, Option<Shape>),
}

/// Records the shape of a walk: the first item of each array stands for all.
#[derive(Debug, Default)]
struct Recorder {
    open: Vec<Open>,
    done: Option<Shape>,
}

impl Recorder {
    fn put(&mut self, at: Slot, shape: Shape) {
        match (self.open.last_mut(), at) {
            (Some(Open::Object(_, keys)), Slot::Key(key)) => keys.push((key, shape)),
            (Some(Open::Array(_, item @ None)), Slot::Item(_)) => *item = Some(shape),
            (None, Slot::Root) => self.done = Some(shape),
            _ => {}
        }
    }
}

impl ReportSink for Recorder {
    fn begin_object(&mut self, at: Slot) {
        self.open.push(Open::Object(at, Vec::new()));
    }
    fn end_object(&mut self) {
        if let Some(Open::Object(at, keys)) = self.open.pop() {
            self.put(at, Shape::Object(keys));
        }
    }
    fn begin_array(&mut self, at: Slot, _: usize) {
        self.open.push(Open::Array(at, None));
    }
    fn end_array(&mut self) {
        if let Some(Open::Array(at, item)) = self.open.pop() {
            // An empty array of the probe report would leave its items untyped: a text stands in
            // (the schema test then fails, as the committed schema says otherwise).
            self.put(at, Shape::Array(Box::new(item.unwrap_or(Shape::Text))));
        }
    }
    fn integer(&mut self, at: Slot, _: u64) {
        self.put(at, Shape::Integer);
    }
    fn boolean(&mut self, at: Slot, _: bool) {
        self.put(at, Shape::Boolean);
    }
    fn decimal(&mut self, at: Slot, _: Decimal) {
        self.put(at, Shape::Decimal);
    }
    fn label(&mut self, at: Slot, value: Label) {
        self.put(at, Shape::Label(value.all));
    }
    fn text(&mut self, at: Slot, _: &Text) {
        self.put(at, Shape::Text);
    }
    fn null(&mut self, at: Slot) {
        // Only reached through the `_or_null` methods, which record the key's type.
        self.put(at, Shape::Nullable(Box::new(Shape::Text)));
    }
    fn integer_or_null(&mut self, at: Slot, _: Option<u64>) {
        self.put(at, Shape::Nullable(Box::new(Shape::Integer)));
    }
    fn decimal_or_null(&mut self, at: Slot, _: Option<Decimal>) {
        self.put(at, Shape::Nullable(Box::new(Shape::Decimal)));
    }
    fn label_or_null(&mut self, at: Slot, value: Option<Label>) {
        // The set's names come from the value; a probe report without one has no names to list.
        let all = value.map_or(&[][..], |v| v.all);
        self.put(at, Shape::Nullable(Box::new(Shape::Label(all))));
    }
    fn clave_or_null(&mut self, at: Slot, _: Option<&crate::products::Clave>) {
        self.put(at, Shape::Nullable(Box::new(Shape::Text)));
    }
    fn valor_campo(&mut self, at: Slot, _: Option<crate::ValorCampo>) {
        self.put(at, Shape::Nullable(Box::new(Shape::DecimalOrLabel(&crate::walk::TIPO_INGRESO_NAMES))));
    }
}

const SCHEMA_DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The JSON Schema of a report (`fixtures/report.schema.json`).
pub fn report_schema() -> Value {
    let mut schema = shape_schema(&report_shape());
    if let Value::Object(map) = &mut schema {
        map.insert("$schema".into(), SCHEMA_DIALECT.into());
        map.insert("$id".into(), "report.schema.json".into());
        map.insert("title".into(), "ScoreReport".into());
        map.insert(
            "description".into(),
            "El reporte platform_score del modelo de score-core (generado por score_core::schema).".into(),
        );
    }
    schema
}

fn shape_schema(shape: &Shape) -> Value {
    match shape {
        Shape::Object(keys) => {
            let properties: Map<String, Value> =
                keys.iter().map(|(key, shape)| (key.name.to_owned(), shape_schema(shape))).collect();
            let required: Vec<&str> = keys.iter().map(|(key, _)| key.name).collect();
            json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
        }
        Shape::Array(item) => json!({"type": "array", "items": shape_schema(item)}),
        Shape::Integer => json!({"type": "integer", "minimum": 0}),
        Shape::Boolean => json!({"type": "boolean"}),
        Shape::Decimal => json!({"type": "number"}),
        Shape::Label(all) => json!({"type": "string", "enum": all}),
        Shape::Text => json!({"type": "string"}),
        Shape::DecimalOrLabel(all) => json!({"anyOf": [{"type": "number"}, {"type": "string", "enum": all}]}),
        Shape::Nullable(inner) => {
            let mut schema = shape_schema(inner);
            if let Some(Value::String(t)) = schema.get("type").cloned() {
                schema["type"] = json!([t, "null"]);
            }
            // A closed set admits null only when null is one of its values.
            if let Some(Value::Array(values)) = schema.get_mut("enum") {
                values.push(Value::Null);
            }
            if let Some(Value::Array(branches)) = schema.get_mut("anyOf") {
                branches.push(json!({"type": "null"}));
            }
            schema
        }
    }
}

/// What a profile field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// A text (state, income type).
    Text,
    /// A money amount, MXN, at least 0.
    Amount,
    /// A whole count.
    Count,
    /// The co-borrower: an object of [`coacreditado_fields`].
    Coacreditado,
}

/// One profile field as the reader takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec {
    /// The key.
    pub name: &'static str,
    /// What it holds.
    pub kind: FieldKind,
    /// Required (absent or `null` is MISSING_FIELD).
    pub required: bool,
    /// Smallest accepted value of a number. An amount field whose `min` is 0 also refuses
    /// the values between 0 and one centavo (`MONTO_MINIMO`).
    pub min: Decimal,
    /// Largest accepted value of a number.
    pub max: Decimal,
    /// Spanish description.
    pub description: &'static str,
}

/// The profile's fields, in [`FIELDS`] order, with the ranges `Profile::validate` checks.
pub fn profile_fields() -> Vec<FieldSpec> {
    FIELDS
        .iter()
        .map(|&name| {
            let (kind, required, min, max, description) = match name {
                "estado" => (FieldKind::Text, true, Decimal::ZERO, Decimal::ZERO,
                    "Entidad federativa: código ISO (\"CMX\", \"MX-JAL\"), clave INEGI (\"09\") o nombre (\"Nuevo León\")."),
                "ingreso_mensual" => (FieldKind::Amount, true, MONTO_MINIMO, MONTO_MENSUAL_MAX,
                    "Ingreso neto mensual del hogar, MXN (al menos un centavo)."),
                "tipo_ingreso" => (FieldKind::Text, true, Decimal::ZERO, Decimal::ZERO,
                    "asalariado | independiente | mixto | pensionado (sin distinguir mayúsculas)."),
                "antiguedad_meses" => (FieldKind::Count, true, Decimal::ZERO, ANTIGUEDAD_MAX_MESES,
                    "Meses en el empleo o la actividad actual."),
                "deudas_mensuales" => (FieldKind::Amount, false, Decimal::ZERO, MONTO_MENSUAL_MAX,
                    "Pagos mensuales de deudas distintas de la hipoteca, MXN; si falta, se evalúa como neutro."),
                "ahorro" => (FieldKind::Amount, false, Decimal::ZERO, SALDO_MAX,
                    "Ahorro líquido disponible para el enganche, MXN (0 si falta)."),
                "edad" => (FieldKind::Count, false, EDAD_MIN, EDAD_MAX, "Edad en años; acorta el plazo del crédito."),
                "personas_hogar" => (FieldKind::Count, false, Decimal::ONE, PERSONAS_HOGAR_MAX,
                    "Personas en el hogar; fija el costo de vida y la vivienda núcleo."),
                "subcuenta_fondo" => (FieldKind::Amount, false, Decimal::ZERO, SALDO_MAX,
                    "Saldo de la subcuenta de vivienda, MXN; se estima si falta."),
                "institucion" => (FieldKind::Text, false, Decimal::ZERO, Decimal::ZERO,
                    "Fondo de vivienda al que cotiza: INFONAVIT | FOVISSSTE | NINGUNA (sin distinguir mayúsculas); si falta, INFONAVIT para asalariado y mixto, ninguno para los demás. Solo lo leen los productos de crédito."),
                "coacreditado" => (FieldKind::Coacreditado, false, Decimal::ZERO, Decimal::ZERO,
                    "Segunda persona que solicita el crédito (cónyuge u otra persona del hogar): su ingreso y sus deudas son parte de los del hogar. No cambia el score; los productos de crédito suman los dos ingresos."),
                // A field added to FIELDS without a line here: the schema test fails on it.
                _ => (FieldKind::Text, false, Decimal::ZERO, Decimal::ZERO, ""),
            };
            FieldSpec { name, kind, required, min, max, description }
        })
        .collect()
}

/// The fields of `coacreditado`, in [`COACREDITADO_FIELDS`] order, with the ranges
/// `Profile::validate` checks (besides: its income below the household's, its debts a part of
/// the household's declared ones).
pub fn coacreditado_fields() -> Vec<FieldSpec> {
    COACREDITADO_FIELDS
        .iter()
        .map(|&name| {
            let (kind, required, min, max, description) = match name {
                "ingreso_mensual" => (FieldKind::Amount, true, MONTO_MINIMO, MONTO_MENSUAL_MAX,
                    "Ingreso neto mensual propio del coacreditado, MXN: parte del ingreso_mensual del hogar y menor que él."),
                "tipo_ingreso" => (FieldKind::Text, true, Decimal::ZERO, Decimal::ZERO,
                    "asalariado | independiente | mixto | pensionado (sin distinguir mayúsculas)."),
                "antiguedad_meses" => (FieldKind::Count, true, Decimal::ZERO, ANTIGUEDAD_MAX_MESES,
                    "Meses del coacreditado en su empleo o actividad actual."),
                "edad" => (FieldKind::Count, false, EDAD_MIN, EDAD_MAX, "Edad del coacreditado en años; acorta su plazo."),
                "deudas_mensuales" => (FieldKind::Amount, false, Decimal::ZERO, MONTO_MENSUAL_MAX,
                    "Parte de las deudas_mensuales del hogar que paga el coacreditado (exige declarar las del hogar); si falta, ninguna."),
                "subcuenta_fondo" => (FieldKind::Amount, false, Decimal::ZERO, SALDO_MAX,
                    "Saldo de la subcuenta de vivienda del coacreditado, MXN; se estima si falta."),
                "institucion" => (FieldKind::Text, false, Decimal::ZERO, Decimal::ZERO,
                    "Fondo de vivienda al que cotiza el coacreditado: INFONAVIT | FOVISSSTE | NINGUNA; si falta, según su tipo de ingreso."),
                // A field added to COACREDITADO_FIELDS without a line here: the schema test fails on it.
                _ => (FieldKind::Text, false, Decimal::ZERO, Decimal::ZERO, ""),
            };
            FieldSpec { name, kind, required, min, max, description }
        })
        .collect()
}

/// The JSON Schema of one object of profile fields (the profile, or its co-borrower).
fn object_schema(fields: &[FieldSpec]) -> (Map<String, Value>, Vec<&'static str>) {
    let number = |d: Decimal| serde_json::from_str::<Value>(&d.to_string()).unwrap_or(Value::Null);
    let properties = fields
        .iter()
        .map(|f| {
            let base = match f.kind {
                FieldKind::Text => "string",
                FieldKind::Amount => "number",
                FieldKind::Count => "integer",
                FieldKind::Coacreditado => "object",
            };
            let mut p = Map::new();
            p.insert("type".into(), if f.required { json!(base) } else { json!([base, "null"]) });
            if f.name == "tipo_ingreso" {
                p.insert("examples".into(), json!(IncomeType::ALL.map(IncomeType::as_str)));
            }
            if f.name == "institucion" {
                p.insert("examples".into(), json!(crate::Institucion::ALL.map(crate::Institucion::as_str)));
            }
            if matches!(f.kind, FieldKind::Amount | FieldKind::Count) {
                p.insert("minimum".into(), number(f.min));
                p.insert("maximum".into(), number(f.max));
            }
            if f.kind == FieldKind::Amount && f.min.is_zero() {
                // 0, or at least one centavo.
                p.insert("not".into(), json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": number(MONTO_MINIMO)}));
            }
            if f.kind == FieldKind::Coacreditado {
                let (properties, required) = object_schema(&coacreditado_fields());
                p.insert("properties".into(), Value::Object(properties));
                p.insert("required".into(), json!(required));
                p.insert("additionalProperties".into(), json!(false));
            }
            p.insert("description".into(), f.description.into());
            (f.name.to_owned(), Value::Object(p))
        })
        .collect();
    (properties, fields.iter().filter(|f| f.required).map(|f| f.name).collect())
}

/// The JSON Schema of a profile (`fixtures/profile.schema.json`).
pub fn profile_schema() -> Value {
    let (properties, required) = object_schema(&profile_fields());
    json!({
        "$schema": SCHEMA_DIALECT,
        "$id": "profile.schema.json",
        "title": "Profile",
        "description": "Perfil del comprador, la entrada del modelo de score-core (generado por score_core::schema). Los campos desconocidos se rechazan (UNKNOWN_FIELD); null equivale a ausente.",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// A schema as the committed files hold it: pretty JSON with a final newline.
pub fn to_file_text(schema: &Value) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_field_is_described() {
        for f in profile_fields() {
            assert!(!f.description.is_empty(), "{} needs a line in profile_fields", f.name);
        }
        for f in coacreditado_fields() {
            assert!(!f.description.is_empty(), "{} needs a line in coacreditado_fields", f.name);
        }
    }

    #[test]
    fn the_report_shape_has_every_key() {
        fn count(shape: &Shape) -> usize {
            match shape {
                Shape::Object(keys) => keys.iter().map(|(_, s)| 1 + count(s)).sum(),
                Shape::Array(item) => count(item),
                _ => 0,
            }
        }
        // 20 + 18 + 4 + 3 + 6 x (1 + 3) + 2 + dictamen 3 + its motivos 2 + a simulation 7 +
        // its cambios 3 + a product 12.
        assert_eq!(count(&report_shape()), 98);
    }
}
