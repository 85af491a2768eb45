//! A report as the flat values the generated object builder reads (`makeReportBuilder` in the
//! helper module, [`crate::helpers`]): [`Flat`] is a [`ReportSink`] of score-core's one walk
//! over the report. Numbers are exactly the doubles score-core's JSON prints
//! (`money::json_f64`); texts and labels are indices into a JS array of strings the realm keeps
//! (every text the model writes is a `&'static str` from a closed set: states, levels,
//! recommendation codes and texts, the disclaimer). The values outside arrays come first, in
//! walk order (the builder reads them at constant offsets), then each array as its length and
//! its items' values.
//!
//! A report with an owned text (score-core's model never makes one; a report read back from
//! JSON would) or more values than [`CAPACITY`] is not written: the bindings then convert it
//! through its JSON text.

use score_core::money::json_f64;
use score_core::{Label, ReportSink, ScoreReport, Slot, Text, ValorCampo};
use std::borrow::Cow;
/// Doubles in the `Float64Array` the builder reads: the fixed values (56) and the lists at their
/// longest (13 recommendations, one per code, twice; the verdict's reasons; four simulations,
/// one adding a co-borrower's four fields; five products with their reasons), about 270, fit
/// with room to spare.
pub const CAPACITY: usize = 384;

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
pub struct Texts {
    cache: TextIndex,
    /// Texts the binding must append to its JS strings array (in order) before JS reads an
    /// index handed out since.
    pub pending: Vec<&'static str>,
}

impl Texts {
    /// The index of a text in the JS strings array.
    pub fn index(&mut self, s: &'static str) -> u32 {
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

/// A report's `calibracion` when it is a loaded calibration's id (an owned text, which the flat
/// values do not carry: they index the model's static texts), taken out with score-core's own
/// id put in its place, so that the report still goes through the report builder; the binding
/// puts it back in the report and sets it on the built object.
pub fn take_calibration_id(report: &mut ScoreReport) -> Option<String> {
    match std::mem::replace(&mut report.calibracion, Cow::Borrowed(score_core::CALIBRATION)) {
        Cow::Owned(id) => Some(id),
        Cow::Borrowed(id) => {
            report.calibracion = Cow::Borrowed(id);
            None
        }
    }
}

/// Flat values of one report and the string cache, kept per JS realm by the binding.
#[derive(Debug)]
pub struct Flat {
    /// The doubles of the last report written: fixed values, then the arrays. Boxed, so that
    /// their address never changes (score-wasm's builder reads them in place).
    values: Box<[f64; CAPACITY]>,
    len: usize,
    /// The arrays' values of the report being written (moved after the fixed values at the end).
    lists: Vec<f64>,
    /// The texts, shared with score-wasm's JSON text (`ScoreReport::write_json_with_texts`).
    pub texts: Texts,
}

impl Default for Flat {
    fn default() -> Flat {
        Flat { values: Box::new([0.0; CAPACITY]), len: 0, lists: Vec::with_capacity(64), texts: Texts::default() }
    }
}

impl Flat {
    /// Writes `report` (and its new texts into `texts.pending`); `false`, with nothing new
    /// cached, when the report has an owned text or does not fit in [`CAPACITY`].
    pub fn write(&mut self, report: &ScoreReport) -> bool {
        let cached = self.texts.cache.len;
        let pending = self.texts.pending.len();
        self.lists.clear();
        let mut out = Out { flat: self, fixed: 0, depth: 0, ok: true };
        report.walk(&mut out);
        let (fixed, ok) = (out.fixed, out.ok);
        let len = fixed + self.lists.len();
        if ok && len <= CAPACITY {
            self.values[fixed..len].copy_from_slice(&self.lists);
            self.len = len;
            return true;
        }
        // Forget the texts the JS side has not received.
        self.len = 0;
        #[allow(clippy::cast_possible_truncation)] // a few hundred texts
        self.texts.cache.truncate(cached as u32);
        self.texts.pending.truncate(pending);
        false
    }

    /// The doubles of the last report written.
    pub fn values(&self) -> &[f64] {
        &self.values[..self.len]
    }

    /// The whole buffer of [`CAPACITY`] doubles, which never moves.
    pub fn buffer(&self) -> &[f64] {
        &self.values[..]
    }
}

/// A report being written into [`Flat`]: values outside arrays in place, array values aside.
struct Out<'a> {
    flat: &'a mut Flat,
    fixed: usize,
    /// Open arrays around the current value.
    depth: u32,
    /// False once a value could not be written (an owned text, or past [`CAPACITY`]).
    ok: bool,
}

impl Out<'_> {
    #[inline(always)]
    fn push(&mut self, value: f64) {
        if self.depth > 0 {
            self.flat.lists.push(value);
        } else if let Some(slot) = self.flat.values.get_mut(self.fixed) {
            *slot = value;
            self.fixed += 1;
        } else {
            self.ok = false;
        }
    }

    #[inline(always)]
    fn static_text(&mut self, text: &'static str) {
        let index = self.flat.texts.index(text);
        self.push(f64::from(index));
    }
}

impl ReportSink for Out<'_> {
    #[inline(always)]
    fn begin_object(&mut self, _: Slot) {}
    #[inline(always)]
    fn end_object(&mut self) {}
    #[inline(always)]
    fn begin_array(&mut self, _: Slot, len: usize) {
        self.depth += 1;
        #[allow(clippy::cast_precision_loss)] // a handful
        self.push(len as f64);
    }
    #[inline(always)]
    fn end_array(&mut self) {
        self.depth -= 1;
    }
    #[inline(always)]
    fn integer(&mut self, _: Slot, value: u64) {
        #[allow(clippy::cast_precision_loss)] // a score or a term in years
        self.push(value as f64);
    }
    #[inline(always)]
    fn boolean(&mut self, _: Slot, value: bool) {
        self.push(f64::from(u8::from(value)));
    }
    #[inline(always)]
    fn decimal(&mut self, _: Slot, value: rust_decimal::Decimal) {
        self.push(json_f64(value));
    }
    #[inline(always)]
    fn label(&mut self, _: Slot, value: Label) {
        self.static_text(value.as_str());
    }
    /// A tag first (0 `null`, 1 a figure, 2 a name), since a figure and a name's index are both
    /// doubles; then the value, `NaN` for `null` (the builder reads two doubles either way).
    #[inline(always)]
    fn valor_campo(&mut self, _: Slot, value: Option<ValorCampo>) {
        match value {
            None => {
                self.push(0.0);
                self.push(f64::NAN);
            }
            Some(ValorCampo::Numero(n)) => {
                self.push(1.0);
                self.push(json_f64(n));
            }
            Some(ValorCampo::TipoIngreso(t)) => {
                self.push(2.0);
                self.static_text(t.as_str());
            }
        }
    }
    #[inline(always)]
    fn null(&mut self, _: Slot) {
        // The generated builder reads a NaN of a nullable key as `null`.
        self.push(f64::NAN);
    }
    #[inline(always)]
    fn text(&mut self, _: Slot, value: &Text) {
        match value {
            Cow::Borrowed(text) => self.static_text(text),
            Cow::Owned(_) => self.ok = false,
        }
    }
}

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
        // Bit for bit: a `null` is a NaN.
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(flat.values()), bits(&values));
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
        // The builder's fixed values, then the four lists with their lengths (a simulation's
        // `cambios` inside its item).
        let source = crate::helpers::report_builder_source();
        let fixed = source.matches("f[").count() - source.matches("f[j").count();
        let mut flat = Flat::default();
        let r = report();
        assert!(flat.write(&r));
        // Each change: its field, then a tag and a value for `antes` and for `despues`.
        let simulaciones: usize = r.simulaciones.iter().map(|s| 7 + 5 * s.cambios.len()).sum();
        assert!(!r.simulaciones.is_empty(), "the probe report has simulations");
        // Eleven values and the length of `motivos` per product, then its codes.
        let productos: usize = r.productos.iter().map(|o| 12 + o.motivos.len()).sum();
        let lists = 1
            + r.recomendaciones.len()
            + 1
            + 2 * r.recomendaciones_detalle.len()
            + 1
            + 2 * r.dictamen.motivos.len()
            + 1
            + simulaciones
            + 1
            + productos;
        assert_eq!(flat.values().len(), fixed + lists);
    }
}
