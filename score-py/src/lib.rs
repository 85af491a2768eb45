//! `platform_score._core`: the Python binding of score-core.
//!
//! Thin by design: read the Python mapping into a `score_core::Profile`, call
//! `score_core::score`, build the report dict from the typed `ScoreReport` (same keys and
//! numbers as score-core's JSON), and map `score_core::ScoreError` to `platform_score.ScoreError`.
//! Plain values (str, int, float, None) are read straight into the profile's fields with
//! score-core's own parsers; anything else goes through the `serde_json::Value` score-core
//! reads from JSON (`Profile::from_json_value`), so every bad input gets score-core's own
//! error. The batch and columnar entry points score with the GIL released, over all cores;
//! `score_many(..., lazy=True)` hands back one `Report` per profile (the Rust report behind a
//! read-only Mapping, converted on access) instead of building the dicts.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyInt, PyIterator, PyList, PyMapping, PyString, PyTuple,
};
use pyo3::{IntoPyObjectExt, intern};
use rust_decimal::Decimal;
use score_core::input::{Cell, Cells};
use score_core::{
    CodigoRecomendacion, ErrorCode, EstatusEnganche, EvaluacionM2, Nivel, Profile,
    ScoreError as CoreError, ScoreReport, State, Text, money,
};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::mpsc;

create_exception!(
    platform_score,
    ScoreError,
    PyValueError,
    "A profile could not be scored. `.code` is the stable score-core code (\"UNKNOWN_STATE\", ...), \
     `.field` the profile field at fault (or None) and `.index` the position of the profile in a batch \
     (or None)."
);

/// Batches at least this large are split over the cores.
const PARALLEL_MIN: usize = 2048;
/// `score_many` scores a first block of this many profiles at once (a batch that fits in it
/// is scored over all cores with the GIL released).
const BLOCK: usize = 1 << 14;
/// Larger batches go through `score_many`'s pipeline in chunks of this many profiles...
const CHUNK: usize = 1 << 10;
/// ...with at most this many chunks read but not yet emitted.
const IN_FLIGHT: usize = 32;

// ---------------------------------------------------------------------------------------------
// Errors

fn binding_error(code: ErrorCode, field: Option<&str>, message: String) -> CoreError {
    CoreError {
        code,
        field: field.map(str::to_owned),
        message,
    }
}

/// The `platform_score.ScoreError` instance for a score-core error (`index` for batches).
fn py_error(py: Python<'_>, e: &CoreError, index: Option<usize>) -> PyErr {
    let text = match index {
        Some(i) => format!("profiles[{i}]: {}: {}", e.code, e.message),
        None => format!("{}: {}", e.code, e.message),
    };
    let err = ScoreError::new_err(text);
    let value = err.value(py);
    let set = value
        .setattr(intern!(py, "code"), e.code.as_str())
        .and_then(|()| value.setattr(intern!(py, "field"), e.field.as_deref()))
        .and_then(|()| value.setattr(intern!(py, "index"), index));
    match set {
        Ok(()) => err,
        Err(other) => other,
    }
}

// ---------------------------------------------------------------------------------------------
// Fast path: plain values straight into the Profile's fields

// score-core's `input::Cells` takes the profile's values as Python or a column holds them and
// builds the `Profile` when all are plain; otherwise the value goes through score-core's JSON
// reader, which reports the exact error.

const N_FIELDS: usize = score_core::FIELDS.len();

/// A plain Python value as a cell; `None` for anything score-core must judge itself.
fn py_cell(obj: &Bound<'_, PyAny>) -> PyResult<Option<Cell<'static>>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(Cell::Str(Cow::Owned(s.to_cow()?.into_owned()))));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let f = f.value();
        return Ok(if f.is_nan() {
            Some(Cell::Absent)
        } else if f.is_finite() {
            Some(Cell::Float(f))
        } else {
            None
        });
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(obj.extract::<i64>().ok().map(Cell::Int));
    }
    Ok(obj.is_none().then_some(Cell::Absent))
}

/// The profile of a dict of plain values, `None` when it needs score-core's JSON reader.
fn dict_profile(py: Python<'_>, dict: &Bound<'_, PyDict>) -> PyResult<Option<Profile>> {
    if dict.len() > N_FIELDS {
        return Ok(None);
    }
    let keys = &names(py)?.fields;
    let mut cells = Cells::default();
    for (key, value) in dict.iter() {
        let slot = match keys.iter().position(|k| k.is(&key)) {
            Some(slot) => slot,
            None => match key.cast::<PyString>() {
                Ok(s) => match Cells::slot(&s.to_cow()?) {
                    Some(slot) => slot,
                    None => return Ok(None),
                },
                Err(_) => return Ok(None),
            },
        };
        match py_cell(&value)? {
            Some(cell) => cells.set(slot, cell),
            None => return Ok(None),
        }
    }
    Ok(cells.profile())
}

/// A profile read from Python: the fast path, else score-core's JSON reader on the JSON value
/// of the object (which reports the exact error).
fn read_profile(obj: &Bound<'_, PyAny>) -> PyResult<Result<Profile, CoreError>> {
    if let Ok(dict) = obj.cast::<PyDict>() {
        if let Some(profile) = dict_profile(obj.py(), dict)? {
            return Ok(Ok(profile));
        }
    }
    Ok(to_value(obj, None, 0)?.and_then(|v| Profile::from_json_value(&v)))
}

// ---------------------------------------------------------------------------------------------
// Python object -> serde_json::Value (the same value the JSON text of the profile parses to)

fn decimal_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static DECIMAL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    DECIMAL.import(py, "decimal", "Decimal")
}

fn float_value(f: f64) -> Value {
    if f.is_nan() {
        // NaN is pandas' and numpy's "missing": read it as null.
        return Value::Null;
    }
    // JSON has no infinities; a magnitude no Decimal holds gets the same error from score-core.
    let f = if f.is_infinite() {
        f.signum() * 1e300
    } else {
        f
    };
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn int_value(i: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(v) = i.extract::<i64>() {
        return Ok(Value::from(v));
    }
    if let Ok(v) = i.extract::<u64>() {
        return Ok(Value::from(v));
    }
    // Larger than any JSON integer: like a JSON parser, read it as a double.
    let negative = i.lt(0i64)?;
    Ok(float_value(i.extract::<f64>().unwrap_or(if negative {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    })))
}
fn to_value(
    obj: &Bound<'_, PyAny>,
    field: Option<&str>,
    depth: u32,
) -> PyResult<Result<Value, CoreError>> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Ok(Value::String(s.to_cow()?.into_owned())));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(Ok(float_value(f.value())));
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(Ok(Value::Bool(obj.is_truthy()?)));
    }
    if obj.is_instance_of::<PyInt>() {
        return int_value(obj).map(Ok);
    }
    if obj.is_none() {
        return Ok(Ok(Value::Null));
    }
    if obj.is_instance(decimal_class(py)?)? {
        return Ok(Ok(
            if obj.call_method0(intern!(py, "is_nan"))?.is_truthy()? {
                Value::Null
            } else {
                float_value(obj.extract::<f64>()?)
            },
        ));
    }
    if depth < 32 {
        if obj.is_instance_of::<PyDict>() || obj.is_instance_of::<PyMapping>() {
            return to_object(obj, depth + 1);
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            let mut items = Vec::new();
            for item in obj.try_iter()? {
                match to_value(&item?, field, depth + 1)? {
                    Ok(v) => items.push(v),
                    Err(e) => return Ok(Err(e)),
                }
            }
            return Ok(Ok(Value::Array(items)));
        }
    }
    // numpy integers and floats, and other number types.
    if obj.hasattr(intern!(py, "__index__"))? {
        return int_value(&obj.call_method0(intern!(py, "__index__"))?).map(Ok);
    }
    if obj.hasattr(intern!(py, "__float__"))? {
        return Ok(Ok(float_value(obj.extract::<f64>()?)));
    }
    let type_name = obj.get_type().name()?.to_string();
    Ok(Err(match field {
        Some(f) => binding_error(
            ErrorCode::InvalidType,
            Some(f),
            format!(
                "El campo \"{f}\" tiene un valor de tipo {type_name}, que no es un valor JSON."
            ),
        ),
        None => binding_error(
            ErrorCode::InvalidType,
            None,
            format!(
                "El perfil debe ser un objeto JSON (un dict) con los campos del comprador, no {type_name}."
            ),
        ),
    }))
}

fn to_object(obj: &Bound<'_, PyAny>, depth: u32) -> PyResult<Result<Value, CoreError>> {
    let mut map = Map::new();
    let mut put =
        |key: Bound<'_, PyAny>, value: Bound<'_, PyAny>| -> PyResult<Result<(), CoreError>> {
            let key = match key.cast::<PyString>() {
                Ok(s) => s.to_cow()?.into_owned(),
                Err(_) => key.str()?.to_cow()?.into_owned(),
            };
            to_value(&value, Some(&key), depth).map(|v| {
                v.map(|v| {
                    map.insert(key, v);
                })
            })
        };
    if let Ok(dict) = obj.cast::<PyDict>() {
        for (key, value) in dict.iter() {
            if let Err(e) = put(key, value)? {
                return Ok(Err(e));
            }
        }
    } else {
        for item in obj.call_method0(intern!(obj.py(), "items"))?.try_iter()? {
            let (key, value) = item?.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
            if let Err(e) = put(key, value)? {
                return Ok(Err(e));
            }
        }
    }
    Ok(Ok(Value::Object(map)))
}

// ---------------------------------------------------------------------------------------------
// ScoreReport -> dict (keys and numbers exactly as in score-core's JSON)

const NIVELES: [Nivel; 4] = [Nivel::Bajo, Nivel::Medio, Nivel::Alto, Nivel::Excelente];
const EVALUACIONES: [EvaluacionM2; 4] = [
    EvaluacionM2::Insuficiente,
    EvaluacionM2::NucleoBasico,
    EvaluacionM2::Adecuado,
    EvaluacionM2::Holgado,
];
const ESTATUS: [EstatusEnganche; 6] = [
    EstatusEnganche::NoAplica,
    EstatusEnganche::SinEnganche,
    EstatusEnganche::Insuficiente,
    EstatusEnganche::Parcial,
    EstatusEnganche::CubiertoSinGastos,
    EstatusEnganche::Cubierto,
];

fn index_of<T: PartialEq>(all: &[T], value: &T) -> Option<usize> {
    all.iter().position(|v| v == value)
}

/// Index of the report's state in `State::all()` order (INEGI order): found from its INEGI key
/// `clave` when that row has the report's ISO code, else by searching the table for the code.
fn state_index(r: &ScoreReport) -> Option<usize> {
    let e = &r.estado;
    let by_key = e
        .clave
        .parse::<u8>()
        .ok()
        .and_then(State::from_inegi)
        .filter(|s| s.info().iso == e.codigo);
    match by_key {
        Some(state) => State::all().position(|s| s == state),
        None => State::all().position(|s| s.info().iso == e.codigo),
    }
}

/// The keys of each dict of the report, in score-core's JSON order.
const REPORT_KEYS: [&str; 15] = [
    "score",
    "nivel",
    "capacidad_compra_estimada",
    "salud_financiera",
    "recomendaciones",
    "disclaimer",
    "valor_vivienda_max",
    "credito_max",
    "enganche_min",
    "pago_mensual_estimado",
    "renta_estimada",
    "modelo_version",
    "estado",
    "componentes",
    "recomendaciones_detalle",
];
/// Indices in `REPORT_KEYS` of each key of the report (checked against the names at compile
/// time below).
mod key {
    pub const SCORE: usize = 0;
    pub const NIVEL: usize = 1;
    pub const CAPACIDAD: usize = 2;
    pub const SALUD: usize = 3;
    pub const RECOMENDACIONES: usize = 4;
    pub const DISCLAIMER: usize = 5;
    pub const VALOR_VIVIENDA_MAX: usize = 6;
    pub const CREDITO_MAX: usize = 7;
    pub const ENGANCHE_MIN: usize = 8;
    pub const PAGO_MENSUAL_ESTIMADO: usize = 9;
    pub const RENTA_ESTIMADA: usize = 10;
    pub const MODELO_VERSION: usize = 11;
    pub const ESTADO: usize = 12;
    pub const COMPONENTES: usize = 13;
    pub const DETALLE: usize = 14;
}

const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const _: () = assert!(
    same_str(REPORT_KEYS[key::SCORE], "score")
        && same_str(REPORT_KEYS[key::NIVEL], "nivel")
        && same_str(REPORT_KEYS[key::CAPACIDAD], "capacidad_compra_estimada")
        && same_str(REPORT_KEYS[key::SALUD], "salud_financiera")
        && same_str(REPORT_KEYS[key::RECOMENDACIONES], "recomendaciones")
        && same_str(REPORT_KEYS[key::DISCLAIMER], "disclaimer")
        && same_str(REPORT_KEYS[key::VALOR_VIVIENDA_MAX], "valor_vivienda_max")
        && same_str(REPORT_KEYS[key::CREDITO_MAX], "credito_max")
        && same_str(REPORT_KEYS[key::ENGANCHE_MIN], "enganche_min")
        && same_str(
            REPORT_KEYS[key::PAGO_MENSUAL_ESTIMADO],
            "pago_mensual_estimado"
        )
        && same_str(REPORT_KEYS[key::RENTA_ESTIMADA], "renta_estimada")
        && same_str(REPORT_KEYS[key::MODELO_VERSION], "modelo_version")
        && same_str(REPORT_KEYS[key::ESTADO], "estado")
        && same_str(REPORT_KEYS[key::COMPONENTES], "componentes")
        && same_str(REPORT_KEYS[key::DETALLE], "recomendaciones_detalle")
);

const CAPACIDAD_KEYS: [&str; 18] = [
    "valor_bancario",
    "valor_realista",
    "factor_platform_v2",
    "ltv",
    "pago_mensual_estimado",
    "credito_max",
    "m2_alcanzables",
    "m2_minimo_nucleo",
    "evaluacion_m2",
    "enganche_requerido",
    "enganche_disponible",
    "subcuenta_fondo_estimada",
    "estatus_enganche",
    "renta_equivalente",
    "gastos_cierre_estimados",
    "tasa_anual",
    "plazo_anios",
    "precio_m2_estado",
];
const SALUD_KEYS: [&str; 4] = ["score", "costo_vida_digno", "ingreso_disponible", "ratio"];
const ESTADO_KEYS: [&str; 3] = ["clave", "codigo", "nombre"];
const COMPONENTES_KEYS: [&str; 6] = [
    "ingreso",
    "tipo_ingreso",
    "antiguedad",
    "deudas",
    "ahorro",
    "salud_financiera",
];
const COMPONENTE_KEYS: [&str; 3] = ["valor", "peso", "puntos"];
const RECOMENDACION_KEYS: [&str; 2] = ["codigo", "texto"];

/// A dict shape: its interned keys and a template dict with those keys (values None).
/// Copying the template gives a dict already sized for its keys, in order.
struct Shape {
    keys: Vec<Py<PyString>>,
    template: Py<PyDict>,
}

impl Shape {
    fn new(py: Python<'_>, keys: &[&str]) -> PyResult<Shape> {
        let keys: Vec<Py<PyString>> = keys
            .iter()
            .map(|k| PyString::intern(py, k).unbind())
            .collect();
        let template = PyDict::new(py);
        for key in &keys {
            template.set_item(key.bind(py), py.None())?;
        }
        Ok(Shape {
            keys,
            template: template.unbind(),
        })
    }
}

/// Python strings of score-core's names and texts (interned) and the report's dict shapes,
/// created once.
struct Names {
    fields: Vec<Py<PyString>>,
    nivel: Vec<Py<PyString>>,
    evaluacion: Vec<Py<PyString>>,
    estatus: Vec<Py<PyString>>,
    codigo: Vec<Py<PyString>>,
    texto: Vec<Py<PyString>>,
    /// (clave, codigo, nombre) of each state, in `State::all()` order.
    estados: Vec<[(&'static str, Py<PyString>); 3]>,
    disclaimer: Py<PyString>,
    modelo_version: Py<PyString>,
    report: Shape,
    /// The report's keys as a tuple (what iterating a lazy `Report` yields).
    report_keys: Py<PyTuple>,
    capacidad: Shape,
    salud: Shape,
    estado: Shape,
    componentes: Shape,
    componente: Shape,
    recomendacion: Shape,
}

fn names(py: Python<'_>) -> PyResult<&Names> {
    static NAMES: PyOnceLock<Names> = PyOnceLock::new();
    NAMES.get_or_try_init(py, || {
        let s = |text: &str| PyString::intern(py, text).unbind();
        Ok(Names {
            fields: score_core::FIELDS.iter().map(|f| s(f)).collect(),
            nivel: NIVELES.iter().map(|n| s(n.as_str())).collect(),
            evaluacion: EVALUACIONES.iter().map(|e| s(e.as_str())).collect(),
            estatus: ESTATUS.iter().map(|e| s(e.as_str())).collect(),
            codigo: CodigoRecomendacion::ALL
                .iter()
                .map(|c| s(c.as_str()))
                .collect(),
            texto: CodigoRecomendacion::ALL
                .iter()
                .map(|c| s(score_core::recommendation_text(*c)))
                .collect(),
            estados: State::all()
                .map(|st| {
                    let i = st.info();
                    [i.clave, i.iso, i.nombre].map(|t| (t, s(t)))
                })
                .collect(),
            disclaimer: s(score_core::DISCLAIMER),
            modelo_version: s(score_core::MODEL_VERSION),
            report: Shape::new(py, &REPORT_KEYS)?,
            report_keys: PyTuple::new(py, REPORT_KEYS.iter().map(|k| s(k)))?.unbind(),
            capacidad: Shape::new(py, &CAPACIDAD_KEYS)?,
            salud: Shape::new(py, &SALUD_KEYS)?,
            estado: Shape::new(py, &ESTADO_KEYS)?,
            componentes: Shape::new(py, &COMPONENTES_KEYS)?,
            componente: Shape::new(py, &COMPONENTE_KEYS)?,
            recomendacion: Shape::new(py, &RECOMENDACION_KEYS)?,
        })
    })
}

/// The cached string when `actual` is the text it was made from, else a new string.
fn text<'py>(
    py: Python<'py>,
    cached: Option<&Py<PyString>>,
    expected: &str,
    actual: &Text,
) -> Bound<'py, PyString> {
    match cached {
        Some(c) if actual == expected => c.bind(py).clone(),
        _ => PyString::new(py, actual),
    }
}

fn name<'py>(
    py: Python<'py>,
    table: &[Py<PyString>],
    index: Option<usize>,
    fallback: &str,
) -> Bound<'py, PyString> {
    match index.and_then(|i| table.get(i)) {
        Some(s) => s.bind(py).clone(),
        None => PyString::new(py, fallback),
    }
}

struct Builder<'py> {
    py: Python<'py>,
    names: &'py Names,
    decimal: Option<Bound<'py, PyAny>>,
}

impl<'py> Builder<'py> {
    fn new(py: Python<'py>, decimals: bool) -> PyResult<Self> {
        Ok(Builder {
            py,
            names: names(py)?,
            decimal: if decimals {
                Some(decimal_class(py)?.clone())
            } else {
                None
            },
        })
    }

    fn num(&self, d: Decimal) -> PyResult<Bound<'py, PyAny>> {
        if let Some(class) = &self.decimal {
            return class.call1((d.to_string(),));
        }
        match money::whole(d) {
            Some(i) => i.into_bound_py_any(self.py),
            None => Ok(PyFloat::new(self.py, money::to_f64(d)).into_any()),
        }
    }

    /// A dict of `shape` with these values, in the shape's key order.
    ///
    /// The values are converted as they are stored, not collected first: about ten dicts per
    /// report, and a `Vec` each was a measurable share of a `score()` call.
    fn dict(
        &self,
        shape: &Shape,
        values: impl IntoIterator<Item = PyResult<Bound<'py, PyAny>>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let d = shape.template.bind(py).copy()?;
        for (key, value) in shape.keys.iter().zip(values) {
            d.set_item(key.bind(py), value?)?;
        }
        Ok(d.into_any())
    }

    /// A dict of `shape` whose values are all amounts.
    fn amounts(&self, shape: &Shape, values: &[Decimal]) -> PyResult<Bound<'py, PyAny>> {
        self.dict(shape, values.iter().map(|d| self.num(*d)))
    }

    /// The report dict; keys in score-core's JSON order.
    fn report(&self, r: &ScoreReport) -> PyResult<Bound<'py, PyDict>> {
        let report = self.dict(
            &self.names.report,
            (0..REPORT_KEYS.len()).map(|k| self.value(r, k)),
        )?;
        Ok(report.cast_into::<PyDict>()?)
    }

    /// The value of the report's key `k` (an index in `REPORT_KEYS`, see [`key`]): what
    /// `report(r)[REPORT_KEYS[k]]` holds. `report` and the lazy [`Report`] both build through it.
    fn value(&self, r: &ScoreReport, k: usize) -> PyResult<Bound<'py, PyAny>> {
        let (py, n) = (self.py, self.names);
        match k {
            key::SCORE => r.score.into_bound_py_any(py),
            key::NIVEL => {
                Ok(name(py, &n.nivel, index_of(&NIVELES, &r.nivel), r.nivel.as_str()).into_any())
            }
            key::CAPACIDAD => self.capacidad(&r.capacidad_compra_estimada),
            key::SALUD => self.amounts(&n.salud, &salud_amounts(&r.salud_financiera)),
            key::RECOMENDACIONES => Ok(PyList::new(
                py,
                r.recomendaciones
                    .iter()
                    .enumerate()
                    .map(|(i, t)| self.recommendation_text(r, i, t)),
            )?
            .into_any()),
            key::DISCLAIMER => Ok(text(
                py,
                Some(&n.disclaimer),
                score_core::DISCLAIMER,
                &r.disclaimer,
            )
            .into_any()),
            key::VALOR_VIVIENDA_MAX => self.num(r.valor_vivienda_max),
            key::CREDITO_MAX => self.num(r.credito_max),
            key::ENGANCHE_MIN => self.num(r.enganche_min),
            key::PAGO_MENSUAL_ESTIMADO => self.num(r.pago_mensual_estimado),
            key::RENTA_ESTIMADA => self.num(r.renta_estimada),
            key::MODELO_VERSION => Ok(text(
                py,
                Some(&n.modelo_version),
                score_core::MODEL_VERSION,
                &r.modelo_version,
            )
            .into_any()),
            key::ESTADO => self.estado(r),
            key::COMPONENTES => self.dict(
                &n.componentes,
                componentes_amounts(&r.componentes)
                    .iter()
                    .map(|amounts| self.amounts(&n.componente, amounts)),
            ),
            key::DETALLE => {
                let detalle = PyList::empty(py);
                for (i, rec) in r.recomendaciones_detalle.iter().enumerate() {
                    let code = index_of(&CodigoRecomendacion::ALL, &rec.codigo);
                    detalle.append(
                        self.dict(
                            &n.recomendacion,
                            [
                                name(py, &n.codigo, code, rec.codigo.as_str()).into_any(),
                                self.recommendation_text(r, i, &rec.texto).into_any(),
                            ]
                            .map(Ok),
                        )?,
                    )?;
                }
                Ok(detalle.into_any())
            }
            _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "report key index {k} out of range"
            ))),
        }
    }

    fn capacidad(&self, c: &score_core::CapacidadCompra) -> PyResult<Bound<'py, PyAny>> {
        let (py, n) = (self.py, self.names);
        let evaluacion = index_of(&EVALUACIONES, &c.evaluacion_m2);
        let estatus = index_of(&ESTATUS, &c.estatus_enganche);
        let mut amounts = capacidad_amounts(c).into_iter();
        self.dict(
            &n.capacidad,
            CAPACIDAD_KEYS.iter().map(|key| match *key {
                "evaluacion_m2" => {
                    Ok(name(py, &n.evaluacion, evaluacion, c.evaluacion_m2.as_str()).into_any())
                }
                "estatus_enganche" => {
                    Ok(name(py, &n.estatus, estatus, c.estatus_enganche.as_str()).into_any())
                }
                "plazo_anios" => c.plazo_anios.into_bound_py_any(py),
                _ => self.num(amounts.next().unwrap_or_default()),
            }),
        )
    }

    /// Text `i` of the recommendations (`t`: in `recomendaciones` or `recomendaciones_detalle`,
    /// which hold the same texts in the same order): the cached string of its code's text.
    fn recommendation_text(&self, r: &ScoreReport, i: usize, t: &Text) -> Bound<'py, PyString> {
        let code = r
            .recomendaciones_detalle
            .get(i)
            .and_then(|d| index_of(&CodigoRecomendacion::ALL, &d.codigo));
        match code {
            Some(c) => text(
                self.py,
                self.names.texto.get(c),
                score_core::recommendation_text(CodigoRecomendacion::ALL[c]),
                t,
            ),
            None => PyString::new(self.py, t),
        }
    }

    fn estado(&self, r: &ScoreReport) -> PyResult<Bound<'py, PyAny>> {
        let (py, n) = (self.py, self.names);
        let e = &r.estado;
        let cached = state_index(r).and_then(|i| n.estados.get(i));
        let estado_text = |k: usize, value: &Text| {
            let (expected, cell) =
                cached.map_or(("", None), |names| (names[k].0, Some(&names[k].1)));
            text(py, cell, expected, value).into_any()
        };
        self.dict(
            &n.estado,
            [
                estado_text(0, &e.clave),
                estado_text(1, &e.codigo),
                estado_text(2, &e.nombre),
            ]
            .map(Ok),
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Parallel map over a slice (the GIL is released by the caller)

fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = if items.len() >= PARALLEL_MIN {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        1
    };
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(items.len().div_ceil(threads))
            .map(|chunk| scope.spawn(move || chunk.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out = Vec::with_capacity(items.len());
        for handle in handles {
            out.extend(
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        out
    })
}

/// Disables Python's cyclic garbage collector until dropped (if it was enabled).
struct GcPause<'py>(Option<Bound<'py, PyModule>>);

impl<'py> GcPause<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let gc = py.import(intern!(py, "gc"))?;
        if gc.call_method0(intern!(py, "isenabled"))?.is_truthy()? {
            gc.call_method0(intern!(py, "disable"))?;
            Ok(GcPause(Some(gc)))
        } else {
            Ok(GcPause(None))
        }
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            // Re-enabling cannot fail in practice; there is no caller to report to from drop.
            let _ = gc.call_method0(intern!(gc.py(), "enable"));
        }
    }
}

type Input = Result<Profile, CoreError>;
type Output = Result<ScoreReport, CoreError>;

fn score_input(input: &Input) -> Output {
    match input {
        Ok(profile) => score_core::score(profile),
        Err(e) => Err(e.clone()),
    }
}

// ---------------------------------------------------------------------------------------------
// Lazy report (score_many(..., lazy=True))

/// The nested values of a report (dicts and lists), which a `Report` builds on first access
/// and keeps: slot of each in `Report::nested`.
const NESTED: [usize; 6] = [
    key::CAPACIDAD,
    key::SALUD,
    key::RECOMENDACIONES,
    key::ESTADO,
    key::COMPONENTES,
    key::DETALLE,
];

fn nested_slot(k: usize) -> Option<usize> {
    NESTED.iter().position(|n| *n == k)
}

/// The index in `REPORT_KEYS` of a key given from Python (`None`: not a key of the report).
fn key_index(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let keys = &names(py)?.report.keys;
    if let Some(k) = keys.iter().position(|k| k.is(key)) {
        return Ok(Some(k));
    }
    match key.cast::<PyString>() {
        Ok(s) => {
            let s = s.to_cow()?;
            Ok(REPORT_KEYS.iter().position(|k| *k == s))
        }
        Err(_) => Ok(None),
    }
}

/// `collections.abc.KeysView`, `ValuesView` and `ItemsView`: the views `keys()`, `values()`
/// and `items()` of a `Report` return, as for any `Mapping`.
fn view<'py>(py: Python<'py>, which: usize) -> PyResult<&'py Bound<'py, PyAny>> {
    static VIEWS: [PyOnceLock<Py<PyAny>>; 3] =
        [PyOnceLock::new(), PyOnceLock::new(), PyOnceLock::new()];
    let name = ["KeysView", "ValuesView", "ItemsView"][which];
    VIEWS[which].import(py, "collections.abc", name)
}

/// A report of `score_many(..., lazy=True)`: a read-only mapping with exactly the keys and
/// values of the dict `score()` returns, converted from the Rust report only when read.
///
/// Creating it is the only Python allocation per profile (the Rust `ScoreReport`, boxed by
/// the scoring thread, is moved in). Scalars (`score`, `nivel`, the legacy amounts, ...) are
/// converted on each access, which costs about as much as a dict lookup plus one int or
/// float. The six nested values (`capacidad_compra_estimada`, `salud_financiera`,
/// `recomendaciones`, `estado`, `componentes`, `recomendaciones_detalle`) are plain dicts and
/// lists built on the first access of their key and kept in a `PyOnceLock` each, so repeated
/// access returns the same object.
///
/// Why per key rather than materialising the whole dict on the first access: the common use of
/// a large batch is to read one or two fields of every report (filter by `score`, sort by
/// `valor_realista`); building the full report (~15 dicts, ~4.5 µs) for that would cost what
/// the lazy form exists to avoid. Six lazily filled slots add 96 bytes per report and the code
/// stays one `Builder::value` per key, shared with `score()`.
///
/// Equality, `repr` and iteration of values see the cached nested objects when they exist
/// (fresh ones otherwise, without caching them); `to_dict()` always builds a new dict, the one
/// `score()` returns. Pickling gives that dict. Not hashable (like a dict). The nested values
/// are ordinary containers: the report holds no reference cycle unless its user builds one
/// through them (the class does not take part in the cyclic GC, so that a million reports
/// cost the collector nothing).
#[pyclass(frozen, mapping, module = "platform_score", name = "Report")]
struct Report {
    report: Box<ScoreReport>,
    decimals: bool,
    nested: [PyOnceLock<Py<PyAny>>; NESTED.len()],
}

impl Report {
    fn new(report: Box<ScoreReport>, decimals: bool) -> Self {
        Report {
            report,
            decimals,
            nested: std::array::from_fn(|_| PyOnceLock::new()),
        }
    }

    /// The value of key `k`; nested values are built once and kept when `keep`, else the kept
    /// one is used when there is one.
    fn value<'py>(&self, py: Python<'py>, k: usize, keep: bool) -> PyResult<Bound<'py, PyAny>> {
        let build = || Builder::new(py, self.decimals)?.value(&self.report, k);
        match nested_slot(k) {
            Some(slot) if keep => Ok(self.nested[slot]
                .get_or_try_init(py, || build().map(Bound::unbind))?
                .bind(py)
                .clone()),
            Some(slot) => match self.nested[slot].get(py) {
                Some(v) => Ok(v.bind(py).clone()),
                None => build(),
            },
            None => build(),
        }
    }

    /// A dict of the current values (kept nested values where they exist), for `==` and repr.
    fn current<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let builder = Builder::new(py, self.decimals)?;
        let d = builder.dict(
            &builder.names.report,
            (0..REPORT_KEYS.len()).map(|k| self.value(py, k, false)),
        )?;
        Ok(d.cast_into::<PyDict>()?)
    }
}

#[pymethods]
impl Report {
    /// Unhashable, like a dict (it compares equal to one).
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __len__(&self) -> usize {
        REPORT_KEYS.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match key_index(py, key)? {
            Some(k) => self.value(py, k, true),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(key_index(py, key)?.is_some())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        names(py)?.report_keys.bind(py).try_iter()
    }

    /// get(key, default=None): the value of `key`, or `default` when it is not a key.
    #[pyo3(signature = (key, default = None, /))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match key_index(py, key)? {
            Some(k) => self.value(py, k, true),
            None => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
        }
    }

    /// keys() -> KeysView: the report's keys, in score-core's JSON order.
    fn keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.py(), 0)?.call1((slf,))
    }

    /// values() -> ValuesView.
    fn values<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.py(), 1)?.call1((slf,))
    }

    /// items() -> ItemsView.
    fn items<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.py(), 2)?.call1((slf,))
    }

    /// to_dict() -> dict: a new dict, the very one `score()` returns for the same profile.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        Builder::new(py, self.decimals)?.report(&self.report)
    }

    /// Equal to a mapping with the same keys and equal values (a dict of `score()`, another
    /// Report); `NotImplemented` for anything that is not a mapping.
    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let mine = self.current(py)?;
        let theirs = if let Ok(report) = other.cast::<Report>() {
            report.get().current(py)?.into_any()
        } else if other.is_instance_of::<PyDict>() {
            other.clone()
        } else if other.is_instance_of::<PyMapping>() {
            PyDict::from_sequence(&other.call_method0(intern!(py, "items"))?)?.into_any()
        } else {
            return Ok(py.NotImplemented());
        };
        mine.eq(theirs)?.into_py_any(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Report({})", self.current(py)?.repr()?.to_cow()?))
    }

    /// Pickles (and copies) as the dict of `to_dict()`.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        Ok((py.get_type::<PyDict>().into_any(), (self.to_dict(py)?,)))
    }
}

// ---------------------------------------------------------------------------------------------
// Python API

/// score(profile, *, decimals=False) -> dict: the full report of one profile.
#[pyfunction]
#[pyo3(signature = (profile, *, decimals = false))]
fn score<'py>(
    py: Python<'py>,
    profile: &Bound<'py, PyAny>,
    decimals: bool,
) -> PyResult<Bound<'py, PyDict>> {
    match read_profile(profile)?.and_then(|p| score_core::score(&p)) {
        Ok(r) => Builder::new(py, decimals)?.report(&r),
        Err(e) => Err(py_error(py, &e, None)),
    }
}

/// score_json(text) -> str: JSON text in, the report's compact JSON text out.
#[pyfunction]
fn score_json(py: Python<'_>, text: &str) -> PyResult<String> {
    let owned = text.to_owned();
    py.detach(move || score_core::score_json(&owned))
        .map_err(|e| py_error(py, &e, None))
}

/// Appends one result of a batch to `out` (`index`: its position in the batch): the built
/// value, or the ScoreError (raised when `raise`).
fn append_result<'py, T, E: std::borrow::Borrow<CoreError>>(
    out: &Bound<'py, PyList>,
    result: Result<T, E>,
    index: usize,
    raise: bool,
    build: impl FnOnce(T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let py = out.py();
    match result {
        Ok(r) => out.append(build(r)?),
        Err(e) if raise => Err(py_error(py, e.borrow(), Some(index))),
        Err(e) => out.append(py_error(py, e.borrow(), Some(index)).into_value(py)),
    }
}

/// The work queue of `score_many`'s scoring threads: chunks of profiles with their sequence
/// number. No lock is held while waiting, so the calling thread can always take a chunk.
struct Queue<J> {
    state: std::sync::Mutex<(std::collections::VecDeque<J>, bool)>,
    ready: std::sync::Condvar,
}

impl<J> Queue<J> {
    fn new() -> Self {
        Queue {
            state: std::sync::Mutex::new((std::collections::VecDeque::new(), false)),
            ready: std::sync::Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (std::collections::VecDeque<J>, bool)> {
        // Poisoned only if a thread panicked while holding it (the panic is re-raised on join).
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn push(&self, job: J) {
        self.lock().0.push_back(job);
        self.ready.notify_one();
    }

    /// Drops what is queued and wakes every waiting worker: `next` returns `None` from now on.
    fn close(&self) {
        let mut state = self.lock();
        state.0.clear();
        state.1 = true;
        drop(state);
        self.ready.notify_all();
    }

    /// The oldest job, without waiting.
    fn try_next(&self) -> Option<J> {
        self.lock().0.pop_front()
    }

    /// The oldest job, waiting for one; `None` once closed.
    fn next(&self) -> Option<J> {
        let mut state = self.lock();
        loop {
            if state.1 {
                return None;
            }
            if let Some(job) = state.0.pop_front() {
                return Some(job);
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

/// The batch pipeline of `score_many`. The calling thread does what needs the GIL: it reads
/// the profiles, in chunks of `CHUNK`, and hands each scored chunk, in order, to `emit` (with
/// the index of its first profile). Scoring happens on `cores - 1` worker threads, which never
/// touch Python, fed through a queue; at most `IN_FLIGHT` chunks are read and not yet emitted.
/// When the calling thread has nothing to emit and may not read further ahead, it takes the
/// oldest queued chunk and scores it itself (GIL released) rather than wait, so that both
/// cores stay busy whichever side is slower (building dicts, or scoring when the lazy form
/// makes the Python side cheap). A batch that fits in one `BLOCK` is read first and scored
/// over all cores with the GIL released.
fn pipeline<'py, T: Send>(
    py: Python<'py>,
    profiles: &Bound<'py, PyAny>,
    score: fn(&Input) -> T,
    mut emit: impl FnMut(Vec<T>, usize) -> PyResult<()>,
) -> PyResult<()> {
    let mut iter = profiles.try_iter()?;
    let mut read = |n: usize| -> PyResult<Vec<Input>> {
        let mut block = Vec::with_capacity(n);
        for item in iter.by_ref().take(n) {
            block.push(read_profile(&item?)?);
        }
        Ok(block)
    };
    let first = read(BLOCK)?;
    if first.len() < BLOCK {
        let reports = py.detach(|| par_map(&first, score));
        return emit(reports, 0);
    }
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .saturating_sub(1)
        .max(1);
    let queue = Queue::<(usize, Vec<Input>)>::new();
    let (worker_out, from_workers) = mpsc::channel::<(usize, Vec<T>)>();
    let scored = |(seq, inputs): (usize, Vec<Input>)| (seq, inputs.iter().map(score).collect());
    let stopped = || PyValueError::new_err("score_many: the scoring threads stopped");
    std::thread::scope(|scope| -> PyResult<()> {
        for _ in 0..workers {
            let worker_out = worker_out.clone();
            let queue = &queue;
            scope.spawn(move || {
                while let Some(job) = queue.next() {
                    if worker_out.send(scored(job)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(worker_out);
        // Whatever happens below (an error, a ScoreError raised), the workers stop.
        struct Close<'a, J>(&'a Queue<J>);
        impl<J> Drop for Close<'_, J> {
            fn drop(&mut self) {
                self.0.close();
            }
        }
        let _close = Close(&queue);
        let (mut sent, mut first) = (0, first.into_iter());
        while first.len() > 0 {
            queue.push((sent, first.by_ref().take(CHUNK).collect()));
            sent += 1;
        }
        let mut from_workers = from_workers;
        let mut done: std::collections::BTreeMap<usize, Vec<T>> = Default::default();
        let (mut emitted, mut start, mut more) = (0usize, 0usize, true);
        while more || emitted < sent {
            // Emit what is ready, in order.
            while let Ok((seq, out)) = from_workers.try_recv() {
                done.insert(seq, out);
            }
            if let Some(out) = done.remove(&emitted) {
                let len = out.len();
                emit(out, start)?;
                (start, emitted) = (start + len, emitted + 1);
                continue;
            }
            // Read ahead while the window allows.
            if more && sent - emitted < IN_FLIGHT {
                let chunk = read(CHUNK)?;
                more = chunk.len() == CHUNK;
                if !chunk.is_empty() {
                    queue.push((sent, chunk));
                    sent += 1;
                }
                continue;
            }
            // Nothing to emit and nothing to read: score the oldest queued chunk here, or wait.
            let queue = &queue;
            let (rx, result) = py.detach(move || {
                let result = match queue.try_next() {
                    Some(job) => Some(scored(job)),
                    None => from_workers.recv().ok(),
                };
                (from_workers, result)
            });
            from_workers = rx;
            let (seq, out) = result.ok_or_else(stopped)?;
            done.insert(seq, out);
        }
        Ok(())
    })
}

fn score_boxed(input: &Input) -> Result<Box<ScoreReport>, CoreError> {
    score_input(input).map(Box::new)
}

/// score_many(profiles, *, errors="raise", decimals=False, lazy=False) -> list.
///
/// Dicts: the calling thread builds the dicts of block k while the worker scores block k+1.
/// `lazy=True`: one `Report` per profile, which holds the boxed Rust report (boxed on the
/// worker, so the calling thread only reads profiles and creates the Report objects).
#[pyfunction]
#[pyo3(signature = (profiles, *, errors = "raise", decimals = false, lazy = false))]
fn score_many<'py>(
    py: Python<'py>,
    profiles: &Bound<'py, PyAny>,
    errors: &str,
    decimals: bool,
    lazy: bool,
) -> PyResult<Bound<'py, PyList>> {
    let raise = match errors {
        "raise" => true,
        "return" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "errors must be \"raise\" or \"return\", not {other:?}"
            )));
        }
    };
    let out = PyList::empty(py);
    // The reports hold no reference cycles; pausing the cyclic GC while a large batch of dicts
    // is built avoids repeated full collections over the growing list.
    let _gc = GcPause::new(py)?;
    if lazy {
        pipeline(py, profiles, score_boxed, |reports, start| {
            for (i, result) in reports.into_iter().enumerate() {
                append_result(&out, result, start + i, raise, |r| {
                    Ok(Bound::new(py, Report::new(r, decimals))?.into_any())
                })?;
            }
            Ok(())
        })?;
    } else {
        let builder = Builder::new(py, decimals)?;
        pipeline(py, profiles, score_input, |reports, start| {
            for (i, result) in reports.iter().enumerate() {
                append_result(&out, result.as_ref(), start + i, raise, |r| {
                    Ok(builder.report(r)?.into_any())
                })?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}
// ---------------------------------------------------------------------------------------------
// Columnar path (used by platform_score.score_frame): column buffers in, column buffers out.

/// One input column: float64 (NaN = missing), int64, categorical (int32 codes, -1 = missing,
/// with its categories) or bool (uint8, 2 = missing).
/// Any other column arrives as a list of Python objects, converted like `score()`'s values.
enum Column<'a> {
    F64(&'a [u8]),
    I64(&'a [u8]),
    Cat(&'a [u8], Vec<String>),
    Bool(&'a [u8]),
    Values(Vec<Result<Value, CoreError>>),
}

impl Column<'_> {
    fn len(&self) -> usize {
        match self {
            Column::F64(b) | Column::I64(b) => b.len() / 8,
            Column::Cat(b, _) => b.len() / 4,
            Column::Bool(b) => b.len(),
            Column::Values(v) => v.len(),
        }
    }

    fn value(&self, row: usize) -> Result<Value, CoreError> {
        Ok(match self {
            Column::F64(b) => {
                let f = f64::from_le_bytes(word(b, row));
                // Integral doubles are read as the integers a JSON file would carry.
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                if f.fract() == 0.0 && f.abs() < 9.0e15 {
                    Value::from(f as i64)
                } else {
                    float_value(f)
                }
            }
            Column::I64(b) => Value::from(i64::from_le_bytes(word(b, row))),
            Column::Cat(b, cats) => {
                category(b, cats, row).map_or(Value::Null, |s| Value::String(s.clone()))
            }
            Column::Bool(b) => match b[row] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                _ => Value::Null,
            },
            Column::Values(v) => return v[row].clone(),
        })
    }
}

/// The category of a row of a categorical column (`None` for the missing code -1).
fn category<'c>(b: &[u8], cats: &'c [String], row: usize) -> Option<&'c String> {
    let code = i32::from_le_bytes([b[row * 4], b[row * 4 + 1], b[row * 4 + 2], b[row * 4 + 3]]);
    usize::try_from(code).ok().and_then(|c| cats.get(c))
}

fn word(b: &[u8], row: usize) -> [u8; 8] {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[row * 8..row * 8 + 8]);
    w
}

/// Number of float64 output columns of the frame path.
const NUMERIC_USED: usize = 37;
/// Names of the float64 output columns, in the order of `numeric_row`: the amounts of
/// capacidad_compra_estimada under their own names, `salud_financiera_<key>` and
/// `componente_<name>_<key>`.
fn numeric_names() -> Vec<Cow<'static, str>> {
    let capacidad = CAPACIDAD_KEYS
        .iter()
        .filter(|k| !matches!(**k, "evaluacion_m2" | "estatus_enganche" | "plazo_anios"))
        .map(|k| Cow::Borrowed(*k));
    let salud = SALUD_KEYS
        .iter()
        .map(|k| Cow::Owned(format!("salud_financiera_{k}")));
    let componentes = COMPONENTES_KEYS.iter().flat_map(|c| {
        COMPONENTE_KEYS
            .iter()
            .map(move |k| Cow::Owned(format!("componente_{c}_{k}")))
    });
    capacidad.chain(salud).chain(componentes).collect()
}

/// The amounts of capacidad_compra_estimada, in `CAPACIDAD_KEYS` order (without the
/// labels evaluacion_m2 and estatus_enganche and the integer plazo_anios).
fn capacidad_amounts(c: &score_core::CapacidadCompra) -> [Decimal; 15] {
    [
        c.valor_bancario,
        c.valor_realista,
        c.factor_platform_v2,
        c.ltv,
        c.pago_mensual_estimado,
        c.credito_max,
        c.m2_alcanzables,
        c.m2_minimo_nucleo,
        c.enganche_requerido,
        c.enganche_disponible,
        c.subcuenta_fondo_estimada,
        c.renta_equivalente,
        c.gastos_cierre_estimados,
        c.tasa_anual,
        c.precio_m2_estado,
    ]
}

/// salud_financiera in `SALUD_KEYS` order.
fn salud_amounts(s: &score_core::SaludFinanciera) -> [Decimal; 4] {
    [s.score, s.costo_vida_digno, s.ingreso_disponible, s.ratio]
}

/// The six components in `COMPONENTES_KEYS` order, each in `COMPONENTE_KEYS` order.
fn componentes_amounts(k: &score_core::Componentes) -> [[Decimal; 3]; 6] {
    [
        &k.ingreso,
        &k.tipo_ingreso,
        &k.antiguedad,
        &k.deudas,
        &k.ahorro,
        &k.salud_financiera,
    ]
    .map(|c| [c.valor, c.peso, c.puntos])
}

/// Every amount of the report, in the order of `numeric_names`.
fn numeric_row(r: &ScoreReport) -> [Decimal; NUMERIC_USED] {
    let mut row = [Decimal::ZERO; NUMERIC_USED];
    let amounts = capacidad_amounts(&r.capacidad_compra_estimada)
        .into_iter()
        .chain(salud_amounts(&r.salud_financiera))
        .chain(componentes_amounts(&r.componentes).into_iter().flatten());
    for (slot, value) in row.iter_mut().zip(amounts) {
        *slot = value;
    }
    row
}

impl Column<'_> {
    /// The row's value as a cell; `None` when only score-core's JSON reader can judge it.
    fn cell(&self, row: usize) -> Option<Cell<'_>> {
        Some(match self {
            Column::F64(b) => {
                let f = f64::from_le_bytes(word(b, row));
                // As in `value`: integral doubles are the integers a JSON file would carry.
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                if f.is_nan() {
                    Cell::Absent
                } else if f.fract() == 0.0 && f.abs() < 9.0e15 {
                    Cell::Int(f as i64)
                } else if f.is_finite() {
                    Cell::Float(f)
                } else {
                    return None;
                }
            }
            Column::I64(b) => Cell::Int(i64::from_le_bytes(word(b, row))),
            Column::Cat(b, cats) => match category(b, cats, row) {
                Some(s) => Cell::Str(Cow::Borrowed(s)),
                None => Cell::Absent,
            },
            Column::Bool(b) if b[row] == 2 => Cell::Absent,
            Column::Values(v) => match &v[row] {
                Ok(Value::Null) => Cell::Absent,
                Ok(Value::String(s)) => Cell::Str(Cow::Borrowed(s)),
                Ok(Value::Number(n)) => match n.as_i64() {
                    Some(i) => Cell::Int(i),
                    None if n.is_f64() => Cell::Float(n.as_f64()?),
                    None => return None,
                },
                _ => return None,
            },
            Column::Bool(_) => return None,
        })
    }
}

/// The input columns of the frame path, with the profile field each one fills.
struct Frame<'a> {
    columns: Vec<(String, Option<usize>, Column<'a>)>,
}

impl Frame<'_> {
    fn profile(&self, row: usize) -> Result<Profile, CoreError> {
        let mut cells = Cells::default();
        let mut typed = true;
        for (_, slot, column) in &self.columns {
            match (slot, column.cell(row)) {
                (_, Some(Cell::Absent)) => {}
                (Some(slot), Some(cell)) => cells.set(*slot, cell),
                _ => typed = false,
            }
        }
        if let Some(profile) = typed.then(|| cells.profile()).flatten() {
            return Ok(profile);
        }
        // The JSON object of the row, for score-core's reader and its exact error.
        let mut map = Map::new();
        for (name, _, column) in &self.columns {
            let v = column.value(row)?;
            if !v.is_null() {
                map.insert(name.clone(), v);
            }
        }
        Profile::from_json_value(&Value::Object(map))
    }
}

/// `recomendaciones_codigos` of a row: the indices in `CodigoRecomendacion::ALL` of its
/// recommendations, in order, packed 4 bits each (index + 1, so 0 ends the sequence).
/// `REC_FAILED` for a failed row, `REC_LONG` for a sequence that does not fit (more than 15
/// codes, or an index over 14), kept apart in `FrameOut::long`.
const REC_FAILED: u64 = u64::MAX;
const REC_LONG: u64 = u64::MAX - 1;

fn pack_recommendations(codes: &[u8]) -> u64 {
    if codes.len() > 15 || codes.iter().any(|&c| c >= 15) {
        return REC_LONG;
    }
    codes
        .iter()
        .enumerate()
        .fold(0, |key, (i, &c)| key | (u64::from(c) + 1) << (4 * i))
}

fn unpack_recommendations(mut key: u64) -> Vec<u8> {
    let mut codes = Vec::new();
    while key & 0xf != 0 {
        codes.extend(u8::try_from((key & 0xf) - 1).ok());
        key >>= 4;
    }
    codes
}

/// An output column of the frame path: `(name, kind, width in bytes of a row, categories)`;
/// kind "f64", "i64" or "cat" (int32 codes).
type LayoutColumn = (
    Cow<'static, str>,
    &'static str,
    usize,
    Option<Vec<Cow<'static, str>>>,
);

/// Output columns of the frame path, in `_score_columns`' order.
fn frame_layout() -> Vec<LayoutColumn> {
    let names =
        |all: &[&'static str]| Some(all.iter().map(|s| Cow::Borrowed(*s)).collect::<Vec<_>>());
    let states: Vec<&score_core::states::StateInfo> = State::all().map(State::info).collect();
    let mut out = vec![
        (Cow::Borrowed("score"), "i64", 8, None),
        (
            Cow::Borrowed("nivel"),
            "cat",
            4,
            names(&NIVELES.map(Nivel::as_str)),
        ),
    ];
    out.extend(numeric_names().into_iter().map(|n| (n, "f64", 8, None)));
    out.push((
        Cow::Borrowed("evaluacion_m2"),
        "cat",
        4,
        names(&EVALUACIONES.map(EvaluacionM2::as_str)),
    ));
    out.push((
        Cow::Borrowed("estatus_enganche"),
        "cat",
        4,
        names(&ESTATUS.map(EstatusEnganche::as_str)),
    ));
    out.push((Cow::Borrowed("plazo_anios"), "i64", 8, None));
    out.push((
        Cow::Borrowed("estado_clave"),
        "cat",
        4,
        names(&states.iter().map(|s| s.clave).collect::<Vec<_>>()),
    ));
    out.push((
        Cow::Borrowed("estado_codigo"),
        "cat",
        4,
        names(&states.iter().map(|s| s.iso).collect::<Vec<_>>()),
    ));
    out.push((
        Cow::Borrowed("estado_nombre"),
        "cat",
        4,
        names(&states.iter().map(|s| s.nombre).collect::<Vec<_>>()),
    ));
    // recomendaciones_codigos: its categories are known after scoring.
    out.push((Cow::Borrowed("recomendaciones_codigos"), "cat", 4, None));
    out
}

/// Indices in `frame_layout()` (checked when the module loads, see `frame_layout_is_known`).
mod col {
    pub const SCORE: usize = 0;
    pub const NIVEL: usize = 1;
    pub const FIRST_NUMERIC: usize = 2;
    pub const EVALUACION: usize = FIRST_NUMERIC + super::NUMERIC_USED;
    pub const ESTATUS: usize = EVALUACION + 1;
    pub const PLAZO: usize = EVALUACION + 2;
    pub const CLAVE: usize = EVALUACION + 3;
    pub const CODIGO: usize = EVALUACION + 4;
    pub const NOMBRE: usize = EVALUACION + 5;
    pub const RECOMENDACIONES: usize = EVALUACION + 6;
    pub const COUNT: usize = EVALUACION + 7;
}

/// Whether `frame_layout()` has the columns `col` names, where it says.
fn frame_layout_is_known() -> bool {
    let layout = frame_layout();
    let at = |k: usize, name: &str, kind: &str| {
        layout
            .get(k)
            .is_some_and(|(n, t, _, _)| n == name && *t == kind)
    };
    layout.len() == col::COUNT
        && at(col::SCORE, "score", "i64")
        && at(col::NIVEL, "nivel", "cat")
        && (col::FIRST_NUMERIC..col::EVALUACION).all(|k| layout[k].1 == "f64")
        && at(col::EVALUACION, "evaluacion_m2", "cat")
        && at(col::ESTATUS, "estatus_enganche", "cat")
        && at(col::PLAZO, "plazo_anios", "i64")
        && at(col::CLAVE, "estado_clave", "cat")
        && at(col::CODIGO, "estado_codigo", "cat")
        && at(col::NOMBRE, "estado_nombre", "cat")
        && at(col::RECOMENDACIONES, "recomendaciones_codigos", "cat")
}

/// The output of the frame path for a range of rows: one slice of each output column (and of
/// the row mask), written by the thread that scores those rows, without the GIL.
struct FrameOut<'a> {
    first_row: usize,
    ok: &'a mut [u8],
    /// In `frame_layout()` order; `recomendaciones_codigos` holds packed keys (8 bytes a row)
    /// until the categories are known.
    columns: Vec<&'a mut [u8]>,
    long: Vec<(usize, Vec<u8>)>,
    errors: Vec<(usize, CoreError)>,
}

fn put<const N: usize>(column: &mut [u8], i: usize, bytes: [u8; N]) {
    column[i * N..(i + 1) * N].copy_from_slice(&bytes);
}

impl FrameOut<'_> {
    /// Scores every row of this range into the columns.
    fn fill(&mut self, frame: &Frame<'_>) {
        let code = |i: Option<usize>| i.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1);
        for i in 0..self.ok.len() {
            let row = self.first_row + i;
            let r = match frame.profile(row).and_then(|p| score_core::score(&p)) {
                Ok(r) => r,
                Err(e) => {
                    self.failed(i);
                    self.errors.push((row, e));
                    continue;
                }
            };
            let c = &r.capacidad_compra_estimada;
            let cols = &mut self.columns;
            self.ok[i] = 1;
            put(cols[col::SCORE], i, i64::from(r.score).to_le_bytes());
            put(
                cols[col::NIVEL],
                i,
                code(index_of(&NIVELES, &r.nivel)).to_le_bytes(),
            );
            let numeric = &mut cols[col::FIRST_NUMERIC..col::EVALUACION];
            for (column, value) in numeric.iter_mut().zip(numeric_row(&r)) {
                put(column, i, money::json_f64(value).to_le_bytes());
            }
            let evaluacion = code(index_of(&EVALUACIONES, &c.evaluacion_m2));
            put(cols[col::EVALUACION], i, evaluacion.to_le_bytes());
            let estatus = code(index_of(&ESTATUS, &c.estatus_enganche));
            put(cols[col::ESTATUS], i, estatus.to_le_bytes());
            put(cols[col::PLAZO], i, i64::from(c.plazo_anios).to_le_bytes());
            let estado = code(state_index(&r)).to_le_bytes();
            for k in [col::CLAVE, col::CODIGO, col::NOMBRE] {
                put(cols[k], i, estado);
            }
            // As before, a code missing from ALL (none is) is left out of the sequence.
            let codes = || {
                r.recomendaciones_detalle
                    .iter()
                    .filter_map(|d| index_of(&CodigoRecomendacion::ALL, &d.codigo))
                    .filter_map(|i| u8::try_from(i).ok())
            };
            let mut short = [0u8; 15];
            let mut n = 0;
            for c in codes() {
                if let Some(slot) = short.get_mut(n) {
                    *slot = c;
                }
                n += 1;
            }
            let key = match short.get(..n) {
                Some(seq) => pack_recommendations(seq),
                None => REC_LONG,
            };
            if key == REC_LONG {
                self.long.push((row, codes().collect()));
            }
            put(cols[col::RECOMENDACIONES], i, key.to_le_bytes());
        }
    }

    /// The null row: score and plazo_anios 0 (masked), amounts NaN, category codes -1.
    fn failed(&mut self, i: usize) {
        self.ok[i] = 0;
        for (k, column) in self.columns.iter_mut().enumerate() {
            match k {
                col::SCORE | col::PLAZO => put(column, i, 0i64.to_le_bytes()),
                col::RECOMENDACIONES => put(column, i, REC_FAILED.to_le_bytes()),
                k if (col::FIRST_NUMERIC..col::EVALUACION).contains(&k) => {
                    put(column, i, f64::NAN.to_le_bytes());
                }
                _ => put(column, i, (-1i32).to_le_bytes()),
            }
        }
    }
}

/// Creates one `bytes` object per length of `lens` and calls `fill` once with all their
/// buffers, in order, before Python can see any of them: `PyBytes::new_with` nested, so that
/// every output column can be written in one parallel pass without a copy.
fn bytes_with<'py>(
    py: Python<'py>,
    lens: &[usize],
    buffers: Vec<&mut [u8]>,
    fill: &mut dyn FnMut(Vec<&mut [u8]>) -> PyResult<()>,
    out: &mut Vec<Bound<'py, PyBytes>>,
) -> PyResult<()> {
    let Some((&len, rest)) = lens.split_first() else {
        return fill(buffers);
    };
    let bytes = PyBytes::new_with(py, len, |buffer| {
        let mut buffers: Vec<&mut [u8]> = buffers;
        buffers.push(buffer);
        bytes_with(py, rest, buffers, fill, out)
    })?;
    // The innermost object is created last and pushed first.
    out.push(bytes);
    Ok(())
}

/// Rows per unit of work of the frame path.
const FRAME_CHUNK: usize = 1 << 13;

/// Splits full-length output buffers (`frame_layout()` order, `widths` bytes a row) into one
/// `FrameOut` per chunk of `FRAME_CHUNK` rows.
fn frame_chunks<'a>(
    ok: &'a mut [u8],
    columns: Vec<&'a mut [u8]>,
    widths: &[usize],
) -> Vec<FrameOut<'a>> {
    let mut parts: Vec<_> = columns
        .into_iter()
        .zip(widths)
        .map(|(c, w)| c.chunks_mut(FRAME_CHUNK * w))
        .collect();
    let mut first_row = 0;
    let mut out = Vec::new();
    for ok in ok.chunks_mut(FRAME_CHUNK) {
        let rows = ok.len();
        out.push(FrameOut {
            first_row,
            ok,
            columns: parts.iter_mut().filter_map(Iterator::next).collect(),
            long: Vec::new(),
            errors: Vec::new(),
        });
        first_row += rows;
    }
    out
}

/// A chunk scored by a helper thread of the frame path into its own buffers (reused from chunk
/// to chunk), to be copied into the output columns by the calling thread.
struct ChunkBuf {
    chunk: usize,
    rows: usize,
    ok: Vec<u8>,
    columns: Vec<Vec<u8>>,
    long: Vec<(usize, Vec<u8>)>,
    errors: Vec<(usize, CoreError)>,
}

impl ChunkBuf {
    fn new(widths: &[usize]) -> Self {
        ChunkBuf {
            chunk: 0,
            rows: 0,
            ok: vec![0; FRAME_CHUNK],
            columns: widths.iter().map(|w| vec![0; FRAME_CHUNK * w]).collect(),
            long: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn score(&mut self, frame: &Frame<'_>, chunk: usize, n_rows: usize, widths: &[usize]) {
        let first_row = chunk * FRAME_CHUNK;
        self.chunk = chunk;
        self.rows = FRAME_CHUNK.min(n_rows - first_row);
        let mut out = FrameOut {
            first_row,
            ok: &mut self.ok[..self.rows],
            columns: self
                .columns
                .iter_mut()
                .zip(widths)
                .map(|(c, w)| &mut c[..self.rows * w])
                .collect(),
            long: std::mem::take(&mut self.long),
            errors: std::mem::take(&mut self.errors),
        };
        out.long.clear();
        out.errors.clear();
        out.fill(frame);
        (self.long, self.errors) = (out.long, out.errors);
    }
}

/// What the frame path reports besides the columns: the long recommendation sequences and the
/// errors, by row.
type FrameExtras = (Vec<(usize, Vec<u8>)>, Vec<(usize, CoreError)>);

/// The calling thread's part of the frame path, once the output buffers exist (GIL released):
/// it takes chunks from `next` and scores them straight into the columns, and copies in the
/// chunks the helper threads have scored meanwhile (from `helpers`, whose buffers go back
/// through `recycle`), until every chunk is placed.
fn fill_frame(
    frame: &Frame<'_>,
    next: &std::sync::atomic::AtomicUsize,
    ok: &mut [u8],
    columns: Vec<&mut [u8]>,
    widths: &[usize],
    helpers: mpsc::Receiver<ChunkBuf>,
    recycle: &mpsc::Sender<ChunkBuf>,
) -> FrameExtras {
    let mut targets = frame_chunks(ok, columns, widths);
    let mut extras: Vec<(usize, FrameExtras)> = Vec::with_capacity(targets.len());
    let place =
        |buf: ChunkBuf, targets: &mut [FrameOut<'_>], extras: &mut Vec<(usize, FrameExtras)>| {
            if let Some(target) = targets.get_mut(buf.chunk) {
                target.ok.copy_from_slice(&buf.ok[..buf.rows]);
                for (dst, src) in target.columns.iter_mut().zip(&buf.columns) {
                    let len = dst.len();
                    dst.copy_from_slice(&src[..len]);
                }
            }
            let mut buf = buf;
            let chunk_extras = (
                std::mem::take(&mut buf.long),
                std::mem::take(&mut buf.errors),
            );
            extras.push((buf.chunk, chunk_extras));
            // A helper that has stopped does not need it back.
            let _ = recycle.send(buf);
        };
    loop {
        while let Ok(buf) = helpers.try_recv() {
            place(buf, &mut targets, &mut extras);
        }
        let chunk = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(target) = targets.get_mut(chunk) else {
            break;
        };
        target.fill(frame);
        let chunk_extras = (
            std::mem::take(&mut target.long),
            std::mem::take(&mut target.errors),
        );
        extras.push((chunk, chunk_extras));
    }
    // Every chunk is taken: the helpers finish theirs and stop (closing the channel).
    for buf in helpers {
        place(buf, &mut targets, &mut extras);
    }
    extras.sort_unstable_by_key(|(chunk, _)| *chunk);
    let (mut long, mut errors) = (Vec::new(), Vec::new());
    for (_, (l, e)) in extras {
        long.extend(l);
        errors.extend(e);
    }
    (long, errors)
}

/// Scores every row of `frame` into new `bytes` of lengths `lens` (the row mask, then the
/// columns of `frame_layout()`, `widths` bytes a row), on all cores.
///
/// Creating (and zeroing) ~350 MB of output for a million rows takes the calling thread a
/// good part of the run, so the helper threads (`cores - 1`) start scoring at once, into
/// chunk buffers of their own; once the output exists, the calling thread scores chunks
/// straight into it and copies the helpers' chunks in, one `memcpy` per column.
fn score_frame_bytes<'py>(
    py: Python<'py>,
    frame: &Frame<'_>,
    n_rows: usize,
    lens: &[usize],
    widths: &[usize],
) -> PyResult<(Vec<Bound<'py, PyBytes>>, FrameExtras)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let n_chunks = n_rows.div_ceil(FRAME_CHUNK);
    let helpers = if n_rows >= PARALLEL_MIN {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get) - 1
    } else {
        0
    };
    let next = AtomicUsize::new(0);
    let (to_main, from_helpers) = mpsc::channel::<ChunkBuf>();
    let (recycle, recycled) = mpsc::channel::<ChunkBuf>();
    let recycled = std::sync::Mutex::new(recycled);
    let mut objects = Vec::with_capacity(lens.len());
    let mut extras = None;
    std::thread::scope(|scope| -> PyResult<()> {
        for _ in 0..helpers {
            let (to_main, next, recycled) = (to_main.clone(), &next, &recycled);
            scope.spawn(move || {
                loop {
                    let chunk = next.fetch_add(1, Ordering::Relaxed);
                    if chunk >= n_chunks {
                        break;
                    }
                    let reused = recycled
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .try_recv();
                    let mut buf = reused.unwrap_or_else(|_| ChunkBuf::new(widths));
                    buf.score(frame, chunk, n_rows, widths);
                    if to_main.send(buf).is_err() {
                        break;
                    }
                }
            });
        }
        drop(to_main);
        // If anything below fails, the helpers take no further chunk.
        struct Exhaust<'a>(&'a AtomicUsize, usize);
        impl Drop for Exhaust<'_> {
            fn drop(&mut self) {
                self.0.fetch_max(self.1, Ordering::Relaxed);
            }
        }
        let _exhaust = Exhaust(&next, n_chunks);
        let mut helpers_out = Some(from_helpers);
        bytes_with(
            py,
            lens,
            Vec::new(),
            &mut |mut buffers| {
                let ok = buffers.remove(0);
                let (next, recycle) = (&next, &recycle);
                if let Some(rx) = helpers_out.take() {
                    extras =
                        Some(py.detach(move || {
                            fill_frame(frame, next, ok, buffers, widths, rx, recycle)
                        }));
                }
                Ok(())
            },
            &mut objects,
        )
    })?;
    objects.reverse();
    Ok((objects, extras.unwrap_or_default()))
}

type ColumnOut<'py> = (
    Cow<'static, str>,
    &'static str,
    Bound<'py, PyBytes>,
    Option<Vec<Cow<'static, str>>>,
);

/// _score_columns(n_rows, columns) -> (ok_mask, output_columns, errors)
///
/// `columns`: list of (name, kind, data, categories) with kind "f64" | "i64" | "cat" | "bool"
/// (data: little-endian bytes) or "obj" (data: a sequence of Python values).
/// Returns a uint8 mask of scored rows, a list of (name, kind, data, categories) output columns
/// and a list of (row, code, field, message) for the rows that failed.
///
/// The output `bytes` are created first and written in one pass over the rows, on all cores
/// with the GIL released (each thread writes every column of its chunks of rows).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn _score_columns<'py>(
    py: Python<'py>,
    n_rows: usize,
    columns: Vec<(String, String, Bound<'py, PyAny>, Option<Vec<String>>)>,
) -> PyResult<(
    Bound<'py, PyBytes>,
    Vec<ColumnOut<'py>>,
    Vec<(usize, &'static str, Option<String>, String)>,
)> {
    let mut frame = Frame {
        columns: Vec::with_capacity(columns.len()),
    };
    for (name, kind, data, cats) in &columns {
        let bytes = || data.cast::<PyBytes>().map(|b| b.as_bytes());
        let column = match kind.as_str() {
            "f64" => Column::F64(bytes()?),
            "i64" => Column::I64(bytes()?),
            "cat" => Column::Cat(bytes()?, cats.clone().unwrap_or_default()),
            "bool" => Column::Bool(bytes()?),
            "obj" => Column::Values(
                data.try_iter()?
                    .map(|item| to_value(&item?, Some(name), 0))
                    .collect::<PyResult<Vec<_>>>()?,
            ),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown column kind {other:?}"
                )));
            }
        };
        if column.len() != n_rows {
            return Err(PyValueError::new_err(format!(
                "column {name:?} has {} rows, not {n_rows}",
                column.len()
            )));
        }
        frame
            .columns
            .push((name.clone(), Cells::slot(name), column));
    }

    let layout = frame_layout();
    // The row mask, then every column; recomendaciones_codigos is written as 8-byte keys first.
    let lens: Vec<usize> = std::iter::once(n_rows)
        .chain(layout.iter().enumerate().map(|(k, (_, _, width, _))| {
            n_rows * if k == col::RECOMENDACIONES { 8 } else { *width }
        }))
        .collect();
    let widths: Vec<usize> = lens[1..].iter().map(|l| l / n_rows.max(1)).collect();
    let (objects, (long, failed)) = score_frame_bytes(py, &frame, n_rows, &lens, &widths)?;

    // recomendaciones_codigos: one category per distinct sequence of codes, in order of first
    // appearance.
    let mut objects = objects.into_iter();
    let ok = objects
        .next()
        .ok_or_else(|| PyValueError::new_err("_score_columns: no row mask"))?;
    let mut out: Vec<ColumnOut<'py>> = Vec::with_capacity(col::COUNT);
    for ((name, kind, _, cats), data) in layout.into_iter().zip(objects) {
        out.push((name, kind, data, cats));
    }
    let keys = out
        .pop()
        .ok_or_else(|| PyValueError::new_err("_score_columns: no recommendation column"))?;
    let mut categories: Vec<Cow<'static, str>> = Vec::new();
    let mut packed: HashMap<u64, i32> = HashMap::new();
    let mut unpacked: HashMap<Vec<u8>, i32> = HashMap::new();
    let mut long = long.into_iter().peekable();
    let mut category = |codes: Vec<u8>| {
        let next = i32::try_from(categories.len()).unwrap_or(i32::MAX);
        *unpacked.entry(codes).or_insert_with_key(|codes| {
            let texts: Vec<&str> = codes
                .iter()
                .filter_map(|&i| CodigoRecomendacion::ALL.get(usize::from(i)))
                .map(|c| c.as_str())
                .collect();
            categories.push(Cow::Owned(texts.join("|")));
            next
        })
    };
    let mut last = (REC_FAILED, -1);
    let rec_codes = PyBytes::new_with(py, n_rows * 4, |buf| {
        for (row, (key, code)) in keys
            .2
            .as_bytes()
            .chunks_exact(8)
            .zip(buf.chunks_exact_mut(4))
            .enumerate()
        {
            let key = u64::from_le_bytes(word(key, 0));
            let value = if key == last.0 {
                last.1
            } else if key == REC_FAILED {
                -1
            } else if key == REC_LONG {
                match long.next_if(|(r, _)| *r == row) {
                    Some((_, codes)) => category(codes),
                    None => -1,
                }
            } else {
                let value = match packed.get(&key) {
                    Some(v) => *v,
                    None => {
                        let v = category(unpack_recommendations(key));
                        packed.insert(key, v);
                        v
                    }
                };
                last = (key, value);
                value
            };
            code.copy_from_slice(&value.to_le_bytes());
        }
        Ok(())
    })?;
    out.push((keys.0, keys.1, rec_codes, Some(categories)));
    let errors = failed
        .into_iter()
        .map(|(row, e)| (row, e.code.as_str(), e.field, e.message))
        .collect();
    Ok((ok, out, errors))
}

/// The stable error codes of score-core, in documentation order.
fn error_codes() -> Vec<&'static str> {
    ErrorCode::ALL.iter().map(|c| c.as_str()).collect()
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    if !frame_layout_is_known() {
        return Err(pyo3::exceptions::PyImportError::new_err(
            "platform_score: the frame columns do not match their indices",
        ));
    }
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(score_many, m)?)?;
    m.add_function(wrap_pyfunction!(_score_columns, m)?)?;
    m.add_class::<Report>()?;
    m.add("ScoreError", py.get_type::<ScoreError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CORE_VERSION", score_core::VERSION)?;
    m.add("MODEL_VERSION", score_core::MODEL_VERSION)?;
    m.add("PROFILE_FIELDS", PyTuple::new(py, score_core::FIELDS)?)?;
    m.add("ERROR_CODES", PyTuple::new(py, error_codes())?)?;
    Ok(())
}
