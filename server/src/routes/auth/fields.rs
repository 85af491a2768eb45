//! The checks of the account texts (names, phone, company, e-mail): the message names the
//! field as the request does.

use crate::{
    domain::accounts,
    domain::users::normalize_email,
    http::error::{ApiError, ApiResult},
    http::text::has_forbidden_char,
};

pub(super) fn required_text(
    v: Option<String>,
    field: &str,
    label: &str,
    max: usize,
) -> ApiResult<String> {
    let v = v.map(|s| s.trim().to_string()).unwrap_or_default();
    if v.is_empty() {
        return Err(
            ApiError::validation(format!("El campo {label} es obligatorio")).with("field", field),
        );
    }
    if v.chars().count() > max {
        return Err(ApiError::validation(format!(
            "El campo {label} admite como máximo {max} caracteres"
        ))
        .with("field", field));
    }
    if has_forbidden_char(&v, false) {
        return Err(forbidden_chars(field, label));
    }
    Ok(v)
}

pub(super) fn optional_text(
    v: Option<String>,
    field: &str,
    label: &str,
    max: usize,
) -> ApiResult<Option<String>> {
    match v.map(|s| s.trim().to_string()) {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) if s.chars().count() > max => Err(ApiError::validation(format!(
            "El campo {label} admite como máximo {max} caracteres"
        ))
        .with("field", field)),
        Some(s) if has_forbidden_char(&s, false) => Err(forbidden_chars(field, label)),
        Some(s) => Ok(Some(s)),
    }
}

fn forbidden_chars(field: &str, label: &str) -> ApiError {
    ApiError::validation(format!(
        "El campo {label} contiene caracteres no permitidos"
    ))
    .with("field", field)
}

pub(super) fn valid_email(v: Option<String>) -> ApiResult<String> {
    let email = required_text(v, "email", "email", 254)?;
    if !accounts::is_valid_email(&email) {
        return Err(
            ApiError::validation("El correo electrónico no es válido").with("field", "email")
        );
    }
    Ok(normalize_email(&email))
}
