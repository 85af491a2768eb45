//! Checks of the texts a request brings: trimmed, bounded, free of control characters (only
//! multi-line fields keep newlines and tabs), and the PATCH convention of `null`.

use serde::{Deserialize, Deserializer};

use crate::domain::error::{DomainError, DomainResult};

/// For PATCH-like bodies: absent → `None`, `null` → `Some(None)`, value → `Some(Some(v))`.
pub fn patch<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Some(Option::deserialize(d)?))
}

fn field_error(field: &str, message: impl Into<String>) -> DomainError {
    DomainError::validation(message).with("field", field)
}

/// A required text (trimmed, 1..=max characters, no control characters).
pub fn required_text(v: &str, field: &str, max: usize) -> DomainResult<String> {
    let v = v.trim();
    if v.is_empty() {
        return Err(field_error(field, format!("El campo {field} es obligatorio")));
    }
    check_text(v, field, max, false)?;
    Ok(v.to_string())
}

/// The one text rule of the API: no control character (C0, DEL, C1: NUL among them, which
/// PostgreSQL cannot store), except newlines and tabs in the fields that allow several lines.
/// Applied to every JSON body ([`json_has_forbidden_control`]), query string and path parameter
/// by the extractors, and to each field by the checks below.
pub fn is_forbidden_char(c: char, multiline: bool) -> bool {
    c.is_control() && !(multiline && matches!(c, '\n' | '\r' | '\t'))
}

/// True when a text breaks [`is_forbidden_char`].
pub fn has_forbidden_char(v: &str, multiline: bool) -> bool {
    v.chars().any(|c| is_forbidden_char(c, multiline))
}

/// True when a JSON text carries a control character in a string other than a newline or a
/// tab (as a `\u00XX` escape or raw): such a body is refused before it is read into a type,
/// whatever the field. Backslash pairs are skipped, so `\\u0000` (a backslash and `u0000`)
/// is text, not a control character.
pub fn json_has_forbidden_control(body: &[u8]) -> bool {
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            0x7f => return true,
            0xc2 if matches!(body.get(i + 1), Some(0x80..=0x9f)) => return true,
            b'\\' => {
                if body.get(i + 1) == Some(&b'u') {
                    let code = body
                        .get(i + 2..i + 6)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u32::from_str_radix(h, 16).ok());
                    if let Some(c) = code.and_then(char::from_u32)
                        && is_forbidden_char(c, true)
                    {
                        return true;
                    }
                    i += 6;
                } else {
                    i += 2;
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn check_text(v: &str, field: &str, max: usize, multiline: bool) -> DomainResult<()> {
    if v.chars().count() > max {
        return Err(field_error(
            field,
            format!("El campo {field} admite como máximo {max} caracteres"),
        ));
    }
    if has_forbidden_char(v, multiline) {
        return Err(field_error(
            field,
            format!("El campo {field} contiene caracteres no permitidos"),
        ));
    }
    Ok(())
}

/// An optional text: empty or `null` clears it.
pub fn optional_text(v: Option<String>, field: &str, max: usize) -> DomainResult<Option<String>> {
    optional_text_ml(v, field, max, false)
}

pub fn optional_text_ml(
    v: Option<String>,
    field: &str,
    max: usize,
    multiline: bool,
) -> DomainResult<Option<String>> {
    match v.map(|s| s.trim().to_string()) {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) => {
            check_text(&s, field, max, multiline)?;
            Ok(Some(s))
        }
    }
}

/// An optional absolute http(s) URL (at most 500 characters).
pub fn optional_url(v: Option<String>, field: &str) -> DomainResult<Option<String>> {
    let Some(s) = optional_text(v, field, 500)? else {
        return Ok(None);
    };
    match url::Url::parse(&s) {
        Ok(u) if (u.scheme() == "http" || u.scheme() == "https") && u.host().is_some() => {
            Ok(Some(s))
        }
        _ => Err(field_error(
            field,
            format!("El campo {field} debe ser una URL http(s) válida"),
        )),
    }
}

/// An optional date `YYYY-MM-DD` (a real calendar date between 1900 and 2100).
pub fn optional_date(v: Option<String>, field: &str) -> DomainResult<Option<String>> {
    let Some(s) = optional_text(v, field, 10)? else {
        return Ok(None);
    };
    let bad = || field_error(field, format!("El campo {field} debe ser una fecha YYYY-MM-DD"));
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return Err(bad());
    }
    let y: i32 = s[0..4].parse().map_err(|_| bad())?;
    let m: u8 = s[5..7].parse().map_err(|_| bad())?;
    let d: u8 = s[8..10].parse().map_err(|_| bad())?;
    let month = time::Month::try_from(m).map_err(|_| bad())?;
    if !(1900..=2100).contains(&y) || time::Date::from_calendar_date(y, month, d).is_err() {
        return Err(bad());
    }
    Ok(Some(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters() {
        assert!(json_has_forbidden_control(br#"{"a":"x\u0000y"}"#));
        assert!(json_has_forbidden_control(br#"{"a":"x\u001B"}"#));
        assert!(json_has_forbidden_control("{\"a\":\"x\u{85}\"}".as_bytes()));
        assert!(json_has_forbidden_control(b"{\"a\":\"x\x7f\"}"));
        assert!(!json_has_forbidden_control(br#"{"a":"l1\nl2\t\r\u000A"}"#));
        assert!(!json_has_forbidden_control(br#"{"a":"\\u0000 is text"}"#));
        assert!(!json_has_forbidden_control("{\"a\":\"Peña Ñandú ü\"}".as_bytes()));
        assert!(has_forbidden_char("a\0b", true));
        assert!(has_forbidden_char("a\nb", false));
        assert!(!has_forbidden_char("a\nb", true));
    }

    #[test]
    fn dates() {
        assert!(optional_date(Some("2015-02-28".into()), "d").is_ok());
        assert!(optional_date(Some("2015-02-30".into()), "d").is_err());
        assert!(optional_date(Some("15-02-2015".into()), "d").is_err());
    }
}
