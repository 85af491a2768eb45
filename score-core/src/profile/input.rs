//! A fast way in for profiles made of plain values, shared by every surface.
//!
//! Bindings (Python dicts and DataFrame columns, JavaScript objects) and the JSON text reader
//! see a profile as its named values ([`FIELDS`]). When every value is plain (a number, a text, or
//! absent), [`Cells::profile`] builds the [`Profile`] straight from them, skipping the
//! `serde_json::Value` that [`Profile::from_json_value`] walks. Anything else (an unknown key,
//! a boolean, a nested value, a text where a number belongs, an unknown state) makes it return
//! `None`, and the caller asks the JSON reader, which reports the exact error. So the fast path
//! decides nothing on its own: it only accepts what the JSON reader accepts, with the same
//! result, and [`crate::score`] validates ranges on both paths with the same code.
//!
//! A JSON text is read here without serde_json ([`crate::json_text`]), each number from its
//! digits ([`money::from_json_literal`]), never through a binary double, and a co-borrower
//! object of plain values with it. A text it leaves to the JSON value reader (one with
//! escapes, or an error) gets the same digits through [`digits_of_json`].

use crate::money;
use crate::profile::{COACREDITADO_FIELDS, Coacreditado, FIELDS, IncomeType, Institucion, Profile};
use crate::states::State;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use crate::json_text::Scanner;
use std::borrow::Cow;

/// One profile value as a binding or a JSON reader sees it, before validation.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Cell<'a> {
    /// Absent or null (bindings also map their own "missing", such as NaN in a DataFrame).
    #[default]
    Absent,
    /// A whole number.
    Int(i64),
    /// A finite double (read as the decimal a person wrote, like a JSON double).
    Float(f64),
    /// A text.
    Str(Cow<'a, str>),
    /// A number of a JSON text, read from the digits written.
    Exact(Decimal),
}

impl Cell<'_> {
    fn text(&self) -> Option<&str> {
        match self {
            Cell::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The amount the JSON reader reads from the same number.
    fn decimal(&self) -> Option<Decimal> {
        match *self {
            Cell::Int(i) => Some(Decimal::from(i)),
            Cell::Float(f) => money::from_f64(f),
            Cell::Exact(d) => Some(d),
            _ => None,
        }
    }

    /// A whole, non-negative count within `u32` (anything else: the JSON reader reports it).
    fn count(&self) -> Option<u32> {
        match *self {
            Cell::Int(i) => u32::try_from(i).ok(),
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just before
            Cell::Float(f) if f >= 0.0 && f.fract() == 0.0 && f <= f64::from(u32::MAX) => Some(f as u32),
            Cell::Exact(d) if d.fract().is_zero() && !d.is_sign_negative() => d.to_u32(),
            _ => None,
        }
    }

    /// `Some(None)` when absent; `None` when present but not plainly valid.
    fn optional<T>(&self, read: fn(&Self) -> Option<T>) -> Option<Option<T>> {
        match self {
            Cell::Absent => Some(None),
            cell => read(cell).map(Some),
        }
    }
}

/// Slots of the profile fields, in [`FIELDS`] order.
pub(crate) mod slot {
    pub const ESTADO: usize = 0;
    pub const INGRESO_MENSUAL: usize = 1;
    pub const TIPO_INGRESO: usize = 2;
    pub const ANTIGUEDAD_MESES: usize = 3;
    pub const DEUDAS_MENSUALES: usize = 4;
    pub const AHORRO: usize = 5;
    pub const EDAD: usize = 6;
    pub const PERSONAS_HOGAR: usize = 7;
    pub const SUBCUENTA_FONDO: usize = 8;
    pub const INSTITUCION: usize = 9;
    pub const COACREDITADO: usize = 10;
}

/// The values of a profile, one slot per name of [`FIELDS`], all absent to begin with, and
/// the object of a JSON text's `coacreditado` (its values in the profile's slots; kept beside
/// the slots rather than in a cell, so that a cell has no nested cells to drop).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cells<'a>([Cell<'a>; FIELDS.len()], Option<Box<Cells<'a>>>);

impl<'a> Cells<'a> {
    /// The slot of a field name (its position in [`FIELDS`]); `None` for an unknown name.
    pub fn slot(name: &str) -> Option<usize> {
        FIELDS.iter().position(|f| *f == name)
    }

    /// Sets the value of a slot (a later value replaces an earlier one, as with a repeated JSON
    /// key). Slots out of range are ignored: [`Cells::slot`] never returns one.
    pub fn set(&mut self, slot: usize, cell: Cell<'a>) {
        if let Some(c) = self.0.get_mut(slot) {
            *c = cell;
        }
        if slot == slot::COACREDITADO {
            self.1 = None;
        }
    }

    /// Sets `coacreditado` to an object of a JSON text.
    fn set_coacreditado(&mut self, cells: Cells<'a>) {
        self.set(slot::COACREDITADO, Cell::Absent);
        self.1 = Some(Box::new(cells));
    }

    /// The profile the JSON reader reads from the same values, not yet range-checked
    /// ([`crate::score`] does that), or `None` when a value is not plainly valid and the JSON
    /// reader must report the error.
    pub fn profile(&self) -> Option<Profile> {
        use slot::*;
        let c = &self.0;
        // A co-borrower is an object: only a JSON text's is read here.
        let coacreditado = match (&c[COACREDITADO], &self.1) {
            (Cell::Absent, None) => None,
            (Cell::Absent, Some(cells)) => Some(cells.coacreditado()?),
            _ => return None,
        };
        Some(Profile {
            estado: State::parse(c[ESTADO].text()?)?,
            ingreso_mensual: c[INGRESO_MENSUAL].decimal()?,
            tipo_ingreso: IncomeType::parse(c[TIPO_INGRESO].text()?)?,
            antiguedad_meses: c[ANTIGUEDAD_MESES].count()?,
            deudas_mensuales: c[DEUDAS_MENSUALES].optional(Cell::decimal)?,
            ahorro: c[AHORRO].optional(Cell::decimal)?.unwrap_or(Decimal::ZERO),
            edad: c[EDAD].optional(Cell::count)?,
            personas_hogar: c[PERSONAS_HOGAR].optional(Cell::count)?,
            subcuenta_fondo: c[SUBCUENTA_FONDO].optional(Cell::decimal)?,
            institucion: c[INSTITUCION].optional(|c| Institucion::parse(c.text()?))?,
            coacreditado,
        })
    }

    /// The number of `key` as written, for the value reader ([`digits_of_json`]): in these
    /// cells when `prefix` is empty, in the co-borrower's for `coacreditado.`.
    pub(crate) fn exact(&self, prefix: &str, key: &str) -> Option<Decimal> {
        let cells = match prefix {
            "" => self,
            _ => self.1.as_deref()?,
        };
        match cells.0[Cells::slot(key)?] {
            Cell::Exact(number) => Some(number),
            _ => None,
        }
    }

    /// The co-borrower these cells hold (only [`COACREDITADO_FIELDS`]' slots are ever set: see
    /// [`object_cells`]), or `None` when a value is not plainly valid.
    fn coacreditado(&self) -> Option<Coacreditado> {
        use slot::*;
        let c = &self.0;
        Some(Coacreditado {
            ingreso_mensual: c[INGRESO_MENSUAL].decimal()?,
            tipo_ingreso: IncomeType::parse(c[TIPO_INGRESO].text()?)?,
            antiguedad_meses: c[ANTIGUEDAD_MESES].count()?,
            edad: c[EDAD].optional(Cell::count)?,
            deudas_mensuales: c[DEUDAS_MENSUALES].optional(Cell::decimal)?,
            subcuenta_fondo: c[SUBCUENTA_FONDO].optional(Cell::decimal)?,
            institucion: c[INSTITUCION].optional(|c| Institucion::parse(c.text()?))?,
        })
    }
}

/// The cells of a JSON profile text, read without building a `serde_json::Value`: `None`
/// when the text is not an object of known keys with plain values (or not JSON at all), and
/// the caller asks the JSON reader for the exact error.
pub(crate) fn cells_of_json(text: &str) -> Option<Cells<'_>> {
    let mut scanner = Scanner::new(text);
    let cells = object_cells(&mut scanner, &FIELDS, Read::Plain)?;
    scanner.at_end().then_some(cells)
}

/// The numbers of a JSON profile text as the digits written, in their slots (and those of its
/// `coacreditado` object in its cells), every other value absent: what the JSON
/// value reader reads in place of its doubles ([`Cells::exact`]) when [`cells_of_json`] does
/// not take the text (see [`crate::read`]). Only for a text serde_json accepted.
pub(crate) fn digits_of_json(text: &str) -> Option<Cells<'_>> {
    object_cells(&mut Scanner::new(text), &FIELDS, Read::Digits)
}

/// What [`object_cells`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// Every value, when all are plain: `None` at the first key or value it does not take
    /// (texts with escapes, booleans, lists, other objects, numbers a `Decimal` cannot hold,
    /// anything that is not JSON), and the JSON reader reports the error.
    Plain,
    /// Only the numbers of known keys, skipping everything else (of a text serde_json
    /// accepted).
    Digits,
}

/// The cells of the JSON object that comes next, of the keys among `fields` (the profile's,
/// or the co-borrower's: a key of the profile that the co-borrower does not have, even with a
/// null value, is the JSON reader's to report).
fn object_cells<'a>(scanner: &mut Scanner<'a>, fields: &[&str], read: Read) -> Option<Cells<'a>> {
    let plain = read == Read::Plain;
    let mut cells = Cells::default();
    if !scanner.eat(b'{') {
        return None;
    }
    if scanner.eat(b'}') {
        return Some(cells);
    }
    loop {
        let key = scanner.string()?;
        let key = match key.plain() {
            Some(text) => Cow::Borrowed(text),
            // Decoded as a `Value` (the reader the crate has anyway: a `String` reader of its
            // own would add some 40 KB to the WebAssembly build).
            None if !plain => Cow::Owned(serde_json::from_str::<serde_json::Value>(key.quoted).ok()?.as_str()?.to_owned()),
            None => return None,
        };
        let slot = Cells::slot(&key).filter(|&s| fields.contains(&FIELDS[s]));
        if !scanner.eat(b':') {
            return None;
        }
        // The cell to set (`None`: the co-borrower's object, set already).
        let cell = match (scanner.peek()?, slot) {
            (b'-' | b'0'..=b'9', Some(_)) => match money::from_json_literal(scanner.number()) {
                Some(number) => Some(Cell::Exact(number)),
                None if plain => return None,
                None => Some(Cell::Absent),
            },
            (b'{', Some(slot::COACREDITADO)) => {
                cells.set_coacreditado(object_cells(scanner, &COACREDITADO_FIELDS, read)?);
                None
            }
            (b'"', Some(_)) if plain => Some(Cell::Str(Cow::Borrowed(scanner.string()?.plain()?))),
            (b'n', Some(_)) if plain && scanner.literal("null") => Some(Cell::Absent),
            _ if plain => return None,
            _ => {
                scanner.skip_value()?;
                Some(Cell::Absent)
            }
        };
        if let (Some(slot), Some(cell)) = (slot, cell) {
            cells.set(slot, cell);
        }
        if !scanner.eat(b',') {
            return scanner.eat(b'}').then_some(cells);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_the_field_order() {
        for (i, name) in FIELDS.iter().enumerate() {
            assert_eq!(Cells::slot(name), Some(i));
        }
        assert_eq!(Cells::slot("ESTADO"), None);
        assert_eq!(Cells::slot("ingreso"), None);
        let names = [
            (slot::ESTADO, "estado"),
            (slot::INGRESO_MENSUAL, "ingreso_mensual"),
            (slot::TIPO_INGRESO, "tipo_ingreso"),
            (slot::ANTIGUEDAD_MESES, "antiguedad_meses"),
            (slot::DEUDAS_MENSUALES, "deudas_mensuales"),
            (slot::AHORRO, "ahorro"),
            (slot::EDAD, "edad"),
            (slot::PERSONAS_HOGAR, "personas_hogar"),
            (slot::SUBCUENTA_FONDO, "subcuenta_fondo"),
            (slot::INSTITUCION, "institucion"),
            (slot::COACREDITADO, "coacreditado"),
        ];
        for (slot, name) in names {
            assert_eq!(FIELDS[slot], name);
        }
    }

    /// The fast reader accepts exactly the plain profiles and reads them as the JSON reader
    /// does; everything else is left to the JSON reader (`None`).
    #[test]
    fn json_text_cells_read_like_the_json_reader() {
        let plain = [
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"Ciudad de México","ingreso_mensual":30000.5,"tipo_ingreso":" Mixto ","antiguedad_meses":36.0,"ahorro":null,"edad":40,"deudas_mensuales":0.1}"#,
            "{\"estado\":\"CMX\",\r\n\t\"ingreso_mensual\":30000,\"tipo_ingreso\":\"asalariado\",\"antiguedad_meses\":36}",
            r#"{"estado":"JAL","estado":"09","ingreso_mensual":1e4,"tipo_ingreso":"pensionado","antiguedad_meses":0,"subcuenta_fondo":12.345}"#,
            r#" { "estado" : "NLE" , "ingreso_mensual" : 9999999 , "tipo_ingreso" : "independiente" , "antiguedad_meses" : 5 , "personas_hogar" : 4 } "#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":null}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"deudas_mensuales":500,"coacreditado":{"ingreso_mensual":1e4,"tipo_ingreso":"MIXTO","antiguedad_meses":12.0,"edad":null,"deudas_mensuales":100.25,"institucion":"fovissste"}}"#,
        ];
        for text in plain {
            let fast = cells_of_json(text).and_then(|c| c.profile()).expect(text);
            let value: serde_json::Value = serde_json::from_str(text).expect(text);
            assert_eq!(Some(fast), Profile::from_json_value(&value).ok(), "{text}");
        }
        let not_plain = [
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"extra":1}"#,
            r#"{"estado":"XXX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso_mensual":"30000","tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36.5}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":-1}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":[36]}"#,
            r#"{"estado":"CMX","ingreso_mensual":true,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36} x"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"extra":{"a":[1,}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":{"ingreso_mensual":10000,"tipo_ingreso":"asalariado","antiguedad_meses":12,"estado":null}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":{"ingreso_mensual":10000,"tipo_ingreso":"asalariado"}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":{"ingreso_mensual":10000,"tipo_ingreso":"asalariado","antiguedad_meses":12,"coacreditado":{}}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36.0000000000000000001}"#,
            r#"{"estado":"CMX","ingreso_mensual":1e27,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":10000}"#,
            // Escapes are left to the JSON reader (which reads them: see the test below).
            r#"{"estado":"Ciudad de M\u00e9xico","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso\u005fmensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":036}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":nul}"#,
            "{\"estado\":\"CM\u{1}X\",\"ingreso_mensual\":30000,\"tipo_ingreso\":\"asalariado\",\"antiguedad_meses\":36}",
            "{\"estado\":\"CMX\",\u{a0}\"ingreso_mensual\":30000,\"tipo_ingreso\":\"asalariado\",\"antiguedad_meses\":36}",
            r#"[1, 2]"#,
            r#""CMX""#,
            r#"{"estado":"CMX""#,
        ];
        for text in not_plain {
            assert_eq!(cells_of_json(text).and_then(|c| c.profile()), None, "{text}");
        }
    }

    /// What the JSON value reader alone answers for a text, reading the text's digits.
    fn by_the_value_reader(text: &str) -> Result<Profile, crate::ScoreError> {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(value) => {
                let digits = digits_of_json(text);
                let exact = |prefix: &str, key: &str| digits.as_ref()?.exact(prefix, key);
                Profile::from_json_value_with_digits(&value, Some(&exact))
            }
            Err(e) => Err(crate::Falla::JsonInvalido.en(None, &[("detalle", &e)]).into()),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// Whatever the text (valid, invalid, not JSON), the fast reader and the value reader
        /// agree: the fast reader takes only JSON that the value reader reads to the same
        /// profile, with the same digits, and never decides an error on its own.
        #[test]
        fn the_fast_reader_agrees_with_the_value_reader(
            base in 0usize..4,
            edits in proptest::collection::vec((0usize..400, 0usize..24), 0..3),
        ) {
            const BASES: [&str; 4] = [
                r#"{"estado":"CMX","ingreso_mensual":30000.25,"tipo_ingreso":"asalariado","antiguedad_meses":36,"edad":40}"#,
                r#" {"estado":"Jalisco", "ingreso_mensual":1.05e4 ,"tipo_ingreso":"MIXTO","antiguedad_meses":12.0,"deudas_mensuales":0.0099999999999999999999}"#,
                r#"{"estado":"09","ingreso_mensual":30000,"tipo_ingreso":"mixto","antiguedad_meses":60,"deudas_mensuales":900,"coacreditado":{"ingreso_mensual":29999.99999999999999999,"tipo_ingreso":"asalariado","antiguedad_meses":1.2e1,"deudas_mensuales":100}}"#,
                r#"{"estado":"NLE","ingreso_mensual":-0,"tipo_ingreso":"pensionado","antiguedad_meses":36.0000000000000000001,"ahorro":null}"#,
            ];
            const PIECES: [&str; 24] = [
                "", " ", "\"", "{", "}", "[", "]", ",", ":", "-", ".", "e", "0", "1", "\\", "\\u0041",
                "null", "true", "1e400", "\u{1}", "\u{e9}", "\"x\":1,", "{\"edad\":1}", "00",
            ];
            let mut text = BASES[base].to_owned();
            for (at, piece) in edits {
                let mut at = at % (text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                // Replace one character at `at` by the piece (or insert it at the end).
                let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                text.replace_range(at..end, PIECES[piece]);
            }
            let slow = by_the_value_reader(&text);
            if let Some(fast) = cells_of_json(&text).and_then(|c| c.profile()) {
                let fast = fast.validated().map(crate::ValidProfile::into_profile);
                proptest::prop_assert_eq!(&fast, &slow, "{}", text);
            }
            let both = Profile::from_json_str(&text);
            proptest::prop_assert_eq!(both.as_ref().map_err(|e| e.code), slow.as_ref().map_err(|e| e.code), "{}", text);
        }
    }
}
