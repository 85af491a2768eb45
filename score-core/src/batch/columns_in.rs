//! Profiles read from columns: a table's columns as a host hands them over (little-endian
//! buffers of doubles, integers, category codes or booleans, or values already converted to
//! JSON), read row by row into profiles by the host-number rule of [`crate::host`].

use crate::error::ScoreError;
use crate::profile::input::{Cell, Cells};
use crate::profile::Profile;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// One input column.
#[derive(Debug)]
pub enum Column<'a> {
    /// Doubles (NaN: missing).
    F64(&'a [u8]),
    /// 64-bit integers.
    I64(&'a [u8]),
    /// 32-bit category codes (-1: missing) and the categories.
    Cat(&'a [u8], Vec<String>),
    /// Booleans as bytes (0, 1; 2: missing).
    Bool(&'a [u8]),
    /// Any other values, already converted to JSON (or the error converting them gave).
    Values(Vec<Result<Value, ScoreError>>),
}

fn word(b: &[u8], row: usize) -> [u8; 8] {
    let mut w = [0u8; 8];
    if let Some(bytes) = b.get(row * 8..row * 8 + 8) {
        w.copy_from_slice(bytes);
    }
    w
}

impl Column<'_> {
    /// Rows in the column.
    pub fn len(&self) -> usize {
        match self {
            Column::F64(b) | Column::I64(b) => b.len() / 8,
            Column::Cat(b, _) => b.len() / 4,
            Column::Bool(b) => b.len(),
            Column::Values(v) => v.len(),
        }
    }

    /// True for a column of no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The category of a row of a categorical column (`None` for the missing code -1).
    fn category<'c>(b: &[u8], cats: &'c [String], row: usize) -> Option<&'c String> {
        let bytes = b.get(row * 4..row * 4 + 4)?;
        let code = i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        usize::try_from(code).ok().and_then(|c| cats.get(c))
    }

    /// The row's value as JSON, for score-core's reader and its exact error.
    fn value(&self, row: usize) -> Result<Value, ScoreError> {
        Ok(match self {
            Column::F64(b) => crate::host::number_value(f64::from_le_bytes(word(b, row))),
            Column::I64(b) => Value::from(i64::from_le_bytes(word(b, row))),
            Column::Cat(b, cats) => Self::category(b, cats, row).map_or(Value::Null, |s| Value::String(s.clone())),
            Column::Bool(b) => match b.get(row) {
                Some(0) => Value::Bool(false),
                Some(1) => Value::Bool(true),
                _ => Value::Null,
            },
            Column::Values(v) => return v.get(row).cloned().unwrap_or(Ok(Value::Null)),
        })
    }

    /// The row's value as a cell; `None` when only score-core's JSON reader can judge it.
    fn cell(&self, row: usize) -> Option<Cell<'_>> {
        Some(match self {
            Column::F64(b) => crate::host::number_cell(f64::from_le_bytes(word(b, row)))?,
            Column::I64(b) => Cell::Int(i64::from_le_bytes(word(b, row))),
            Column::Cat(b, cats) => match Self::category(b, cats, row) {
                Some(s) => Cell::Str(Cow::Borrowed(s)),
                None => Cell::Absent,
            },
            Column::Bool(b) if b.get(row) == Some(&2) => Cell::Absent,
            Column::Values(v) => match v.get(row)? {
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

/// A table of profiles: named columns of equal length.
#[derive(Debug, Default)]
pub struct Frame<'a> {
    columns: Vec<(String, Option<usize>, Column<'a>)>,
    rows: usize,
}

impl<'a> Frame<'a> {
    /// A table of `rows` rows.
    pub fn new(rows: usize) -> Self {
        Frame { columns: Vec::new(), rows }
    }

    /// Adds a column; `Err` with a message when its length is not the table's.
    pub fn push(&mut self, name: String, column: Column<'a>) -> Result<(), String> {
        if column.len() != self.rows {
            return Err(format!("column {name:?} has {} rows, not {}", column.len(), self.rows));
        }
        let slot = Cells::slot(&name);
        self.columns.push((name, slot, column));
        Ok(())
    }

    /// Rows in the table.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The profile of row `row`, not yet range-checked, or the error the JSON reader gives
    /// for the row's object (an unknown column fails every row with UNKNOWN_FIELD, as an
    /// unknown key does).
    pub fn profile(&self, row: usize) -> Result<Profile, ScoreError> {
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
