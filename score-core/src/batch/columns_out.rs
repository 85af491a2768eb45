//! A report flattened into columns, driven by the report's walk: which values become columns
//! and under which names is decided here, once, by the kind of value and the object it is in;
//! the keys, their order and their types come from the walk. The same [`Flatten`] sink lists
//! the columns ([`layout`]) and writes a report's row ([`RowWriter`]), so the two cannot
//! disagree.
//!
//! The flattening (what `score_frame` returns): `score` and `nivel`; every value of
//! `capacidad_compra_estimada` under its own name; `salud_financiera_<key>`;
//! `estado_<key>` (categories: the 32 states, coded by state); `componente_<name>_<key>`; and
//! `recomendaciones_codigos`, the recommendation codes joined by `|`; `dictamen_precalifica`
//! (1 or 0) and `dictamen_condicion`. The legacy amounts (equal to capacity values), the
//! texts, `recomendaciones` (the texts of the codes), `simulaciones` (a list of what-ifs per
//! row: score those profiles to get their columns) and the credit products (`productos`, an
//! offer per product of the calibration, and `producto_recomendado`: `score` and `score_many` give them) are left
//! out, and a frame does not compute them (`Opciones`), so its rows cost the score alone.

use crate::report::Text;
use crate::states::{STATES, State};
use crate::walk::{Label, ReportSink, Slot, keys};
use crate::{CodigoRecomendacion, ScoreReport};
use rust_decimal::Decimal;

/// How a column's rows are stored (little-endian).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// 64-bit integers (0 in a failed row).
    I64,
    /// Doubles, the value a JSON reader gets (NaN in a failed row).
    F64,
    /// 32-bit category codes into the column's categories (-1: none).
    Cat,
    /// `recomendaciones_codigos` while scoring: a 64-bit key per row ([`pack_codes`]), turned
    /// into categories by [`Categories`] once every row is scored.
    Codes,
    /// Text, null where absent: the error field and message ([`super::TableSpec`]), which the
    /// host fills from the failed rows (never written while scoring).
    Text,
    /// An input column carried through untouched, of the input's own type ([`super::TableSpec`]);
    /// never written while scoring.
    Kept,
}

impl Kind {
    /// Bytes a row takes while scoring (0: the host fills the column).
    pub const fn width(self) -> usize {
        match self {
            Kind::I64 | Kind::F64 | Kind::Codes => 8,
            Kind::Cat => 4,
            Kind::Text | Kind::Kept => 0,
        }
    }

    /// The kind a host sees once the codes are categories ("i64", "f64", "cat", "str", "kept").
    pub const fn host_name(self) -> &'static str {
        match self {
            Kind::I64 => "i64",
            Kind::F64 => "f64",
            Kind::Cat | Kind::Codes => "cat",
            Kind::Text => "str",
            Kind::Kept => "kept",
        }
    }
}

/// An output column: name, kind and, for categories known up front, their names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutColumn {
    /// The column's name.
    pub name: String,
    /// How its rows are stored.
    pub kind: Kind,
    /// The names of the codes of a `Cat` column.
    pub categories: Option<Vec<&'static str>>,
}

/// A flattened value: what a column holds for one report.
#[derive(Debug, Clone, Copy)]
pub enum Leaf<'a> {
    /// An integer column.
    Int(u64),
    /// A figure column.
    Num(Decimal),
    /// A label: the code is its index.
    Code(Label),
    /// A state's clave, code or name (`which` 0, 1, 2): coded by state.
    State(Option<State>, usize, &'a Text),
    /// The recommendation codes, packed ([`pack_codes`]).
    Codes(u64),
}

/// What a [`Flatten`] hands its columns to, in column order.
pub trait Columns {
    /// The next column's value; `name` builds its name (only the layout needs it).
    fn column(&mut self, name: impl FnOnce() -> String, leaf: Leaf<'_>);
}

/// Where the walk is, as far as the flattening cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    Root,
    Capacidad,
    Salud,
    Estado,
    Componentes,
    /// A component's object, by the component's name.
    Componente(&'static str),
    Detalle,
    Dictamen,
    Skipped,
}

/// The packed codes of a sequence too long for a key (more than 15, or a code over 14).
pub const CODES_LONG: u64 = u64::MAX - 1;
/// The key of a failed row.
pub const CODES_FAILED: u64 = u64::MAX;

/// The flattening sink: decides which values become columns and names them.
#[derive(Debug)]
pub struct Flatten<C> {
    /// Where the values go.
    pub columns: C,
    open: Vec<Place>,
    state: Option<State>,
    /// The recommendation codes of the report (indices in `CodigoRecomendacion::ALL`).
    codes: Vec<u8>,
}

impl<C: Columns> Flatten<C> {
    /// A sink writing to `columns`.
    pub fn new(columns: C) -> Self {
        Flatten { columns, open: Vec::with_capacity(4), state: None, codes: Vec::new() }
    }

    fn place(&self) -> Place {
        self.open.last().copied().unwrap_or(Place::Skipped)
    }

    fn leaf(&mut self, at: Slot, leaf: Leaf<'_>) {
        let Slot::Key(key) = at else { return };
        let place = self.place();
        let column = match place {
            Place::Root => matches!(leaf, Leaf::Int(_) | Leaf::Code(_)),
            Place::Capacidad | Place::Salud | Place::Estado | Place::Componente(_) | Place::Dictamen => true,
            Place::Componentes | Place::Detalle | Place::Skipped => false,
        };
        if column {
            // One call, so that a row writer's `column` is inlined here.
            let name = move || match place {
                Place::Salud => format!("salud_financiera_{}", key.name),
                Place::Estado => format!("estado_{}", key.name),
                Place::Componente(of) => format!("componente_{of}_{}", key.name),
                Place::Dictamen => format!("dictamen_{}", key.name),
                _ => key.name.to_owned(),
            };
            self.columns.column(name, leaf);
        }
    }
}

impl<C: Columns> ReportSink for Flatten<C> {
    fn begin_object(&mut self, at: Slot) {
        let place = match (self.place(), at) {
            (_, Slot::Root) => Place::Root,
            (Place::Root, Slot::Key(k)) if k == keys::CAPACIDAD_COMPRA_ESTIMADA => Place::Capacidad,
            (Place::Root, Slot::Key(k)) if k == keys::SALUD_FINANCIERA => Place::Salud,
            (Place::Root, Slot::Key(k)) if k == keys::ESTADO => Place::Estado,
            (Place::Root, Slot::Key(k)) if k == keys::COMPONENTES => Place::Componentes,
            (Place::Root, Slot::Key(k)) if k == keys::DICTAMEN => Place::Dictamen,
            (Place::Componentes, Slot::Key(k)) => Place::Componente(k.name),
            (Place::Detalle, Slot::Item(_)) => Place::Detalle,
            _ => Place::Skipped,
        };
        self.open.push(place);
    }
    fn end_object(&mut self) {
        self.open.pop();
    }
    fn begin_array(&mut self, at: Slot, _: usize) {
        let detalle = self.place() == Place::Root && at == Slot::Key(keys::RECOMENDACIONES_DETALLE);
        if detalle {
            self.codes.clear();
        }
        self.open.push(if detalle { Place::Detalle } else { Place::Skipped });
    }
    fn end_array(&mut self) {
        if self.open.pop() == Some(Place::Detalle) {
            let key = pack_codes(&self.codes);
            self.columns.column(|| "recomendaciones_codigos".to_owned(), Leaf::Codes(key));
        }
    }
    fn integer(&mut self, at: Slot, value: u64) {
        self.leaf(at, Leaf::Int(value));
    }
    fn boolean(&mut self, at: Slot, value: bool) {
        self.leaf(at, Leaf::Int(u64::from(value)));
    }
    fn decimal(&mut self, at: Slot, value: Decimal) {
        self.leaf(at, Leaf::Num(value));
    }
    fn label(&mut self, at: Slot, value: Label) {
        if self.place() == Place::Detalle {
            // A code of the recommendations: into the sequence (its index in ALL).
            self.codes.push(u8::try_from(value.index).unwrap_or(u8::MAX));
            return;
        }
        self.leaf(at, Leaf::Code(value));
    }
    fn null(&mut self, _: Slot) {
        // The nulls of simulations and products, which are not columns.
    }
    fn label_or_null(&mut self, _: Slot, _: Option<Label>) {
        // Only `producto_recomendado`, which the columns leave out with the products.
    }
    fn text(&mut self, at: Slot, value: &Text) {
        if self.place() != Place::Estado {
            return;
        }
        let which = match at {
            Slot::Key(k) if k == keys::ES_CLAVE => {
                // The clave comes first: it identifies the state for the code and the name.
                self.state = value.parse::<u8>().ok().and_then(State::from_inegi);
                0
            }
            Slot::Key(k) if k == keys::ES_CODIGO => 1,
            _ => 2,
        };
        self.leaf(at, Leaf::State(self.state, which, value));
    }
}

/// The state index of `text` as the `which` text (clave, code, name) of a state: `state`'s
/// when it matches, else found in the table; `None` when no state has it.
pub fn state_code(state: Option<State>, which: usize, text: &str) -> Option<usize> {
    let field = |info: &crate::states::StateInfo| [info.clave, info.iso, info.nombre][which.min(2)];
    match state {
        Some(s) if field(s.info()) == text => Some(usize::from(s.inegi() - 1)),
        _ => STATES.iter().position(|info| field(info) == text),
    }
}

/// A sequence of recommendation codes (indices in [`CodigoRecomendacion::ALL`]) as a key:
/// 4 bits a code, index + 1, so that 0 ends it. At most 15 codes under 15.
pub fn pack_codes(codes: &[u8]) -> u64 {
    if codes.len() > 15 || codes.iter().any(|&c| c >= 15) {
        return CODES_LONG;
    }
    codes.iter().enumerate().fold(0, |key, (i, &c)| key | (u64::from(c) + 1) << (4 * i))
}

/// The codes of a key of [`pack_codes`].
pub fn unpack_codes(mut key: u64) -> Vec<u8> {
    let mut codes = Vec::new();
    while key & 0xf != 0 {
        codes.extend(u8::try_from((key & 0xf) - 1).ok());
        key >>= 4;
    }
    codes
}

/// Lists the columns.
#[derive(Debug, Default)]
struct Lister(Vec<OutColumn>);

impl Columns for Lister {
    fn column(&mut self, name: impl FnOnce() -> String, leaf: Leaf<'_>) {
        let states = |which: usize| STATES.iter().map(|s| [s.clave, s.iso, s.nombre][which]).collect();
        let (kind, categories) = match leaf {
            Leaf::Int(_) => (Kind::I64, None),
            Leaf::Num(_) => (Kind::F64, None),
            Leaf::Code(label) => (Kind::Cat, Some(label.all.to_vec())),
            Leaf::State(_, which, _) => (Kind::Cat, Some(states(which))),
            Leaf::Codes(_) => (Kind::Codes, None),
        };
        self.0.push(OutColumn { name: name(), kind, categories });
    }
}

/// The output columns, in order.
pub fn layout() -> Vec<OutColumn> {
    let mut flatten = Flatten::new(Lister::default());
    crate::report::schema::probe_report().walk(&mut flatten);
    flatten.columns.0
}

/// Writes row `row` of column slices (one per [`layout`] column, [`Kind::width`] bytes a row).
#[derive(Debug)]
pub struct RowWriter<'c, 'b> {
    columns: &'c mut [&'b mut [u8]],
    row: usize,
    next: usize,
}

fn put<const N: usize>(column: &mut [u8], row: usize, bytes: [u8; N]) {
    if let Some(slot) = column.get_mut(row * N..(row + 1) * N) {
        slot.copy_from_slice(&bytes);
    }
}

impl Columns for RowWriter<'_, '_> {
    #[inline]
    fn column(&mut self, _: impl FnOnce() -> String, leaf: Leaf<'_>) {
        let Some(column) = self.columns.get_mut(self.next) else { return };
        self.next += 1;
        let code = |i: Option<usize>| i.and_then(|i| i32::try_from(i).ok()).unwrap_or(-1).to_le_bytes();
        match leaf {
            Leaf::Int(v) => put(column, self.row, i64::try_from(v).unwrap_or(i64::MAX).to_le_bytes()),
            Leaf::Num(v) => put(column, self.row, crate::money::json_f64(v).to_le_bytes()),
            Leaf::Code(label) => put(column, self.row, code(Some(label.index))),
            Leaf::State(state, which, text) => put(column, self.row, code(state_code(state, which, text))),
            Leaf::Codes(key) => put(column, self.row, key.to_le_bytes()),
        }
    }
}

/// Writes reports into rows of column slices, reusing its buffers from row to row.
#[derive(Debug, Default)]
pub struct RowSink {
    open: Vec<Place>,
    codes: Vec<u8>,
}

impl RowSink {
    /// Writes `report` as row `row` of `columns`; returns the codes of its recommendations
    /// when they do not fit a key (the row holds [`CODES_LONG`]).
    pub fn write(&mut self, report: &ScoreReport, columns: &mut [&mut [u8]], row: usize) -> Option<Vec<u8>> {
        let mut flatten = Flatten::new(RowWriter { columns, row, next: 0 });
        flatten.open = std::mem::take(&mut self.open);
        flatten.codes = std::mem::take(&mut self.codes);
        report.walk(&mut flatten);
        let long = (pack_codes(&flatten.codes) == CODES_LONG).then(|| flatten.codes.clone());
        (self.open, self.codes) = (flatten.open, flatten.codes);
        self.open.clear();
        long
    }

    /// Writes the null row: integers 0 (masked by the row mask), figures NaN, codes -1.
    pub fn write_failed(layout: &[OutColumn], columns: &mut [&mut [u8]], row: usize) {
        for (column, out) in columns.iter_mut().zip(layout) {
            match out.kind {
                Kind::I64 => put(column, row, 0i64.to_le_bytes()),
                Kind::F64 => put(column, row, f64::NAN.to_le_bytes()),
                Kind::Cat => put(column, row, (-1i32).to_le_bytes()),
                Kind::Codes => put(column, row, CODES_FAILED.to_le_bytes()),
                Kind::Text | Kind::Kept => {}
            }
        }
    }
}

/// Turns the packed keys of `recomendaciones_codigos` into category codes: one category per
/// distinct sequence (codes joined by `|`), in order of first appearance.
#[derive(Debug, Default)]
pub struct Categories {
    /// The category names so far.
    pub names: Vec<String>,
    packed: std::collections::HashMap<u64, i32>,
    unpacked: std::collections::HashMap<Vec<u8>, i32>,
    last: Option<(u64, i32)>,
}

impl Categories {
    fn category(&mut self, codes: Vec<u8>) -> i32 {
        let next = i32::try_from(self.names.len()).unwrap_or(i32::MAX);
        let names = &mut self.names;
        *self.unpacked.entry(codes).or_insert_with_key(|codes| {
            let texts: Vec<&str> = codes
                .iter()
                .filter_map(|&i| CodigoRecomendacion::ALL.get(usize::from(i)))
                .map(|c| c.as_str())
                .collect();
            names.push(texts.join("|"));
            next
        })
    }

    /// The category code of a row's key; `long` gives the codes of a [`CODES_LONG`] row.
    pub fn code(&mut self, key: u64, long: impl FnOnce() -> Option<Vec<u8>>) -> i32 {
        if let Some((k, v)) = self.last {
            if k == key {
                return v;
            }
        }
        match key {
            CODES_FAILED => -1,
            CODES_LONG => long().map_or(-1, |codes| self.category(codes)),
            _ => {
                let value = match self.packed.get(&key) {
                    Some(v) => *v,
                    None => {
                        let v = self.category(unpack_codes(key));
                        self.packed.insert(key, v);
                        v
                    }
                };
                self.last = Some((key, value));
                value
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_has_the_documented_columns() {
        let layout = layout();
        assert_eq!(layout.len(), 48);
        let names: Vec<&str> = layout.iter().map(|c| c.name.as_str()).collect();
        for name in ["score", "nivel", "valor_realista", "plazo_anios", "salud_financiera_ratio", "estado_codigo",
            "componente_salud_financiera_puntos", "recomendaciones_codigos", "dictamen_precalifica", "dictamen_condicion"] {
            assert!(names.contains(&name), "{name}");
        }
        assert_eq!(layout.iter().filter(|c| c.kind == Kind::F64).count(), 37);
    }

    #[test]
    fn codes_pack_and_unpack() {
        for codes in [vec![], vec![0], vec![12, 0, 3], vec![14; 15]] {
            assert_eq!(unpack_codes(pack_codes(&codes)), codes);
        }
        assert_eq!(pack_codes(&[15]), CODES_LONG);
        assert_eq!(pack_codes(&[1; 16]), CODES_LONG);
    }
}
