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

use crate::money;
use crate::profile::{FIELDS, IncomeType, Institucion, Profile};
use crate::states::State;
use rust_decimal::Decimal;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;

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
            _ => None,
        }
    }

    /// A whole, non-negative count within `u32` (anything else: the JSON reader reports it).
    fn count(&self) -> Option<u32> {
        match *self {
            Cell::Int(i) => u32::try_from(i).ok(),
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just before
            Cell::Float(f) if f >= 0.0 && f.fract() == 0.0 && f <= f64::from(u32::MAX) => Some(f as u32),
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

/// The values of a profile, one slot per name of [`FIELDS`], all absent to begin with.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cells<'a>([Cell<'a>; FIELDS.len()]);

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
    }

    /// The profile the JSON reader reads from the same values, not yet range-checked
    /// ([`crate::score`] does that), or `None` when a value is not plainly valid and the JSON
    /// reader must report the error.
    pub fn profile(&self) -> Option<Profile> {
        use slot::*;
        let c = &self.0;
        // A co-borrower is an object, never a plain value: only its absence is read here.
        if c[COACREDITADO] != Cell::Absent {
            return None;
        }
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
            coacreditado: None,
        })
    }
}

/// The cells of a JSON profile text, read without building a `serde_json::Value`: `None`
/// when the text is not an object of known keys with plain values (or not JSON at all), and
/// the caller asks the JSON reader for the exact error.
pub(crate) fn cells_of_json(text: &str) -> Option<Cells<'_>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let cells = de.deserialize_any(ProfileVisitor).ok()??;
    de.end().ok()?;
    Some(cells)
}

/// Reads an object into cells; `None` at the first key or value it does not take. It then
/// stops reading, and leaves the rest of the text to the JSON reader. (Every kind of value has
/// its method, and nothing is skipped over or reported here, so that serde's "invalid type"
/// errors, and the formatting code they bring into the WebAssembly build, are never needed.)
struct ProfileVisitor;

impl<'de> Visitor<'de> for ProfileVisitor {
    type Value = Option<Cells<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a profile object")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut cells = Cells::default();
        while let Some(KeySlot(slot)) = map.next_key()? {
            let Some(slot) = slot else { return Ok(None) };
            let PlainValue(Some(cell)) = map.next_value()? else { return Ok(None) };
            cells.set(slot, cell);
        }
        Ok(Some(cells))
    }
}

/// A key as its slot (`None`: not a profile field).
struct KeySlot(Option<usize>);

impl<'de> de::Deserialize<'de> for KeySlot {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = KeySlot;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KeySlot, E> {
                Ok(KeySlot(Cells::slot(v)))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// A JSON value as a cell; `None` inside for booleans, lists, objects (left unread) and
/// integers beyond i64.
struct PlainValue<'a>(Option<Cell<'a>>);

impl<'de> de::Deserialize<'de> for PlainValue<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(PlainVisitor)
    }
}

struct PlainVisitor;

impl<'de> Visitor<'de> for PlainVisitor {
    type Value = PlainValue<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(PlainValue(Some(Cell::Absent)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(PlainValue(Some(Cell::Int(v))))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(PlainValue(i64::try_from(v).ok().map(Cell::Int)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(PlainValue(v.is_finite().then_some(Cell::Float(v))))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(PlainValue(Some(Cell::Str(Cow::Borrowed(v)))))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(PlainValue(Some(Cell::Str(Cow::Owned(v.to_owned())))))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(PlainValue(None))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Ok(PlainValue(None))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Ok(PlainValue(None))
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
            r#"{"estado":"Ciudad de M\u00e9xico","ingreso_mensual":30000.5,"tipo_ingreso":" Mixto ","antiguedad_meses":36.0,"ahorro":null,"edad":40,"deudas_mensuales":0.1}"#,
            r#"{"estado":"JAL","estado":"09","ingreso_mensual":1e4,"tipo_ingreso":"pensionado","antiguedad_meses":0,"subcuenta_fondo":12.345}"#,
            r#" { "estado" : "NLE" , "ingreso_mensual" : 9999999 , "tipo_ingreso" : "independiente" , "antiguedad_meses" : 5 , "personas_hogar" : 4 } "#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":null}"#,
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
            r#"{"estado":"CMX","ingreso_mensual":18446744073709551615,"tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","tipo_ingreso":"asalariado","antiguedad_meses":36}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36} x"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"extra":{"a":[1,}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":{"ingreso_mensual":10000,"tipo_ingreso":"asalariado","antiguedad_meses":12}}"#,
            r#"{"estado":"CMX","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":36,"coacreditado":10000}"#,
            r#"[1, 2]"#,
            r#""CMX""#,
            r#"{"estado":"CMX""#,
        ];
        for text in not_plain {
            assert_eq!(cells_of_json(text).and_then(|c| c.profile()), None, "{text}");
        }
    }
}
