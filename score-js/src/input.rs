//! The profile as the gather function of the helper module writes it (`makeProfileGather`,
//! [`crate::helpers`]): a flat profile of plain values read in one call into score-core's
//! `input::Cells`, each number by score-core's host-number rule (`host::number_cell`), so the
//! same input gives the same report or error in Node, in the browser and in Python. Anything
//! else is walked by the binding into a JSON value (`host::number_value` for its numbers).

use score_core::host::number_cell;
use score_core::input::{Cell, Cells};
use score_core::{Falla, FIELDS, IncomeType, Profile, ScoreError};

/// Deepest nesting read from a profile (a profile is flat; deeper values only reach score-core
/// to be rejected with their field).
pub const MAX_DEPTH: u32 = 16;

/// What a batch (`scoreMany`, `scoreManyAsync`) does with a profile that fails: throw (or
/// reject) at the first one, with its `index`, or return its error in its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Errors {
    /// `errors: "throw"` (the default): the first bad profile throws, with its `index`.
    Throw,
    /// `errors: "return"`: each bad profile's `ScoreError` in its place in the result.
    Return,
}

impl Errors {
    /// Every value of the `errors` option and its text (score.d.ts's `BatchErrors` is generated
    /// from this list).
    pub const ALL: [(&'static str, Errors); 2] = [("throw", Errors::Throw), ("return", Errors::Return)];
}

/// The `errors` option of a batch call as the binding found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionValue<'a> {
    /// No options, or `errors` absent or `undefined`.
    Absent,
    /// A text.
    Text(&'a str),
    /// Any other value.
    Other,
}

/// The [`Errors`] of a batch call named `function`, or the error its options are: a value of
/// another type is INVALID_TYPE, a text other than `"throw"` or `"return"` VALUE_OUT_OF_RANGE
/// (no profile field is at fault: `field` is null). The same in both bindings.
pub fn errors_option(function: &str, value: OptionValue<'_>) -> Result<Errors, ScoreError> {
    let texts: Vec<String> = Errors::ALL.iter().map(|(text, _)| format!("\"{text}\"")).collect();
    let validos = texts.join(" o ");
    let context: [(&str, &dyn std::fmt::Display); 3] = [("funcion", &function), ("opcion", &"errors"), ("validos", &validos)];
    match value {
        OptionValue::Absent => Ok(Errors::Throw),
        OptionValue::Text(text) => Errors::ALL.iter().find(|(name, _)| *name == text).map(|&(_, errors)| errors).ok_or_else(|| {
            let valor = format!("\"{text}\"");
            let [a, b, c] = context;
            Falla::OpcionValor.en(None, &[a, b, c, ("valor", &valor)]).into()
        }),
        OptionValue::Other => Err(Falla::OpcionTipo.en(None, &context).into()),
    }
}

/// INVALID_TYPE (no field) for the options of a batch call named `function` that are neither
/// an object nor `undefined`/`null`.
pub fn options_not_an_object(function: &str) -> ScoreError {
    Falla::OpcionesNoObjeto.en(None, &[("funcion", &function)]).into()
}

/// The `simulations` option of a batch call as the binding found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagValue {
    /// No options, or `simulations` absent or `undefined`.
    Absent,
    /// A boolean.
    Bool(bool),
    /// Any other value.
    Other,
}

/// The `simulations` option of a batch call named `function`: `true` (the default) computes
/// each report's `simulaciones`, `false` leaves them empty (score-core's
/// `Opciones::simulaciones`); another type is INVALID_TYPE (no field). The same in both
/// bindings.
pub fn simulations_option(function: &str, value: FlagValue) -> Result<bool, ScoreError> {
    match value {
        FlagValue::Absent => Ok(true),
        FlagValue::Bool(b) => Ok(b),
        FlagValue::Other => {
            Err(Falla::OpcionTipo.en(None, &[("funcion", &function), ("opcion", &"simulations"), ("validos", &"true o false")]).into())
        }
    }
}

/// INVALID_TYPE (no field) for `scoreJson` given something other than a text.
pub fn not_a_text() -> ScoreError {
    Falla::NoEsTexto.en(None, &[("funcion", &"scoreJson")]).into()
}

/// INVALID_TYPE (no field) for a `calibration` option of the call named `function` that is
/// neither a `Calibration` of the package nor `undefined`/`null`. The same in both bindings.
pub fn not_a_calibration(function: &str) -> ScoreError {
    let validos = "un Calibration (Calibration.fromToml(texto) o Calibration.default())";
    Falla::OpcionTipo.en(None, &[("funcion", &function), ("opcion", &"calibration"), ("validos", &validos)]).into()
}

/// INVALID_TYPE (no field) for `Calibration.fromToml` given something other than a text.
pub fn toml_not_a_text() -> ScoreError {
    Falla::OpcionTipo.en(None, &[("funcion", &"Calibration.fromToml"), ("opcion", &"text"), ("validos", &"un texto TOML")]).into()
}

/// Doubles the gather function writes: per profile field a tag, a number and a byte length.
pub const GATHER_DOUBLES: usize = 3 * FIELDS.len();
/// Bytes for the UTF-8 of the profile's texts that are not a [`known_text`]; a profile whose
/// texts do not fit is walked instead.
pub const GATHER_BYTES: usize = 512;

/// The texts the gather function passes as a number instead of as UTF-8: the canonical values
/// of the text fields (the states' ISO codes, then the income types), which nearly every
/// profile sends. `None` past the last.
pub fn known_text(index: usize) -> Option<&'static str> {
    let states = &score_core::states::STATES;
    match states.get(index) {
        Some(state) => Some(state.iso),
        None => IncomeType::ALL.get(index - states.len()).map(|t| t.as_str()),
    }
}

/// The profile the gather function wrote (`f`, and `bytes` for the texts it wrote as UTF-8),
/// not yet range-checked (`score_core::score` does that); `None` when a value is not plainly
/// valid, and the binding walks the value.
pub fn gathered(f: &[f64], bytes: &[u8]) -> Option<Profile> {
    let n = FIELDS.len();
    let (tags, numbers, lengths) = (f.get(..n)?, f.get(n..2 * n)?, f.get(2 * n..3 * n)?);
    let mut cells = Cells::default();
    for slot in 0..n {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let cell = match tags[slot] as u8 {
            0 => number_cell(numbers[slot])?,
            1 => {
                let (start, len) = (numbers[slot] as usize, lengths[slot] as usize);
                Cell::Str(std::str::from_utf8(bytes.get(start..start.checked_add(len)?)?).ok()?.into())
            }
            2 | 3 => continue,
            4 => Cell::Str(known_text(numbers[slot] as usize)?.into()),
            _ => return None,
        };
        cells.set(slot, cell);
    }
    cells.profile()
}

#[cfg(test)]
mod tests {
    use super::*;
    use score_core::ErrorCode;

    /// The `errors` option: absent and "throw" throw, "return" returns, anything else is a
    /// ScoreError with a stable code, no field and a Spanish message naming the call.
    #[test]
    fn the_errors_option_reads_or_fails_with_a_code() {
        assert_eq!(errors_option("scoreMany", OptionValue::Absent), Ok(Errors::Throw));
        assert_eq!(errors_option("scoreMany", OptionValue::Text("throw")), Ok(Errors::Throw));
        assert_eq!(errors_option("scoreMany", OptionValue::Text("return")), Ok(Errors::Return));
        let Err(e) = errors_option("scoreManyAsync", OptionValue::Text("raise")) else { panic!("\"raise\" is refused") };
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::ValueOutOfRange, None));
        assert_eq!(e.message, "La opción \"errors\" de scoreManyAsync debe ser \"throw\" o \"return\", no \"raise\".");
        let Err(e) = errors_option("scoreMany", OptionValue::Other) else { panic!("a non-text is refused") };
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::InvalidType, None));
        assert_eq!(options_not_an_object("scoreMany").code, ErrorCode::InvalidType);
        assert_eq!(not_a_text().code, ErrorCode::InvalidType);
        let e = not_a_calibration("score");
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::InvalidType, None));
        assert!(e.message.starts_with("La opción \"calibration\" de score debe ser un Calibration"), "{}", e.message);
        assert_eq!(toml_not_a_text().code, ErrorCode::InvalidType);
    }
}
