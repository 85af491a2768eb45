//! The report's shape, written once for both JavaScript bindings (score-node includes this file
//! as a module; score-wasm includes it with `#[path]`).
//!
//! Building a JS object property by property across the binding boundary (napi calls, or
//! wasm-bindgen imports) costs tens of microseconds per report, and the JSON text route
//! (`to_json_string` + `JSON.parse`) spends most of its time formatting and re-parsing the
//! numbers and the Spanish texts. Instead, [`LAYOUT`] lists every key of `ScoreReport` in
//! serde order with how to read its value, and:
//!
//! - [`builder_source`] turns it, once per JS realm, into the source of a JS function that
//!   returns one object literal (`{"score": f[0], "nivel": S[f[1]], ...}`), which V8 builds at
//!   the speed of JS code;
//! - [`Flat::write`] turns each report into the flat list of doubles that function reads: the
//!   numbers (exactly the doubles score-core's JSON prints, `money::json_f64`), texts as
//!   indices into a JS array of strings created once
//!   (every text of a report is a `&'static str` from a closed set: states, levels,
//!   recommendation codes and texts, the disclaimer), and the two lists with their lengths.
//!
//! A report with an owned text (score-core's model never makes one; a report read back from
//! JSON would) or more values than [`CAPACITY`] is not written: the bindings then convert it
//! through its JSON text, as they did before this path existed.
//!
//! The fixtures suite checks the result key for key and number for number against the
//! fixtures, so a key added to `ScoreReport` and missing here fails the tests.

use rust_decimal::Decimal;
use score_core::{ScoreReport, Text};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};

/// Doubles in the `Float64Array` the builder reads: the fixed values (about 60) and two lists
/// of at most 13 recommendations (one per code) fit with room to spare.
pub(crate) const CAPACITY: usize = 256;

/// A text of the report: `None` when it is owned rather than `&'static`.
type Str = Option<&'static str>;

fn of(text: &Text) -> Str {
    match text {
        Cow::Borrowed(s) => Some(s),
        Cow::Owned(_) => None,
    }
}

/// How to read one value of the report.
#[derive(Debug)]
pub(crate) enum Node {
    /// A JSON number.
    Num(fn(&ScoreReport) -> f64),
    /// A string.
    Text(fn(&ScoreReport) -> Str),
    /// A nested object.
    Obj(&'static [(&'static str, Node)]),
    /// `recomendaciones`: an array of texts.
    Texts,
    /// `recomendaciones_detalle`: an array of `{codigo, texto}`.
    Detalle,
}

/// The double score-core's JSON prints for a decimal, as `JSON.parse` would read it.
fn num(d: Decimal) -> f64 {
    score_core::money::json_f64(d)
}

macro_rules! componente {
    ($name:ident) => {
        (
            stringify!($name),
            Node::Obj(&[
                ("valor", Node::Num(|r| num(r.componentes.$name.valor))),
                ("peso", Node::Num(|r| num(r.componentes.$name.peso))),
                ("puntos", Node::Num(|r| num(r.componentes.$name.puntos))),
            ]),
        )
    };
}

macro_rules! capacidad {
    ($name:ident) => {
        (
            stringify!($name),
            Node::Num(|r| num(r.capacidad_compra_estimada.$name)),
        )
    };
}

/// Every key of `ScoreReport`, in its serde (JSON) order.
pub(crate) const LAYOUT: &[(&str, Node)] = &[
    ("score", Node::Num(|r| f64::from(r.score))),
    ("nivel", Node::Text(|r| Some(r.nivel.as_str()))),
    (
        "capacidad_compra_estimada",
        Node::Obj(&[
            capacidad!(valor_bancario),
            capacidad!(valor_realista),
            capacidad!(factor_platform_v2),
            capacidad!(ltv),
            capacidad!(pago_mensual_estimado),
            capacidad!(credito_max),
            capacidad!(m2_alcanzables),
            capacidad!(m2_minimo_nucleo),
            (
                "evaluacion_m2",
                Node::Text(|r| Some(r.capacidad_compra_estimada.evaluacion_m2.as_str())),
            ),
            capacidad!(enganche_requerido),
            capacidad!(enganche_disponible),
            capacidad!(subcuenta_fondo_estimada),
            (
                "estatus_enganche",
                Node::Text(|r| Some(r.capacidad_compra_estimada.estatus_enganche.as_str())),
            ),
            capacidad!(renta_equivalente),
            capacidad!(gastos_cierre_estimados),
            capacidad!(tasa_anual),
            (
                "plazo_anios",
                Node::Num(|r| f64::from(r.capacidad_compra_estimada.plazo_anios)),
            ),
            capacidad!(precio_m2_estado),
        ]),
    ),
    (
        "salud_financiera",
        Node::Obj(&[
            ("score", Node::Num(|r| num(r.salud_financiera.score))),
            (
                "costo_vida_digno",
                Node::Num(|r| num(r.salud_financiera.costo_vida_digno)),
            ),
            (
                "ingreso_disponible",
                Node::Num(|r| num(r.salud_financiera.ingreso_disponible)),
            ),
            ("ratio", Node::Num(|r| num(r.salud_financiera.ratio))),
        ]),
    ),
    ("recomendaciones", Node::Texts),
    ("disclaimer", Node::Text(|r| of(&r.disclaimer))),
    (
        "valor_vivienda_max",
        Node::Num(|r| num(r.valor_vivienda_max)),
    ),
    ("credito_max", Node::Num(|r| num(r.credito_max))),
    ("enganche_min", Node::Num(|r| num(r.enganche_min))),
    (
        "pago_mensual_estimado",
        Node::Num(|r| num(r.pago_mensual_estimado)),
    ),
    ("renta_estimada", Node::Num(|r| num(r.renta_estimada))),
    ("modelo_version", Node::Text(|r| of(&r.modelo_version))),
    (
        "estado",
        Node::Obj(&[
            ("clave", Node::Text(|r| of(&r.estado.clave))),
            ("codigo", Node::Text(|r| of(&r.estado.codigo))),
            ("nombre", Node::Text(|r| of(&r.estado.nombre))),
        ]),
    ),
    (
        "componentes",
        Node::Obj(&[
            componente!(ingreso),
            componente!(tipo_ingreso),
            componente!(antiguedad),
            componente!(deudas),
            componente!(ahorro),
            componente!(salud_financiera),
        ]),
    ),
    ("recomendaciones_detalle", Node::Detalle),
];

/// The JS source of the builder, an expression: `(function (f, S) { return function () {
/// ... return {...}; }; })`. Call it once with the `Float64Array` of [`CAPACITY`] doubles the
/// reports are written to and the array of cached strings; the function it returns builds one
/// report per call from the values in `f`.
pub(crate) fn builder_source() -> String {
    let mut fixed = 0usize;
    let mut lists = String::new();
    let mut literal = String::new();
    object(LAYOUT, &mut fixed, &mut lists, &mut literal);
    format!(
        "(function (f, S) {{ 'use strict'; \
         return function () {{ var j = {fixed}, n, i; {lists}return {literal}; }}; }})"
    )
}

fn object(fields: &[(&str, Node)], fixed: &mut usize, lists: &mut String, out: &mut String) {
    out.push('{');
    for (i, (key, node)) in fields.iter().enumerate() {
        debug_assert!(
            key.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        );
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "\"{key}\":");
        match node {
            Node::Num(_) => {
                let _ = write!(out, "f[{fixed}]");
                *fixed += 1;
            }
            Node::Text(_) => {
                let _ = write!(out, "S[f[{fixed}]]");
                *fixed += 1;
            }
            Node::Obj(inner) => object(inner, fixed, lists, out),
            // The lists follow the fixed values, in layout order, each length first.
            Node::Texts => {
                let _ = write!(out, "{key}");
                let _ = write!(
                    lists,
                    "var {key} = []; for (n = f[j++], i = 0; i < n; i++) {key}.push(S[f[j++]]); "
                );
            }
            Node::Detalle => {
                let _ = write!(out, "{key}");
                let _ = write!(
                    lists,
                    "var {key} = []; for (n = f[j++], i = 0; i < n; i++) {{ {key}.push({{\"codigo\": S[f[j]], \"texto\": S[f[j + 1]]}}); j += 2; }} "
                );
            }
        }
    }
    out.push('}');
}

/// `Hasher` for addresses: the string cache is keyed by `(address, length)` of `&'static`
/// texts, which need no content hashing.
#[derive(Debug, Default)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Flat values of one report and the string cache, kept per JS realm by the binding.
#[derive(Debug, Default)]
pub(crate) struct Flat {
    /// The doubles of the last report written: fixed values, then the lists.
    pub(crate) values: Vec<f64>,
    lists: Vec<f64>,
    /// Index in the JS strings array of every static text seen so far.
    cache: HashMap<(usize, usize), u32, BuildHasherDefault<AddrHasher>>,
    /// Static texts the binding must append to its JS strings array (in order) before calling
    /// the builder.
    pub(crate) pending: Vec<&'static str>,
}

impl Flat {
    /// Writes `report` into `values` (and its new texts into `pending`); `false`, with nothing
    /// new cached, when the report has an owned text or does not fit in [`CAPACITY`].
    pub(crate) fn write(&mut self, report: &ScoreReport) -> bool {
        self.values.clear();
        self.lists.clear();
        let cached = self.cache.len();
        let ok = self.fields(LAYOUT, report).is_some()
            && self.values.len() + self.lists.len() <= CAPACITY;
        if !ok {
            // Forget the texts the JS side has not received.
            self.cache.retain(|_, i| (*i as usize) < cached);
            self.pending.clear();
            return false;
        }
        self.values.append(&mut self.lists);
        true
    }

    fn fields(&mut self, fields: &[(&str, Node)], r: &ScoreReport) -> Option<()> {
        for (_, node) in fields {
            match node {
                Node::Num(get) => self.values.push(get(r)),
                Node::Text(get) => {
                    let v = self.text(get(r)?);
                    self.values.push(v);
                }
                Node::Obj(inner) => self.fields(inner, r)?,
                Node::Texts => {
                    self.lists.push(r.recomendaciones.len() as f64);
                    for t in &r.recomendaciones {
                        let v = self.text(of(t)?);
                        self.lists.push(v);
                    }
                }
                Node::Detalle => {
                    self.lists.push(r.recomendaciones_detalle.len() as f64);
                    for d in &r.recomendaciones_detalle {
                        let c = self.text(d.codigo.as_str());
                        let t = self.text(of(&d.texto)?);
                        self.lists.extend([c, t]);
                    }
                }
            }
        }
        Some(())
    }

    /// The index of a text in the JS strings array.
    fn text(&mut self, s: &'static str) -> f64 {
        // Every text in `pending` is already in `cache`.
        let next = self.cache.len() as u32;
        let index = *self
            .cache
            .entry((s.as_ptr() as usize, s.len()))
            .or_insert_with(|| {
                self.pending.push(s);
                next
            });
        f64::from(index)
    }
}
