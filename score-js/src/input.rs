//! The profile as the gather function of the helper module writes it (`makeProfileGather`,
//! [`crate::helpers`]): a flat profile of plain values read in one call into score-core's
//! `input::Cells`, each number by score-core's host-number rule (`host::number_cell`), so the
//! same input gives the same report or error in Node, in the browser and in Python. Anything
//! else is walked by the binding into a JSON value (`host::number_value` for its numbers).

use score_core::host::number_cell;
use score_core::input::{Cell, Cells};
use score_core::{ErrorCode, FIELDS, IncomeType, Profile, ScoreError};

/// Deepest nesting read from a profile (a profile is flat; deeper values only reach score-core
/// to be rejected with their field).
pub const MAX_DEPTH: u32 = 16;

/// INVALID_TYPE (no field) for `scoreMany` given something other than an array, the same in
/// both bindings. The one binding error score-core's `host` module has no constructor for yet
/// (requested there; this is its only copy).
pub fn not_a_list() -> ScoreError {
    ScoreError { code: ErrorCode::InvalidType, field: None, message: "scoreMany espera una lista de perfiles.".to_owned() }
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
