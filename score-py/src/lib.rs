//! `platform_score._core`: the Python binding of score-core.
//!
//! Thin by design: convert the Python object to a `serde_json::Value`, call
//! `score_core::score_value`, build the report dict from the typed `ScoreReport` (same keys and
//! numbers as score-core's JSON), and map `score_core::ScoreError` to `platform_score.ScoreError`.
//! The batch and columnar entry points do the same per profile, with the GIL released and the
//! profiles split over the available cores.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use pyo3::{IntoPyObjectExt, intern};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use score_core::{
    CapacidadCompra, CodigoRecomendacion, Componente, ErrorCode, EstatusEnganche, EvaluacionM2,
    Nivel, ScoreError as CoreError, ScoreReport, money,
};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use std::sync::Mutex;

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
/// `score_many` converts, scores and builds the results in blocks of this many profiles.
const BLOCK: usize = 1 << 16;

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

/// The profile as the JSON value score-core reads.
fn profile_value(obj: &Bound<'_, PyAny>) -> PyResult<Result<Value, CoreError>> {
    to_value(obj, None, 0)
}

// ---------------------------------------------------------------------------------------------
// ScoreReport -> dict (keys and numbers exactly as in score-core's JSON)

const POW10_I64: [i64; 19] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
    1_000_000_000,
    10_000_000_000,
    100_000_000_000,
    1_000_000_000_000,
    10_000_000_000_000,
    100_000_000_000_000,
    1_000_000_000_000_000,
    10_000_000_000_000_000,
    100_000_000_000_000_000,
    1_000_000_000_000_000_000,
];
const POW10: [f64; 19] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18,
];

/// The JSON number score-core writes for a decimal: an integer when it has no fractional part,
/// else the nearest double. Fast path: a mantissa below 2^53 and a power of ten up to 1e22 are
/// exact doubles, so one IEEE division is the correctly rounded result that `money::to_f64`
/// (which parses the decimal's text) computes more slowly.
enum Num {
    Int(i64),
    Float(f64),
}

fn to_num(d: Decimal) -> Num {
    let (m, s) = (d.mantissa(), d.scale() as usize);
    if s < POW10.len() {
        if let Ok(m) = i64::try_from(m) {
            if m.unsigned_abs() < (1u64 << 53) {
                let p = POW10_I64[s];
                if m % p == 0 {
                    return Num::Int(m / p);
                }
                #[allow(clippy::cast_precision_loss)]
                return Num::Float(m as f64 / POW10[s]);
            }
        }
    }
    match d.fract().is_zero().then(|| d.to_i64()).flatten() {
        Some(i) => Num::Int(i),
        None => Num::Float(money::to_f64(d)),
    }
}

fn to_f64(d: Decimal) -> f64 {
    match to_num(d) {
        #[allow(clippy::cast_precision_loss)]
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

/// FxHash: the cache below is keyed by (pointer, length) of static strings, no DoS concern.
#[derive(Default)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// Python strings for texts of score-core (`&'static str`), created once.
fn static_str<'py>(py: Python<'py>, s: &'static str) -> Bound<'py, PyString> {
    type Cache =
        Mutex<HashMap<(usize, usize), Py<PyString>, std::hash::BuildHasherDefault<FxHasher>>>;
    static CACHE: PyOnceLock<Cache> = PyOnceLock::new();
    let cache = CACHE.get_or_init(py, || Mutex::new(HashMap::default()));
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cache
        .entry((s.as_ptr() as usize, s.len()))
        .or_insert_with(|| PyString::new(py, s).unbind())
        .bind(py)
        .clone()
}

fn text<'py>(py: Python<'py>, s: &score_core::Text) -> Bound<'py, PyString> {
    match s {
        std::borrow::Cow::Borrowed(s) => static_str(py, s),
        std::borrow::Cow::Owned(s) => PyString::new(py, s),
    }
}

fn nivel_str(n: Nivel) -> &'static str {
    n.as_str()
}

fn evaluacion_str(e: EvaluacionM2) -> &'static str {
    match e {
        EvaluacionM2::Insuficiente => "INSUFICIENTE",
        EvaluacionM2::NucleoBasico => "NUCLEO_BASICO",
        EvaluacionM2::Adecuado => "ADECUADO",
        EvaluacionM2::Holgado => "HOLGADO",
    }
}

fn estatus_str(e: EstatusEnganche) -> &'static str {
    match e {
        EstatusEnganche::NoAplica => "NO_APLICA",
        EstatusEnganche::SinEnganche => "SIN_ENGANCHE",
        EstatusEnganche::Insuficiente => "INSUFICIENTE",
        EstatusEnganche::Parcial => "PARCIAL",
        EstatusEnganche::CubiertoSinGastos => "CUBIERTO_SIN_GASTOS",
        EstatusEnganche::Cubierto => "CUBIERTO",
    }
}

/// The wire name of a recommendation code (its serde name), computed once per code.
fn codigo_str(c: CodigoRecomendacion) -> &'static str {
    static NAMES: Mutex<Vec<(CodigoRecomendacion, &'static str)>> = Mutex::new(Vec::new());
    let mut names = NAMES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, name)) = names.iter().find(|(k, _)| *k == c) {
        return name;
    }
    let name: &'static str = match serde_json::to_value(c) {
        Ok(Value::String(s)) => Box::leak(s.into_boxed_str()),
        _ => "",
    };
    names.push((c, name));
    name
}

struct Builder<'py> {
    py: Python<'py>,
    decimal: Option<Bound<'py, PyAny>>,
}

impl<'py> Builder<'py> {
    fn new(py: Python<'py>, decimals: bool) -> PyResult<Self> {
        Ok(Builder {
            py,
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
        match to_num(d) {
            Num::Int(i) => i.into_bound_py_any(self.py),
            Num::Float(f) => Ok(PyFloat::new(self.py, f).into_any()),
        }
    }

    fn componente(&self, c: &Componente) -> PyResult<Bound<'py, PyDict>> {
        let py = self.py;
        let d = PyDict::new(py);
        d.set_item(intern!(py, "valor"), self.num(c.valor)?)?;
        d.set_item(intern!(py, "peso"), self.num(c.peso)?)?;
        d.set_item(intern!(py, "puntos"), self.num(c.puntos)?)?;
        Ok(d)
    }

    fn capacidad(&self, c: &CapacidadCompra) -> PyResult<Bound<'py, PyDict>> {
        let py = self.py;
        let d = PyDict::new(py);
        d.set_item(intern!(py, "valor_bancario"), self.num(c.valor_bancario)?)?;
        d.set_item(intern!(py, "valor_realista"), self.num(c.valor_realista)?)?;
        d.set_item(
            intern!(py, "factor_platform_v2"),
            self.num(c.factor_platform_v2)?,
        )?;
        d.set_item(intern!(py, "ltv"), self.num(c.ltv)?)?;
        d.set_item(
            intern!(py, "pago_mensual_estimado"),
            self.num(c.pago_mensual_estimado)?,
        )?;
        d.set_item(intern!(py, "credito_max"), self.num(c.credito_max)?)?;
        d.set_item(intern!(py, "m2_alcanzables"), self.num(c.m2_alcanzables)?)?;
        d.set_item(
            intern!(py, "m2_minimo_nucleo"),
            self.num(c.m2_minimo_nucleo)?,
        )?;
        d.set_item(
            intern!(py, "evaluacion_m2"),
            static_str(py, evaluacion_str(c.evaluacion_m2)),
        )?;
        d.set_item(
            intern!(py, "enganche_requerido"),
            self.num(c.enganche_requerido)?,
        )?;
        d.set_item(
            intern!(py, "enganche_disponible"),
            self.num(c.enganche_disponible)?,
        )?;
        d.set_item(
            intern!(py, "subcuenta_fondo_estimada"),
            self.num(c.subcuenta_fondo_estimada)?,
        )?;
        d.set_item(
            intern!(py, "estatus_enganche"),
            static_str(py, estatus_str(c.estatus_enganche)),
        )?;
        d.set_item(
            intern!(py, "renta_equivalente"),
            self.num(c.renta_equivalente)?,
        )?;
        d.set_item(
            intern!(py, "gastos_cierre_estimados"),
            self.num(c.gastos_cierre_estimados)?,
        )?;
        d.set_item(intern!(py, "tasa_anual"), self.num(c.tasa_anual)?)?;
        d.set_item(intern!(py, "plazo_anios"), c.plazo_anios)?;
        d.set_item(
            intern!(py, "precio_m2_estado"),
            self.num(c.precio_m2_estado)?,
        )?;
        Ok(d)
    }

    /// The report dict; keys in score-core's JSON order.
    fn report(&self, r: &ScoreReport) -> PyResult<Bound<'py, PyDict>> {
        let py = self.py;
        let d = PyDict::new(py);
        d.set_item(intern!(py, "score"), r.score)?;
        d.set_item(intern!(py, "nivel"), static_str(py, nivel_str(r.nivel)))?;
        d.set_item(
            intern!(py, "capacidad_compra_estimada"),
            self.capacidad(&r.capacidad_compra_estimada)?,
        )?;
        let s = &r.salud_financiera;
        let salud = PyDict::new(py);
        salud.set_item(intern!(py, "score"), self.num(s.score)?)?;
        salud.set_item(
            intern!(py, "costo_vida_digno"),
            self.num(s.costo_vida_digno)?,
        )?;
        salud.set_item(
            intern!(py, "ingreso_disponible"),
            self.num(s.ingreso_disponible)?,
        )?;
        salud.set_item(intern!(py, "ratio"), self.num(s.ratio)?)?;
        d.set_item(intern!(py, "salud_financiera"), salud)?;
        let recs = PyList::empty(py);
        for t in &r.recomendaciones {
            recs.append(text(py, t))?;
        }
        d.set_item(intern!(py, "recomendaciones"), recs)?;
        d.set_item(intern!(py, "disclaimer"), text(py, &r.disclaimer))?;
        d.set_item(
            intern!(py, "valor_vivienda_max"),
            self.num(r.valor_vivienda_max)?,
        )?;
        d.set_item(intern!(py, "credito_max"), self.num(r.credito_max)?)?;
        d.set_item(intern!(py, "enganche_min"), self.num(r.enganche_min)?)?;
        d.set_item(
            intern!(py, "pago_mensual_estimado"),
            self.num(r.pago_mensual_estimado)?,
        )?;
        d.set_item(intern!(py, "renta_estimada"), self.num(r.renta_estimada)?)?;
        d.set_item(intern!(py, "modelo_version"), text(py, &r.modelo_version))?;
        let estado = PyDict::new(py);
        estado.set_item(intern!(py, "clave"), text(py, &r.estado.clave))?;
        estado.set_item(intern!(py, "codigo"), text(py, &r.estado.codigo))?;
        estado.set_item(intern!(py, "nombre"), text(py, &r.estado.nombre))?;
        d.set_item(intern!(py, "estado"), estado)?;
        let c = &r.componentes;
        let comps = PyDict::new(py);
        comps.set_item(intern!(py, "ingreso"), self.componente(&c.ingreso)?)?;
        comps.set_item(
            intern!(py, "tipo_ingreso"),
            self.componente(&c.tipo_ingreso)?,
        )?;
        comps.set_item(intern!(py, "antiguedad"), self.componente(&c.antiguedad)?)?;
        comps.set_item(intern!(py, "deudas"), self.componente(&c.deudas)?)?;
        comps.set_item(intern!(py, "ahorro"), self.componente(&c.ahorro)?)?;
        comps.set_item(
            intern!(py, "salud_financiera"),
            self.componente(&c.salud_financiera)?,
        )?;
        d.set_item(intern!(py, "componentes"), comps)?;
        let detalle = PyList::empty(py);
        for rec in &r.recomendaciones_detalle {
            let item = PyDict::new(py);
            item.set_item(
                intern!(py, "codigo"),
                static_str(py, codigo_str(rec.codigo)),
            )?;
            item.set_item(intern!(py, "texto"), text(py, &rec.texto))?;
            detalle.append(item)?;
        }
        d.set_item(intern!(py, "recomendaciones_detalle"), detalle)?;
        Ok(d)
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

fn score_one(value: &Result<Value, CoreError>) -> Result<ScoreReport, CoreError> {
    match value {
        Ok(v) => score_core::score_value(v),
        Err(e) => Err(e.clone()),
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
    let report = profile_value(profile)?.and_then(|v| score_core::score_value(&v));
    match report {
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

/// score_many(profiles, *, errors="raise", decimals=False) -> list.
#[pyfunction]
#[pyo3(signature = (profiles, *, errors = "raise", decimals = false))]
fn score_many<'py>(
    py: Python<'py>,
    profiles: &Bound<'py, PyAny>,
    errors: &str,
    decimals: bool,
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
    let builder = Builder::new(py, decimals)?;
    let out = PyList::empty(py);
    // The reports hold no reference cycles; pausing the cyclic GC while a large batch of dicts
    // is built avoids repeated full collections over the growing list (3x faster at 1M).
    let _gc = GcPause::new(py)?;
    let mut iter = profiles.try_iter()?;
    let mut block: Vec<Result<Value, CoreError>> =
        Vec::with_capacity(BLOCK.min(profiles.len().unwrap_or(0)));
    loop {
        block.clear();
        for item in iter.by_ref().take(BLOCK) {
            block.push(profile_value(&item?)?);
        }
        if block.is_empty() {
            return Ok(out);
        }
        let items = std::mem::take(&mut block);
        let (items, reports) = py.detach(move || {
            let reports = par_map(&items, score_one);
            (items, reports)
        });
        block = items;
        let start = out.len();
        for (offset, report) in reports.iter().enumerate() {
            match report {
                Ok(r) => out.append(builder.report(r)?)?,
                Err(e) if raise => return Err(py_error(py, e, Some(start + offset))),
                Err(e) => out.append(py_error(py, e, Some(start + offset)).into_value(py))?,
            }
        }
    }
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
                let code = i32::from_le_bytes([
                    b[row * 4],
                    b[row * 4 + 1],
                    b[row * 4 + 2],
                    b[row * 4 + 3],
                ]);
                usize::try_from(code)
                    .ok()
                    .and_then(|c| cats.get(c))
                    .map_or(Value::Null, |s| Value::String(s.clone()))
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

fn word(b: &[u8], row: usize) -> [u8; 8] {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[row * 8..row * 8 + 8]);
    w
}

/// Number of float64 output columns of the frame path.
const NUMERIC_USED: usize = 37;
/// Names of the float64 output columns, in the order of `numeric_row`.
const NUMERIC: [&str; NUMERIC_USED] = [
    "valor_bancario",
    "valor_realista",
    "factor_platform_v2",
    "ltv",
    "pago_mensual_estimado",
    "credito_max",
    "m2_alcanzables",
    "m2_minimo_nucleo",
    "enganche_requerido",
    "enganche_disponible",
    "subcuenta_fondo_estimada",
    "renta_equivalente",
    "gastos_cierre_estimados",
    "tasa_anual",
    "precio_m2_estado",
    "salud_financiera_score",
    "salud_financiera_costo_vida_digno",
    "salud_financiera_ingreso_disponible",
    "salud_financiera_ratio",
    "componente_ingreso_valor",
    "componente_ingreso_peso",
    "componente_ingreso_puntos",
    "componente_tipo_ingreso_valor",
    "componente_tipo_ingreso_peso",
    "componente_tipo_ingreso_puntos",
    "componente_antiguedad_valor",
    "componente_antiguedad_peso",
    "componente_antiguedad_puntos",
    "componente_deudas_valor",
    "componente_deudas_peso",
    "componente_deudas_puntos",
    "componente_ahorro_valor",
    "componente_ahorro_peso",
    "componente_ahorro_puntos",
    "componente_salud_financiera_valor",
    "componente_salud_financiera_peso",
    "componente_salud_financiera_puntos",
];

fn numeric_row(r: &ScoreReport) -> [Decimal; NUMERIC_USED] {
    let c = &r.capacidad_compra_estimada;
    let s = &r.salud_financiera;
    let k = &r.componentes;
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
        s.score,
        s.costo_vida_digno,
        s.ingreso_disponible,
        s.ratio,
        k.ingreso.valor,
        k.ingreso.peso,
        k.ingreso.puntos,
        k.tipo_ingreso.valor,
        k.tipo_ingreso.peso,
        k.tipo_ingreso.puntos,
        k.antiguedad.valor,
        k.antiguedad.peso,
        k.antiguedad.puntos,
        k.deudas.valor,
        k.deudas.peso,
        k.deudas.puntos,
        k.ahorro.valor,
        k.ahorro.peso,
        k.ahorro.puntos,
        k.salud_financiera.valor,
        k.salud_financiera.peso,
        k.salud_financiera.puntos,
    ]
}

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

/// Per-row results of the frame path (computed without the GIL).
struct FrameRow {
    score: u16,
    plazo_anios: u32,
    nivel: i32,
    evaluacion: i32,
    estatus: i32,
    estado: i32,
    recomendaciones: String,
    numeric: [f64; NUMERIC_USED],
}

fn frame_row(columns: &[(String, Column<'_>)], row: usize) -> Result<FrameRow, CoreError> {
    let mut map = Map::new();
    for (name, column) in columns {
        let v = column.value(row)?;
        if !v.is_null() {
            map.insert(name.clone(), v);
        }
    }
    let r = score_core::score_value(&Value::Object(map))?;
    let c = &r.capacidad_compra_estimada;
    let position = |found: bool, i: usize| {
        if found {
            i32::try_from(i).unwrap_or(-1)
        } else {
            -1
        }
    };
    let nivel = NIVELES.iter().position(|n| *n == r.nivel);
    let evaluacion = EVALUACIONES.iter().position(|e| *e == c.evaluacion_m2);
    let estatus = ESTATUS.iter().position(|e| *e == c.estatus_enganche);
    let estado = score_core::State::parse(&r.estado.codigo)
        .map(|s| s.info().clave.parse::<i32>().unwrap_or(0) - 1);
    let codes: Vec<&str> = r
        .recomendaciones_detalle
        .iter()
        .map(|d| codigo_str(d.codigo))
        .collect();
    Ok(FrameRow {
        score: r.score,
        plazo_anios: c.plazo_anios,
        nivel: position(nivel.is_some(), nivel.unwrap_or(0)),
        evaluacion: position(evaluacion.is_some(), evaluacion.unwrap_or(0)),
        estatus: position(estatus.is_some(), estatus.unwrap_or(0)),
        estado: estado.unwrap_or(-1),
        recomendaciones: codes.join("|"),
        numeric: numeric_row(&r).map(to_f64),
    })
}

fn f64_bytes<'py>(
    py: Python<'py>,
    values: impl ExactSizeIterator<Item = f64>,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * 8, |buf| {
        for (chunk, v) in buf.chunks_exact_mut(8).zip(values) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    })
}

fn i64_bytes<'py>(
    py: Python<'py>,
    values: impl ExactSizeIterator<Item = i64>,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * 8, |buf| {
        for (chunk, v) in buf.chunks_exact_mut(8).zip(values) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    })
}

fn i32_bytes<'py>(
    py: Python<'py>,
    values: impl ExactSizeIterator<Item = i32>,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, values.len() * 4, |buf| {
        for (chunk, v) in buf.chunks_exact_mut(4).zip(values) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        Ok(())
    })
}

type ColumnOut<'py> = (
    &'static str,
    &'static str,
    Bound<'py, PyBytes>,
    Option<Vec<String>>,
);

/// _score_columns(n_rows, columns) -> (ok_mask, output_columns, errors)
///
/// `columns`: list of (name, kind, data, categories) with kind "f64" | "i64" | "cat" | "bool"
/// (data: little-endian bytes) or "obj" (data: a sequence of Python values).
/// Returns a uint8 mask of scored rows, a list of (name, kind, data, categories) output columns
/// and a list of (row, code, field, message) for the rows that failed.
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
    let mut parsed: Vec<(String, Column<'_>)> = Vec::with_capacity(columns.len());
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
        parsed.push((name.clone(), column));
    }
    let rows: Vec<usize> = (0..n_rows).collect();
    let results = py.detach(|| par_map(&rows, |&row| frame_row(&parsed, row)));

    let mut recs: Vec<String> = Vec::new();
    let mut rec_index: HashMap<&str, i32> = HashMap::new();
    let mut rec_codes = Vec::with_capacity(n_rows);
    let mut errors = Vec::new();
    for (row, r) in results.iter().enumerate() {
        match r {
            Ok(r) => {
                let next = i32::try_from(recs.len()).unwrap_or(i32::MAX);
                let code = *rec_index
                    .entry(r.recomendaciones.as_str())
                    .or_insert_with(|| {
                        recs.push(r.recomendaciones.clone());
                        next
                    });
                rec_codes.push(code);
            }
            Err(e) => {
                rec_codes.push(-1);
                errors.push((row, e.code.as_str(), e.field.clone(), e.message.clone()));
            }
        }
    }
    let ok = PyBytes::new_with(py, n_rows, |buf| {
        for (b, r) in buf.iter_mut().zip(&results) {
            *b = u8::from(r.is_ok());
        }
        Ok(())
    })?;
    let cat = |f: fn(&FrameRow) -> i32| results.iter().map(move |r| r.as_ref().map_or(-1, f));
    let names = |v: Vec<&'static str>| Some(v.into_iter().map(str::to_owned).collect::<Vec<_>>());
    let states: Vec<&score_core::states::StateInfo> = score_core::State::all()
        .map(score_core::State::info)
        .collect();
    let mut out: Vec<ColumnOut<'py>> = vec![
        (
            "score",
            "i64",
            i64_bytes(
                py,
                results
                    .iter()
                    .map(|r| r.as_ref().map_or(0, |r| i64::from(r.score))),
            )?,
            None,
        ),
        (
            "nivel",
            "cat",
            i32_bytes(py, cat(|r| r.nivel))?,
            names(NIVELES.iter().map(|n| nivel_str(*n)).collect()),
        ),
    ];
    for (i, name) in NUMERIC.iter().enumerate() {
        out.push((
            name,
            "f64",
            f64_bytes(
                py,
                results
                    .iter()
                    .map(|r| r.as_ref().map_or(f64::NAN, |r| r.numeric[i])),
            )?,
            None,
        ));
    }
    out.push((
        "evaluacion_m2",
        "cat",
        i32_bytes(py, cat(|r| r.evaluacion))?,
        names(EVALUACIONES.map(evaluacion_str).to_vec()),
    ));
    out.push((
        "estatus_enganche",
        "cat",
        i32_bytes(py, cat(|r| r.estatus))?,
        names(ESTATUS.map(estatus_str).to_vec()),
    ));
    out.push((
        "plazo_anios",
        "i64",
        i64_bytes(
            py,
            results
                .iter()
                .map(|r| r.as_ref().map_or(0, |r| i64::from(r.plazo_anios))),
        )?,
        None,
    ));
    out.push((
        "estado_clave",
        "cat",
        i32_bytes(py, cat(|r| r.estado))?,
        names(states.iter().map(|s| s.clave).collect()),
    ));
    out.push((
        "estado_codigo",
        "cat",
        i32_bytes(py, cat(|r| r.estado))?,
        names(states.iter().map(|s| s.iso).collect()),
    ));
    out.push((
        "estado_nombre",
        "cat",
        i32_bytes(py, cat(|r| r.estado))?,
        names(states.iter().map(|s| s.nombre).collect()),
    ));
    out.push((
        "recomendaciones_codigos",
        "cat",
        i32_bytes(py, rec_codes.into_iter())?,
        Some(recs),
    ));
    Ok((ok, out, errors))
}

/// The stable error codes of score-core, in documentation order.
fn error_codes() -> Vec<&'static str> {
    ErrorCode::ALL.iter().map(|c| c.as_str()).collect()
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(score_many, m)?)?;
    m.add_function(wrap_pyfunction!(_score_columns, m)?)?;
    m.add("ScoreError", py.get_type::<ScoreError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CORE_VERSION", score_core::VERSION)?;
    m.add("MODEL_VERSION", score_core::MODEL_VERSION)?;
    m.add("PROFILE_FIELDS", PyTuple::new(py, score_core::FIELDS)?)?;
    m.add("ERROR_CODES", PyTuple::new(py, error_codes())?)?;
    Ok(())
}
