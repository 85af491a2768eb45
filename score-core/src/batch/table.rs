//! The published shape of a scored table, for every binding and every engine that needs a
//! schema before it sees a row (Spark's `mapInArrow`, Dask's `meta`, a command's `schema`).
//!
//! A table's columns are profile fields (read into the profile), columns the caller keeps
//! (carried through untouched, ids), or other columns: those fail every row with
//! UNKNOWN_FIELD, as an unknown key does, unless the caller ignores them ([`Extra::Ignore`]).
//! The output is fixed whatever the rows hold: the kept columns first, in the caller's order,
//! then the report's columns ([`super::layout`]), then, when errors are returned, the three
//! error columns, null in every row that scored.

use super::columns_out::{Kind, OutColumn, layout};
use crate::error::{ErrorCode, ScoreError};
use crate::profile::FIELDS;

/// What to do with a column that is neither a profile field nor kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Extra {
    /// It fails every row with UNKNOWN_FIELD (a typo in a column name is not silently lost).
    #[default]
    Error,
    /// It is left out.
    Ignore,
}

impl Extra {
    /// Every value, by its name in the bindings (`extra="error"`).
    pub const ALL: [(&'static str, Extra); 2] = [("error", Extra::Error), ("ignore", Extra::Ignore)];

    /// The value named `name`; `Err` with a Spanish message listing the names otherwise.
    pub fn from_name(name: &str) -> Result<Extra, String> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, e)| *e).ok_or_else(|| {
            format!("extra debe ser \"error\" o \"ignore\", no {name:?}.")
        })
    }
}

/// The names of the error columns, in order: the code (categories: every [`ErrorCode`]), the
/// field at fault and the Spanish message.
pub const ERROR_COLUMNS: [&str; 3] = ["error_code", "error_field", "error_message"];

/// The column of every mistake of a failed row (when asked, after [`ERROR_COLUMNS`]): a JSON
/// list of `{codigo, campo, mensaje}`, as [`ScoreError::errors`] serializes.
pub const ERROR_LIST_COLUMN: &str = "errors";

/// The error columns as output columns.
fn error_columns() -> [OutColumn; 3] {
    let [code, field, message] = ERROR_COLUMNS;
    [
        OutColumn {
            name: code.to_owned(),
            kind: Kind::Cat,
            categories: Some(ErrorCode::ALL.iter().map(|c| c.as_str()).collect()),
        },
        OutColumn { name: field.to_owned(), kind: Kind::Text, categories: None },
        OutColumn { name: message.to_owned(), kind: Kind::Text, categories: None },
    ]
}

/// How a table is scored: the columns kept, what to do with other columns, and whether failed
/// rows are returned (with the error columns) rather than raised.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableSpec {
    /// Input columns carried through to the output untouched, in this order.
    pub keep: Vec<String>,
    /// What to do with the other columns that are not profile fields.
    pub extra: Extra,
    /// True when failed rows stay in the output with the error columns filled.
    pub return_errors: bool,
    /// With `return_errors`, also the [`ERROR_LIST_COLUMN`] of every mistake of each row.
    pub error_list: bool,
}

impl TableSpec {
    /// The output columns, in order: the kept ones ([`Kind::Kept`]: the input's own type),
    /// the report's, and the error columns when errors are returned. The same for every table
    /// with these options, whether or not any row fails.
    pub fn schema(&self) -> Vec<OutColumn> {
        let kept = self.keep.iter().map(|name| OutColumn { name: name.clone(), kind: Kind::Kept, categories: None });
        let mut errors = if self.return_errors { error_columns().to_vec() } else { Vec::new() };
        if self.return_errors && self.error_list {
            errors.push(OutColumn { name: ERROR_LIST_COLUMN.to_owned(), kind: Kind::Text, categories: None });
        }
        kept.chain(layout()).chain(errors).collect()
    }

    /// Which of a table's columns (`names`, in order) the profiles are read from: profile
    /// fields, and unknown columns unless ignored (they fail each row with UNKNOWN_FIELD). A
    /// kept column is carried through and read only if it is a profile field.
    ///
    /// `Err` (a Spanish message) when a kept column is not in the table, is named twice, or
    /// would take the name of an output column.
    pub fn read_columns(&self, names: &[&str]) -> Result<Vec<bool>, String> {
        let outputs = TableSpec { keep: Vec::new(), ..self.clone() }.schema();
        for (i, name) in self.keep.iter().enumerate() {
            if !names.contains(&name.as_str()) {
                return Err(format!("keep nombra la columna \"{name}\", que la tabla no tiene."));
            }
            if self.keep[..i].contains(name) {
                return Err(format!("keep nombra la columna \"{name}\" dos veces."));
            }
            if outputs.iter().any(|c| c.name == *name) {
                return Err(format!(
                    "keep nombra la columna \"{name}\", que es también una columna del resultado; renómbrela antes de puntuar."
                ));
            }
        }
        Ok(names
            .iter()
            .map(|name| {
                let field = FIELDS.contains(name);
                let kept = self.keep.iter().any(|k| k == name);
                field || (!kept && self.extra == Extra::Error)
            })
            .collect())
    }
}

/// The error columns' values of the failed rows, for a host to place: (row, index of the first
/// mistake's code in [`ErrorCode::ALL`], its field, its message, every mistake as the JSON
/// text of [`ERROR_LIST_COLUMN`]), in row order.
pub fn error_cells(errors: &[(usize, ScoreError)]) -> impl Iterator<Item = (usize, usize, Option<&str>, &str, String)> {
    errors.iter().map(|(row, e)| {
        let code = ErrorCode::ALL.iter().position(|c| *c == e.code).unwrap_or(0);
        let list = serde_json::to_string(&e.errors).unwrap_or_default();
        (*row, code, e.field.as_deref(), e.message.as_str(), list)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(keep: &[&str], extra: Extra, return_errors: bool) -> TableSpec {
        TableSpec { keep: keep.iter().map(|s| (*s).to_owned()).collect(), extra, return_errors, error_list: false }
    }

    #[test]
    fn the_schema_is_kept_then_report_then_errors() {
        let report = layout();
        let schema = spec(&["cliente_id"], Extra::Error, true).schema();
        assert_eq!(schema.len(), report.len() + 4);
        assert_eq!((schema[0].name.as_str(), schema[0].kind), ("cliente_id", Kind::Kept));
        assert_eq!(&schema[1..=report.len()], &report[..]);
        let tail: Vec<&str> = schema[report.len() + 1..].iter().map(|c| c.name.as_str()).collect();
        assert_eq!(tail, ERROR_COLUMNS);
        assert_eq!(spec(&[], Extra::Error, false).schema(), report);
        let all = TableSpec { error_list: true, ..spec(&[], Extra::Error, true) }.schema();
        assert_eq!(all.last().map(|c| (c.name.as_str(), c.kind)), Some((ERROR_LIST_COLUMN, Kind::Text)));
        assert_eq!(TableSpec { error_list: true, ..spec(&[], Extra::Error, false) }.schema(), report);
    }

    #[test]
    fn columns_are_read_by_role() {
        let names = ["cliente_id", "estado", "sucursal", "edad"];
        let read = |s: &TableSpec| s.read_columns(&names).expect("valid");
        assert_eq!(read(&spec(&[], Extra::Error, false)), [true, true, true, true]);
        assert_eq!(read(&spec(&["cliente_id"], Extra::Error, false)), [false, true, true, true]);
        assert_eq!(read(&spec(&["cliente_id"], Extra::Ignore, false)), [false, true, false, true]);
        assert_eq!(read(&spec(&["estado"], Extra::Ignore, false)), [false, true, false, true]);
    }

    #[test]
    fn bad_keeps_are_refused_in_spanish() {
        let names = ["cliente_id", "score"];
        let err = |keep: &[&str]| spec(keep, Extra::Error, true).read_columns(&names).expect_err("refused");
        assert!(err(&["id"]).contains("\"id\", que la tabla no tiene"));
        assert!(err(&["cliente_id", "cliente_id"]).contains("dos veces"));
        assert!(err(&["score"]).contains("columna del resultado"));
        assert_eq!(Extra::from_name("ignore"), Ok(Extra::Ignore));
        assert!(Extra::from_name("skip").is_err());
    }

    #[test]
    fn error_cells_carry_code_field_and_message() {
        let e = ScoreError::from(crate::Falla::EstadoDesconocido.en(Some("estado"), &[("valor", &"XX")]));
        let message = e.message.clone();
        let list = format!(r#"[{{"codigo":"UNKNOWN_STATE","campo":"estado","mensaje":{}}}]"#, serde_json::Value::from(message.as_str()));
        let errors = [(4, e)];
        let cells: Vec<_> = error_cells(&errors).collect();
        assert_eq!(cells, [(4, 4, Some("estado"), message.as_str(), list)]);
    }
}
