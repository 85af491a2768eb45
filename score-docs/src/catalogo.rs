//! The SAT catalogues a printed payroll receipt writes by code, by name or both (Anexo 20's
//! Nómina 1.2 catalogues: `c_TipoRegimen`, `c_PeriodicidadPago`, `c_Estado`). A print may
//! show "02", "Sueldos", "02 - Sueldos" or "04-QUINCENAL": each is read by the catalogue, not by
//! any one layout's wording, and a code and a name that disagree read as nothing (never a
//! guess between them).

use crate::text::{self, Line};

/// `c_TipoRegimen` (the worker's contract regime; not `c_RegimenFiscal`, the issuer's tax
/// regime such as 601, which prints label "Régimen fiscal"), names folded.
const TIPO_REGIMEN: [(&str, &str); 13] = [
    ("02", "sueldos"),
    ("03", "jubilados"),
    ("04", "pensionados"),
    ("05", "asimilados miembros sociedades cooperativas produccion"),
    ("06", "asimilados integrantes sociedades asociaciones civiles"),
    ("07", "asimilados miembros consejos"),
    ("08", "asimilados comisionistas"),
    ("09", "asimilados honorarios"),
    ("10", "asimilados acciones"),
    ("11", "asimilados otros"),
    ("12", "jubilados o pensionados"),
    ("13", "indemnizacion o separacion"),
    ("99", "otro regimen"),
];

/// `c_PeriodicidadPago`, by the words a print uses (folded).
const PERIODICIDAD: [(&str, &str); 12] = [
    ("01", "diario"),
    ("01", "diaria"),
    ("02", "semanal"),
    ("03", "catorcenal"),
    ("04", "quincenal"),
    ("05", "mensual"),
    ("06", "bimestral"),
    ("07", "unidad obra"),
    ("08", "comision"),
    ("09", "precio alzado"),
    ("10", "decenal"),
    ("99", "otra periodicidad"),
];

/// `c_Estado` for Mexico (the Nómina's `ClaveEntFed`), with `CMX` and `DIF` for Mexico City.
const ESTADOS: [&str; 33] = [
    "AGU", "BCN", "BCS", "CAM", "CHP", "CHH", "CMX", "COA", "COL", "DIF", "DUR", "GRO", "GUA", "HID", "JAL", "MEX", "MIC",
    "MOR", "NAY", "NLE", "OAX", "PUE", "QUE", "ROO", "SIN", "SLP", "SON", "TAB", "TAM", "TLA", "VER", "YUC", "ZAC",
];

/// A two-digit code as OCR reads it (`O` for `0` undone).
fn two_digits(token: &str) -> Option<String> {
    let t: String = token.chars().map(|c| if c == 'O' || c == 'o' { '0' } else { c }).collect();
    (t.len() == 2 && t.bytes().all(|b| b.is_ascii_digit())).then_some(t)
}

/// The pieces of a catalogue value: words and codes, split at blanks, dashes, parentheses,
/// points and colons (`04-QUINCENAL`, `Pago quincenal (04)`, `02 - Sueldos`).
fn pieces(value: &str) -> Vec<String> {
    text::fold(value)
        .split(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '(' | ')' | ',' | ':' | '.' | '/'))
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The code and name of `catalogue` whose name `words` begin with, whole words (the longest
/// name wins: "jubilados o pensionados" over "jubilados").
fn named(catalogue: &[(&'static str, &'static str)], words: &[String]) -> Option<(&'static str, usize)> {
    catalogue
        .iter()
        .filter(|(_, name)| {
            let n: Vec<&str> = name.split(' ').collect();
            words.len() >= n.len() && words.iter().zip(&n).all(|(w, n)| w == n)
        })
        .max_by_key(|(_, name)| name.len())
        .map(|(code, name)| (*code, name.split(' ').count()))
}

/// A catalogue value written by code, by name, or both (in either order): the code when only
/// one is legible, and nothing when the two disagree or the code is not in the catalogue.
fn coded(catalogue: &[(&'static str, &'static str)], value: &str) -> Option<String> {
    coded_words(catalogue, &pieces(value))
}

fn coded_words(catalogue: &[(&'static str, &'static str)], words: &[String]) -> Option<String> {
    let first = words.first()?;
    let known = |code: &str| catalogue.iter().any(|(c, _)| *c == code);
    if let Some(code) = two_digits(first) {
        if !known(&code) {
            return None;
        }
        // A name after the code must be the code's name, when it is a catalogue name at all.
        return match named(catalogue, &words[1..]) {
            Some((other, _)) if other != code => None,
            _ => Some(code),
        };
    }
    let (code, length) = named(catalogue, words)?;
    // A code written right after the name ("quincenal (04)") must agree with it.
    match words.get(length).and_then(|w| two_digits(w)) {
        Some(other) if other != code => None,
        _ => Some(code.to_owned()),
    }
}

/// `c_TipoRegimen` from a printed value ("02", "Sueldos", "02 - Sueldos", "Jubilados o
/// pensionados").
pub(crate) fn tipo_regimen(value: &str) -> Option<String> {
    coded(&TIPO_REGIMEN, value)
}

/// `c_PeriodicidadPago` from a printed value ("04", "Quincenal", "04-QUINCENAL", "quincenal
/// (04)"); a value that starts with other words ("Pago quincenal") is read by
/// [`periodicidad_anywhere`] instead.
pub(crate) fn periodicidad(value: &str) -> Option<String> {
    coded(&PERIODICIDAD, value)
}

/// Without a legible label: the one frequency the whole text names ("Pago quincenal (04)",
/// "Nómina semanal"), a code beside it checked as in [`periodicidad`]; `None` when the text
/// names none or more than one.
pub(crate) fn periodicidad_anywhere(lines: &[Line]) -> Option<String> {
    let mut found: Vec<Option<String>> = Vec::new();
    for line in lines {
        let words = pieces(&line.text());
        for at in 0..words.len() {
            if named(&PERIODICIDAD, &words[at..]).is_some() {
                found.push(coded_words(&PERIODICIDAD, &words[at..]));
            }
        }
    }
    found.sort();
    found.dedup();
    match found.as_slice() {
        [Some(code)] => Some(code.clone()),
        _ => None,
    }
}

/// A `c_Estado` code as OCR reads it (`0` for `O` undone), only when the catalogue has it.
pub(crate) fn estado(token: &str) -> Option<String> {
    let t: String = token.chars().flat_map(char::to_uppercase).map(|c| if c == '0' { 'O' } else { c }).collect();
    ESTADOS.contains(&t.as_str()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regime_by_code_name_or_both_and_never_when_they_disagree() {
        for (value, code) in [
            ("02", "02"),
            ("Sueldos", "02"),
            ("02 - Sueldos", "02"),
            ("SUELDOS Y SALARIOS", "02"),
            ("Jubilados o pensionados", "12"),
            ("Jubilados", "03"),
            ("Asimilados Honorarios", "09"),
            ("Indemnización o separación", "13"),
            ("O2", "02"),
        ] {
            assert_eq!(tipo_regimen(value).as_deref(), Some(code), "{value}");
        }
        for value in ["02 Pensionados", "fiscal: 601 General de Ley", "601", "77", "Sueldoss", ""] {
            assert_eq!(tipo_regimen(value), None, "{value}");
        }
    }

    #[test]
    fn frequency_by_code_name_or_both() {
        for (value, code) in [("04", "04"), ("Quincenal", "04"), ("04-QUINCENAL", "04"), ("quincenal (04)", "04"), ("05 Mensual", "05"), ("Diario", "01")] {
            assert_eq!(periodicidad(value).as_deref(), Some(code), "{value}");
        }
        for value in ["04-MENSUAL", "quincenal (05)", "33", "Pago quincenal"] {
            assert_eq!(periodicidad(value), None, "{value}");
        }
        let lines = text::lines("Días: 15\nPago quincenal (04)\nNómina ordinaria");
        assert_eq!(periodicidad_anywhere(&lines).as_deref(), Some("04"));
        let two = text::lines("Pago quincenal\nBono mensual");
        assert_eq!(periodicidad_anywhere(&two), None, "two frequencies named: no guess");
        assert_eq!(periodicidad_anywhere(&text::lines("Pago quincenal (05)")), None);
    }

    #[test]
    fn states_of_the_catalogue_only() {
        assert_eq!(estado("JAL").as_deref(), Some("JAL"));
        assert_eq!(estado("c0l").as_deref(), Some("COL"));
        assert_eq!(estado("XYZ"), None);
        assert_eq!(estado("DEL"), None);
    }
}
