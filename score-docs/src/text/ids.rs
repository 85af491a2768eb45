//! The identifiers a printed document carries: the CFDI's folio fiscal (UUID), RFCs with their
//! check digit, and CURPs, each read from one token with OCR's letter/digit confusions undone
//! where the identifier's shape says which kind of character stands there.

use super::{as_digit, as_letter, tokens};

/// A CFDI folio fiscal: 8-4-4-4-12 hexadecimal digits, upper-case (`O` read for `0` undone).
pub(crate) fn parse_uuid(token: &str) -> Option<String> {
    let t: String = token.chars().map(|c| if c == 'O' || c == 'o' { '0' } else { c.to_ascii_uppercase() }).collect();
    let groups: Vec<&str> = t.split('-').collect();
    let ok = groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    ok.then_some(t)
}

/// A hexadecimal digit where OCR read something that looks like one (a UUID holds nothing
/// else, so a letter outside A–F can only be a misread digit).
fn as_hex(c: char) -> char {
    match c {
        'O' | 'o' | 'Q' => '0',
        'I' | 'l' | '|' | 'i' | '!' => '1',
        'S' | 's' => '5',
        'Z' | 'z' => '2',
        'G' => '6',
        'T' => '7',
        'g' => '9',
        '–' | '—' | '_' => '-',
        c => c.to_ascii_uppercase(),
    }
}

/// The first UUID in a labelled value as OCR reads it: blanks next to its dashes dropped
/// (`A6E7 -7DFE`) and look-alike characters read as the hexadecimal digits they must be. A
/// token one character too long loses one character of a look-alike pair OCR doubled (`0O`,
/// `Il`: different as read, the same digit), if exactly one such reading is a UUID.
pub(crate) fn uuid_in(value: &str) -> Option<String> {
    let chars: Vec<char> = value.chars().collect();
    let joined: String = chars
        .iter()
        .enumerate()
        .filter(|&(i, c)| !(c.is_whitespace() && (chars[..i].iter().rev().find(|c| !c.is_whitespace()) == Some(&'-') || chars[i + 1..].iter().find(|c| !c.is_whitespace()) == Some(&'-'))))
        .map(|(_, &c)| c)
        .collect();
    let as_uuid = |token: &[char]| parse_uuid(&token.iter().map(|&c| as_hex(c)).collect::<String>());
    tokens(&joined).find_map(|token| {
        let raw: Vec<char> = token.chars().collect();
        match raw.len() {
            36 => as_uuid(&raw),
            37 => {
                let mut found: Option<String> = None;
                for i in (1..raw.len()).filter(|&i| raw[i] != raw[i - 1] && as_hex(raw[i]) == as_hex(raw[i - 1])) {
                    let shorter: Vec<char> = raw.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &c)| c).collect();
                    if let Some(candidate) = as_uuid(&shorter) {
                        match &found {
                            Some(f) if *f != candidate => return None,
                            _ => found = Some(candidate),
                        }
                    }
                }
                found
            }
            _ => None,
        }
    })
}

/// An RFC's shape: 3 (company) or 4 (person) letters, a `YYMMDD` date and a three-character
/// homoclave. Letters read as digits in the name part and digits read as letters in the
/// date part are undone; the homoclave is taken as read (its check digit judges it).
pub(crate) fn parse_rfc(token: &str) -> Option<String> {
    let t: Vec<char> = token.chars().flat_map(char::to_uppercase).collect();
    let letters = match t.len() {
        12 => 3,
        13 => 4,
        _ => return None,
    };
    let mut out = String::with_capacity(13);
    for (i, &c) in t.iter().enumerate() {
        let c = if i < letters {
            as_letter(c)
        } else if i < letters + 6 {
            as_digit(c)
        } else {
            c
        };
        let ok = if i < letters {
            c.is_ascii_uppercase() || c == '&' || c == 'Ñ'
        } else if i < letters + 6 {
            c.is_ascii_digit()
        } else {
            c.is_ascii_uppercase() || c.is_ascii_digit()
        };
        if !ok {
            return None;
        }
        out.push(c);
    }
    // The six digits are the date of birth or incorporation, YYMMDD.
    let digits: Vec<u32> = out.chars().skip(letters).take(6).filter_map(|c| c.to_digit(10)).collect();
    let (month, day) = (digits[2] * 10 + digits[3], digits[4] * 10 + digits[5]);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    Some(out)
}

/// Whether `chars[i]` repeats a neighbour as OCR doubles a letter (`QwW7`, `I1IA`): the same
/// character once look-alike digits are read as letters and case is ignored.
fn doubled(chars: &[char], i: usize) -> bool {
    let same = |a: char, b: char| as_letter(a.to_ascii_uppercase()) == as_letter(b.to_ascii_uppercase());
    (i > 0 && same(chars[i - 1], chars[i])) || (i + 1 < chars.len() && same(chars[i], chars[i + 1]))
}

/// The one reading of `token` that `parse` accepts and `valid` confirms, trying the token as
/// read and then without one character that OCR doubled; `None` when no reading or more than
/// one distinct reading qualifies (a guess is never taken).
fn repaired(token: &str, parse: fn(&str) -> Option<String>, valid: impl Fn(&str) -> bool) -> Option<String> {
    if let Some(read) = parse(token).filter(|r| valid(r)) {
        return Some(read);
    }
    let chars: Vec<char> = token.chars().collect();
    let mut found: Option<String> = None;
    for i in (0..chars.len()).filter(|&i| doubled(&chars, i)) {
        let shorter: String = chars.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, c)| c).collect();
        if let Some(candidate) = parse(&shorter).filter(|r| valid(r)) {
            match &found {
                Some(f) if *f != candidate => return None,
                _ => found = Some(candidate),
            }
        }
    }
    found
}

/// An RFC as [`parse_rfc`] reads it, preferring the reading whose check digit holds: a
/// character OCR doubled is dropped when exactly one such reading passes the check. A token
/// one character longer than any RFC (`HELR550320QwW7`) loses its doubled character even when
/// the check digit then fails. An RFC whose check digit fails is returned as read, and fails
/// the receipt's checks.
pub(crate) fn parse_rfc_checked(token: &str) -> Option<String> {
    repaired(token, parse_rfc, rfc_check_digit_ok)
        .or_else(|| parse_rfc(token))
        .or_else(|| (token.chars().count() == 14).then(|| repaired(token, parse_rfc, |_| true)).flatten())
}

/// A CURP as [`parse_curp`] reads it, or, for a 19-character token, the one reading without
/// a character OCR doubled.
pub(crate) fn parse_curp_repaired(token: &str) -> Option<String> {
    parse_curp(token).or_else(|| repaired(token, parse_curp, |_| true))
}

/// Whether an RFC's last character is the check digit of the others (the SAT's algorithm:
/// each of the first twelve characters, a company's RFC padded with a leading blank, valued
/// by its place in `0-9 A-N & O-Z blank Ñ` and weighted 13 down to 2; the digit is 11 minus
/// the sum modulo 11, `A` for 10 and `0` for 11).
pub fn rfc_check_digit_ok(rfc: &str) -> bool {
    const ALPHABET: &str = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ";
    let mut chars: Vec<char> = rfc.chars().collect();
    if chars.len() == 12 {
        chars.insert(0, ' ');
    }
    if chars.len() != 13 {
        return false;
    }
    let mut sum = 0usize;
    for (i, c) in chars[..12].iter().enumerate() {
        let Some(value) = ALPHABET.chars().position(|a| a == *c) else { return false };
        sum += value * (13 - i);
    }
    let expected = match 11 - sum % 11 {
        11 => '0',
        10 => 'A',
        d => char::from_digit(u32::try_from(d).unwrap_or(0), 10).unwrap_or('?'),
    };
    chars[12] == expected
}

/// A CURP's shape: 4 letters, `YYMMDD`, sex, state, 3 consonants, a homoclave and a digit.
/// The homoclave (17th character) is a digit for people born up to 1999 and a letter from
/// 2000 (RENAPO): with `YY` from 30 to 99 the birth can only be 1930–1999, so a letter read
/// there is OCR's confusion of a digit and is undone; otherwise it is taken as read.
pub(crate) fn parse_curp(token: &str) -> Option<String> {
    let t: Vec<char> = token.chars().flat_map(char::to_uppercase).collect();
    if t.len() != 18 {
        return None;
    }
    let year: String = t[4..6].iter().map(|&c| as_digit(c)).collect();
    let born_in_1900s = year.parse::<u32>().is_ok_and(|yy| yy >= 30);
    let out: String = t
        .iter()
        .enumerate()
        .map(|(i, &c)| match i {
            0..=3 | 10..=15 => as_letter(c),
            4..=9 | 17 => as_digit(c),
            16 if born_in_1900s => as_digit(c),
            _ => c,
        })
        .collect();
    let ok = out.chars().enumerate().all(|(i, c)| match i {
        0..=3 | 10..=15 => c.is_ascii_uppercase(),
        4..=9 | 17 => c.is_ascii_digit(),
        _ => c.is_ascii_alphanumeric(),
    });
    ok.then_some(out)
}
