//! The report's shape, written once for both JavaScript bindings (score-node includes this file
//! as a module; score-wasm includes it with `#[path]`).
//!
//! Building a JS object property by property across the binding boundary (napi calls, or
//! wasm-bindgen imports) costs tens of microseconds per report, and the JSON text route
//! (`to_json_string` + `JSON.parse`) spends most of its time formatting and re-parsing the
//! numbers and the Spanish texts. Instead, the [`report_layout!`] below lists every key of
//! `ScoreReport` in serde order with where its value is, and expands to two things that
//! therefore always agree:
//!
//! - [`LAYOUT`], the tree of keys, which [`builder_source`] turns, once per JS realm, into the
//!   source of a JS function that returns one object literal (`{"score": f[0], "nivel":
//!   S[f[1]], ...}`), which V8 builds at the speed of JS code;
//! - the straight-line body of [`Flat::write`], which writes each report as the flat list of
//!   doubles that function reads: the numbers (exactly the doubles score-core's JSON prints,
//!   `money::json_f64`), texts as indices into a JS array of strings created once (every text
//!   of a report is a `&'static str` from a closed set: states, levels, recommendation codes
//!   and texts, the disclaimer), and the two lists with their lengths. Straight-line code
//!   matters in WebAssembly, where an indirect call per value cost more than the values.
//!
//! A report with an owned text (score-core's model never makes one; a report read back from
//! JSON would) or more values than [`CAPACITY`] is not written: the bindings then convert it
//! through its JSON text, as they did before this path existed.
//!
//! The fixtures suite checks the result key for key and number for number against the
//! fixtures, so a key added to `ScoreReport` and missing here fails the tests.

use score_core::money::json_f64;
use score_core::{Componente, Recomendacion, ScoreReport, Text};
use std::borrow::Cow;
use std::fmt::Write as _;

/// Doubles in the `Float64Array` the builder reads: the fixed values (about 60) and two lists
/// of at most 13 recommendations (one per code) fit with room to spare.
pub(crate) const CAPACITY: usize = 256;

/// What a key of the report holds, for the builder's source.
#[derive(Debug)]
pub(crate) enum Node {
    /// A JSON number.
    Num,
    /// A string.
    Text,
    /// A nested object.
    Obj(&'static [(&'static str, Node)]),
    /// `recomendaciones`: an array of texts.
    Texts,
    /// `recomendaciones_detalle`: an array of `{codigo, texto}`.
    Detalle,
}

/// `report_layout! { r => key: kind(expression), ... }` defines [`LAYOUT`] and
/// `Out::report(&mut self, r: &ScoreReport)`, which writes the fixed values in layout order,
/// then the lists in layout order. Kinds: `num` (a `Decimal`), `whole` (an integer), `text` (a
/// `&'static str`), `cow` (a [`Text`]), `componente` (the `{valor, peso, puntos}` object of a
/// [`Componente`]), `obj { ... }` (a nested object), `texts` and `detalle` (the two lists).
macro_rules! report_layout {
    ($r:ident => $($body:tt)*) => {
        /// Every key of `ScoreReport`, in its serde (JSON) order.
        pub(crate) const LAYOUT: &[(&str, Node)] = report_layout!(@nodes $($body)*);

        impl Out<'_> {
            /// Writes the values of `$r`; `None` at an owned text or past [`CAPACITY`].
            fn report(&mut self, $r: &ScoreReport) -> Option<()> {
                report_layout!(@fixed self; $($body)*);
                report_layout!(@lists self; $($body)*);
                Some(())
            }
        }
    };

    (@nodes $($key:ident : $kind:ident $args:tt),* $(,)?) => {
        &[$((stringify!($key), report_layout!(@node $kind $args))),*]
    };
    (@node obj { $($inner:tt)* }) => { Node::Obj(report_layout!(@nodes $($inner)*)) };
    (@node componente $args:tt) => { Node::Obj(&[("valor", Node::Num), ("peso", Node::Num), ("puntos", Node::Num)]) };
    (@node num $args:tt) => { Node::Num };
    (@node whole $args:tt) => { Node::Num };
    (@node text $args:tt) => { Node::Text };
    (@node cow $args:tt) => { Node::Text };
    (@node texts $args:tt) => { Node::Texts };
    (@node detalle $args:tt) => { Node::Detalle };

    (@fixed $out:ident; $($key:ident : $kind:ident $args:tt),* $(,)?) => {
        $(report_layout!(@fixed1 $out; $kind $args);)*
    };
    (@fixed1 $out:ident; obj { $($inner:tt)* }) => { report_layout!(@fixed $out; $($inner)*) };
    (@fixed1 $out:ident; componente ($e:expr)) => { $out.componente(&$e)? };
    (@fixed1 $out:ident; num ($e:expr)) => { $out.number(json_f64($e))? };
    (@fixed1 $out:ident; whole ($e:expr)) => { $out.number(f64::from($e))? };
    (@fixed1 $out:ident; text ($e:expr)) => { $out.text($e)? };
    (@fixed1 $out:ident; cow ($e:expr)) => { $out.cow(&$e)? };
    (@fixed1 $out:ident; texts $args:tt) => {};
    (@fixed1 $out:ident; detalle $args:tt) => {};

    (@lists $out:ident; $($key:ident : $kind:ident $args:tt),* $(,)?) => {
        $(report_layout!(@lists1 $out; $kind $args);)*
    };
    (@lists1 $out:ident; obj { $($inner:tt)* }) => { report_layout!(@lists $out; $($inner)*) };
    (@lists1 $out:ident; texts ($e:expr)) => { $out.texts(&$e)? };
    (@lists1 $out:ident; detalle ($e:expr)) => { $out.detalle(&$e)? };
    (@lists1 $out:ident; $kind:ident $args:tt) => {};
}

report_layout! { r =>
    score: whole(r.score),
    nivel: text(r.nivel.as_str()),
    capacidad_compra_estimada: obj {
        valor_bancario: num(r.capacidad_compra_estimada.valor_bancario),
        valor_realista: num(r.capacidad_compra_estimada.valor_realista),
        factor_platform_v2: num(r.capacidad_compra_estimada.factor_platform_v2),
        ltv: num(r.capacidad_compra_estimada.ltv),
        pago_mensual_estimado: num(r.capacidad_compra_estimada.pago_mensual_estimado),
        credito_max: num(r.capacidad_compra_estimada.credito_max),
        m2_alcanzables: num(r.capacidad_compra_estimada.m2_alcanzables),
        m2_minimo_nucleo: num(r.capacidad_compra_estimada.m2_minimo_nucleo),
        evaluacion_m2: text(r.capacidad_compra_estimada.evaluacion_m2.as_str()),
        enganche_requerido: num(r.capacidad_compra_estimada.enganche_requerido),
        enganche_disponible: num(r.capacidad_compra_estimada.enganche_disponible),
        subcuenta_fondo_estimada: num(r.capacidad_compra_estimada.subcuenta_fondo_estimada),
        estatus_enganche: text(r.capacidad_compra_estimada.estatus_enganche.as_str()),
        renta_equivalente: num(r.capacidad_compra_estimada.renta_equivalente),
        gastos_cierre_estimados: num(r.capacidad_compra_estimada.gastos_cierre_estimados),
        tasa_anual: num(r.capacidad_compra_estimada.tasa_anual),
        plazo_anios: whole(r.capacidad_compra_estimada.plazo_anios),
        precio_m2_estado: num(r.capacidad_compra_estimada.precio_m2_estado),
    },
    salud_financiera: obj {
        score: num(r.salud_financiera.score),
        costo_vida_digno: num(r.salud_financiera.costo_vida_digno),
        ingreso_disponible: num(r.salud_financiera.ingreso_disponible),
        ratio: num(r.salud_financiera.ratio),
    },
    recomendaciones: texts(r.recomendaciones),
    disclaimer: cow(r.disclaimer),
    valor_vivienda_max: num(r.valor_vivienda_max),
    credito_max: num(r.credito_max),
    enganche_min: num(r.enganche_min),
    pago_mensual_estimado: num(r.pago_mensual_estimado),
    renta_estimada: num(r.renta_estimada),
    modelo_version: cow(r.modelo_version),
    estado: obj {
        clave: cow(r.estado.clave),
        codigo: cow(r.estado.codigo),
        nombre: cow(r.estado.nombre),
    },
    componentes: obj {
        ingreso: componente(r.componentes.ingreso),
        tipo_ingreso: componente(r.componentes.tipo_ingreso),
        antiguedad: componente(r.componentes.antiguedad),
        deudas: componente(r.componentes.deudas),
        ahorro: componente(r.componentes.ahorro),
        salud_financiera: componente(r.componentes.salud_financiera),
    },
    recomendaciones_detalle: detalle(r.recomendaciones_detalle),
}

/// The JS source of the builder, an expression: `(function (memory, at, S) { return function
/// () { ... return {...}; }; })`. Call it once with an object whose `buffer` is the
/// `ArrayBuffer` holding [`Flat`]'s values (WebAssembly's memory, or one of the binding's own),
/// their byte offset in it, and the array of cached strings; the function it returns builds
/// one report per call from the values (making its view again when WebAssembly's memory has
/// grown, which detaches it).
pub(crate) fn builder_source() -> String {
    let mut fixed = 0usize;
    let mut lists = String::new();
    let mut literal = String::new();
    object(LAYOUT, &mut fixed, &mut lists, &mut literal);
    format!(
        "(function (memory, at, S) {{ 'use strict'; var f = new Float64Array(0); \
         return function () {{ \
           if (f.length === 0) f = new Float64Array(memory.buffer, at, {CAPACITY}); \
           var j = {fixed}, n, i; {lists}return {literal}; }}; }})"
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
            Node::Num => {
                let _ = write!(out, "f[{fixed}]");
                *fixed += 1;
            }
            Node::Text => {
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

/// Index in the JS strings array of every static text seen so far, keyed by the text's address
/// and length: the texts are `&'static str`s from a closed set of about 150, so no content
/// hashing is needed. Open addressing with linear probing in a table at most half full: a
/// lookup is a multiply and usually one compare, where a general hash map's probe cost as much
/// as converting the rest of the report in WebAssembly.
#[derive(Debug, Default)]
struct TextIndex {
    /// `(address, length, index)`; address 0 marks a free slot. The length is a power of two.
    slots: Vec<(usize, usize, u32)>,
    len: usize,
}

impl TextIndex {
    fn home(&self, address: usize) -> usize {
        // Fibonacci hashing of the address; the table length is a power of two.
        (address as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(32) as usize & (self.slots.len() - 1)
    }

    /// The index of `text`, or `None` when it has none yet.
    fn get(&self, text: &'static str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mut at = self.home(text.as_ptr() as usize);
        loop {
            let (address, len, index) = self.slots[at];
            if address == text.as_ptr() as usize && len == text.len() {
                return Some(index);
            }
            if address == 0 {
                return None;
            }
            at = (at + 1) & (self.slots.len() - 1);
        }
    }

    /// Records a text that [`TextIndex::get`] does not know.
    fn insert(&mut self, text: &'static str, index: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            let size = (2 * self.slots.len()).max(256);
            let old = std::mem::replace(&mut self.slots, vec![(0, 0, 0); size]);
            self.len = 0;
            for (address, len, index) in old.into_iter().filter(|slot| slot.0 != 0) {
                self.place(address, len, index);
            }
        }
        self.place(text.as_ptr() as usize, text.len(), index);
    }

    fn place(&mut self, address: usize, len: usize, index: u32) {
        let mut at = self.home(address);
        while self.slots[at].0 != 0 {
            at = (at + 1) & (self.slots.len() - 1);
        }
        self.slots[at] = (address, len, index);
        self.len += 1;
    }

    /// Forgets every text whose index is `from` or later.
    fn truncate(&mut self, from: u32) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![(0, 0, 0); old.len()];
        self.len = 0;
        for (address, len, index) in old.into_iter().filter(|slot| slot.0 != 0 && slot.2 < from) {
            self.place(address, len, index);
        }
    }
}

/// The static texts sent to the JS side: their index in the binding's JS strings array.
#[derive(Debug, Default)]
pub(crate) struct Texts {
    cache: TextIndex,
    /// Texts the binding must append to its JS strings array (in order) before JS reads an
    /// index handed out since.
    pub(crate) pending: Vec<&'static str>,
}

impl Texts {
    /// The index of a text in the JS strings array.
    pub(crate) fn index(&mut self, s: &'static str) -> u32 {
        if let Some(index) = self.cache.get(s) {
            return index;
        }
        // Every text in `pending` is already in `cache`.
        #[allow(clippy::cast_possible_truncation)] // a few hundred texts
        let index = self.cache.len as u32;
        self.cache.insert(s, index);
        self.pending.push(s);
        index
    }
}

/// Flat values of one report and the string cache, kept per JS realm by the binding.
#[derive(Debug)]
pub(crate) struct Flat {
    /// The doubles of the last report written: fixed values, then the lists. Boxed, so that
    /// their address never changes (score-wasm's builder reads them in place).
    values: Box<[f64; CAPACITY]>,
    len: usize,
    /// The texts, shared with score-wasm's JSON text (`ScoreReport::write_json_with_texts`).
    pub(crate) texts: Texts,
}

impl Default for Flat {
    fn default() -> Flat {
        Flat { values: Box::new([0.0; CAPACITY]), len: 0, texts: Texts::default() }
    }
}

impl Flat {
    /// Writes `report` (and its new texts into `texts.pending`); `false`, with nothing new
    /// cached, when the report has an owned text or does not fit in [`CAPACITY`].
    pub(crate) fn write(&mut self, report: &ScoreReport) -> bool {
        let cached = self.texts.cache.len;
        let pending = self.texts.pending.len();
        let mut out = Out { values: &mut self.values, len: 0, texts: &mut self.texts };
        let written = out.report(report).is_some();
        self.len = if written { out.len } else { 0 };
        if !written {
            // Forget the texts the JS side has not received.
            #[allow(clippy::cast_possible_truncation)] // a few hundred texts
            self.texts.cache.truncate(cached as u32);
            self.texts.pending.truncate(pending);
        }
        written
    }

    /// The doubles of the last report written.
    #[allow(dead_code)] // score-node copies them out; score-wasm's builder reads `buffer`
    pub(crate) fn values(&self) -> &[f64] {
        &self.values[..self.len]
    }

    /// The whole buffer of [`CAPACITY`] doubles, which never moves.
    #[allow(dead_code)] // score-wasm's builder reads it in place; score-node copies `values`
    pub(crate) fn buffer(&self) -> &[f64] {
        &self.values[..]
    }
}

/// A report being written into [`Flat`] (the methods the layout's writer calls).
struct Out<'a> {
    values: &'a mut [f64; CAPACITY],
    len: usize,
    texts: &'a mut Texts,
}

impl Out<'_> {
    #[inline]
    fn number(&mut self, value: f64) -> Option<()> {
        *self.values.get_mut(self.len)? = value;
        self.len += 1;
        Some(())
    }

    fn componente(&mut self, k: &Componente) -> Option<()> {
        self.number(json_f64(k.valor))?;
        self.number(json_f64(k.peso))?;
        self.number(json_f64(k.puntos))
    }

    fn text(&mut self, s: &'static str) -> Option<()> {
        let index = self.texts.index(s);
        self.number(f64::from(index))
    }

    fn cow(&mut self, text: &Text) -> Option<()> {
        match text {
            Cow::Borrowed(s) => self.text(s),
            Cow::Owned(_) => None,
        }
    }

    fn texts(&mut self, texts: &[Text]) -> Option<()> {
        #[allow(clippy::cast_precision_loss)] // a handful
        self.number(texts.len() as f64)?;
        texts.iter().try_for_each(|t| self.cow(t))
    }

    fn detalle(&mut self, items: &[Recomendacion]) -> Option<()> {
        #[allow(clippy::cast_precision_loss)] // a handful
        self.number(items.len() as f64)?;
        items.iter().try_for_each(|item| {
            self.text(item.codigo.as_str())?;
            self.cow(&item.texto)
        })
    }
}

// Run by score-wasm's `cargo test` (score-wasm/scripts/test.sh), which includes this file.
#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> ScoreReport {
        let profile = score_core::Profile::from_json_str(
            r#"{"estado":"YUC","ingreso_mensual":21000,"tipo_ingreso":"independiente","antiguedad_meses":30}"#,
        )
        .expect("a valid profile");
        score_core::score(&profile).expect("it scores")
    }

    /// The `&'static str` of a report's text (a literal in the test could be another copy).
    fn borrowed(text: &Text) -> &'static str {
        match text {
            Cow::Borrowed(s) => s,
            Cow::Owned(_) => panic!("the model writes static texts"),
        }
    }

    #[test]
    fn texts_get_one_index_each_in_order() {
        let (mut flat, r) = (Flat::default(), report());
        let (state, disclaimer) = (borrowed(&r.estado.codigo), borrowed(&r.disclaimer));
        assert!(flat.write(&r));
        let sent: Vec<&str> = std::mem::take(&mut flat.texts.pending);
        assert!(sent.contains(&state) && sent.contains(&disclaimer));
        // The same report again: every text is known, nothing new to send, the same values.
        let values = flat.values().to_vec();
        assert!(flat.write(&r));
        assert!(flat.texts.pending.is_empty());
        assert_eq!(flat.values(), &values[..]);
        assert_eq!(flat.values()[0], f64::from(r.score));
        // Many more texts than the table's first size: all found again after it grows.
        let many: Vec<&'static str> = (0..1000).map(|i| &*Box::leak(format!("texto {i}").into_boxed_str())).collect();
        let indices: Vec<u32> = many.iter().map(|t| flat.texts.index(t)).collect();
        let first = sent.len() as u32;
        assert_eq!(indices, (first..first + 1000).collect::<Vec<_>>());
        assert!(many.iter().zip(&indices).all(|(t, i)| flat.texts.index(t) == *i));
        assert_eq!(Some(flat.texts.index(disclaimer) as usize), sent.iter().position(|t| *t == disclaimer));
    }

    #[test]
    fn a_report_with_an_owned_text_is_refused_and_caches_nothing() {
        let (mut flat, r) = (Flat::default(), report());
        let mut odd = r.clone();
        odd.recomendaciones.push("un texto propio".to_owned().into());
        assert!(!flat.write(&odd));
        assert!(flat.texts.pending.is_empty() && flat.values().is_empty());
        // Nothing was half-cached: the ordinary report then sends all its texts from index 0.
        assert!(flat.write(&r));
        let state = borrowed(&r.estado.codigo);
        assert_eq!(Some(flat.texts.index(state) as usize), flat.texts.pending.iter().position(|t| *t == state));
        assert_eq!(flat.texts.pending.first(), Some(&r.nivel.as_str()));
    }

    #[test]
    fn the_builder_reads_every_value_written() {
        // The builder's fixed values, then the two lists with their lengths.
        let source = builder_source();
        let fixed = source.matches("f[").count() - source.matches("f[j").count();
        let mut flat = Flat::default();
        let r = report();
        assert!(flat.write(&r));
        let lists = 1 + r.recomendaciones.len() + 1 + 2 * r.recomendaciones_detalle.len();
        assert_eq!(flat.values().len(), fixed + lists);
    }
}
