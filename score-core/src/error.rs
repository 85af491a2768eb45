//! The one error type of the model, with stable machine codes, and the one table of its
//! messages.
//!
//! Codes are UPPER_SNAKE_CASE and never change meaning: Python's `ScoreError.code`, the JS
//! `error.code`, the HTTP envelope's `code` and the fixtures' `error.code` all carry the same
//! string. Messages are Spanish sentences for people and may be reworded; tests of other
//! surfaces assert on codes.
//!
//! A profile is checked whole: a [`ScoreError`] carries every mistake found
//! ([`ScoreError::errors`], each a [`ErrorDetail`] `{codigo, campo, mensaje}`), and repeats the
//! first one as its own `code`, `field` and `message`. Each message is made from one template
//! of [`Falla::plantilla`] (the kinds of mistake, as pydantic-core's error types are), never
//! written at the check that finds it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable machine code of a [`ScoreError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The input text is not valid JSON.
    InvalidJson,
    /// A value has the wrong JSON type (for example a string where a number is expected),
    /// or the profile itself is not a JSON object.
    InvalidType,
    /// A required field is absent or `null`.
    MissingField,
    /// The profile carries a field the model does not know (typos surface here).
    UnknownField,
    /// `estado` is not one of the 32 federal entities.
    UnknownState,
    /// `tipo_ingreso` is not one of the documented income types.
    UnknownIncomeType,
    /// `institucion` is not one of the documented housing funds.
    UnknownInstitution,
    /// A money amount is below zero.
    NegativeAmount,
    /// A money amount is above the model's plausibility ceiling.
    AmountTooLarge,
    /// A count (months, years, persons) has a fractional part.
    NotAnInteger,
    /// A value is outside its documented range (for example `edad` 15 or an income of 0).
    ValueOutOfRange,
    /// A calibration document is not valid; `field` is the path of the key at fault
    /// (`productos[2].tasa_anual`).
    CalibrationInvalid,
}

impl ErrorCode {
    /// Every code, in declaration order (used by docs and tests).
    pub const ALL: [ErrorCode; 12] = [
        ErrorCode::InvalidJson,
        ErrorCode::InvalidType,
        ErrorCode::MissingField,
        ErrorCode::UnknownField,
        ErrorCode::UnknownState,
        ErrorCode::UnknownIncomeType,
        ErrorCode::UnknownInstitution,
        ErrorCode::NegativeAmount,
        ErrorCode::AmountTooLarge,
        ErrorCode::NotAnInteger,
        ErrorCode::ValueOutOfRange,
        ErrorCode::CalibrationInvalid,
    ];

    /// The stable UPPER_SNAKE_CASE string of this code.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "INVALID_JSON",
            ErrorCode::InvalidType => "INVALID_TYPE",
            ErrorCode::MissingField => "MISSING_FIELD",
            ErrorCode::UnknownField => "UNKNOWN_FIELD",
            ErrorCode::UnknownState => "UNKNOWN_STATE",
            ErrorCode::UnknownIncomeType => "UNKNOWN_INCOME_TYPE",
            ErrorCode::UnknownInstitution => "UNKNOWN_INSTITUTION",
            ErrorCode::NegativeAmount => "NEGATIVE_AMOUNT",
            ErrorCode::AmountTooLarge => "AMOUNT_TOO_LARGE",
            ErrorCode::NotAnInteger => "NOT_AN_INTEGER",
            ErrorCode::ValueOutOfRange => "VALUE_OUT_OF_RANGE",
            ErrorCode::CalibrationInvalid => "CALIBRATION_INVALID",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A kind of mistake: its [`ErrorCode`] and the template of its message. A code may have
/// several kinds (VALUE_OUT_OF_RANGE is "greater than 0", "between" and "less than the
/// household's"), each with its own sentence; every code has at least one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Falla {
    /// The text is not JSON (`{detalle}`: the parser's words).
    JsonInvalido,
    /// The profile is a JSON value but not an object.
    PerfilNoObjeto,
    /// A host value that is not an object where the profile belongs (`{recibido}`).
    PerfilNoJson,
    /// A field's value has another JSON type (`{esperado}`, `{recibido}`).
    TipoIncorrecto,
    /// A field holds a host value with no JSON form (`{recibido}`).
    ValorNoJson,
    /// A batch call given something that is not a list (`{funcion}`).
    NoEsLista,
    /// A call's option of another type, or an options value that is not an object
    /// (`{funcion}`, `{opcion}`, `{validos}`).
    OpcionTipo,
    /// A call's option with a value it does not admit (`{funcion}`, `{opcion}`, `{validos}`,
    /// `{valor}`).
    OpcionValor,
    /// The options of a call that are not an object (`{funcion}`).
    OpcionesNoObjeto,
    /// A call that takes a JSON text given something else (`{funcion}`).
    NoEsTexto,
    /// A required field is absent or null.
    Obligatorio,
    /// The co-borrower's debts declared without the household's.
    DeudasSinLasDelHogar,
    /// A key the object does not have (`{donde}`, `{validos}`).
    CampoDesconocido,
    /// `estado` names no federal entity (`{valor}`).
    EstadoDesconocido,
    /// `tipo_ingreso` names no income type (`{valor}`).
    TipoIngresoDesconocido,
    /// `institucion` names no housing fund (`{valor}`).
    InstitucionDesconocida,
    /// An amount below zero.
    Negativo,
    /// An amount above its ceiling (`{max}`).
    Excede,
    /// A number no amount admits (a double beyond every ceiling).
    FueraDeRango,
    /// A count with a fraction (`{valor}`).
    NoEntero,
    /// An income of zero.
    NoMayorQueCero,
    /// A count outside its range (`{min}`, `{max}`).
    FueraDeIntervalo,
    /// A non-zero amount below a centavo (`{min}`).
    MenorQueCentavo,
    /// The co-borrower's income not below the household's (`{max}`).
    IngresoCoacreditado,
    /// The co-borrower's debts above the household's (`{max}`).
    DeudasCoacreditado,
    /// A calibration document refused at the key `{campo}` (`{detalle}`: the check's sentence,
    /// which names the figure and what it must be).
    CalibracionInvalida,
}

impl Falla {
    /// Every kind, in table order (docs and tests).
    pub const ALL: [Falla; 26] = [
        Falla::JsonInvalido,
        Falla::PerfilNoObjeto,
        Falla::PerfilNoJson,
        Falla::TipoIncorrecto,
        Falla::ValorNoJson,
        Falla::NoEsLista,
        Falla::OpcionTipo,
        Falla::OpcionValor,
        Falla::OpcionesNoObjeto,
        Falla::NoEsTexto,
        Falla::Obligatorio,
        Falla::DeudasSinLasDelHogar,
        Falla::CampoDesconocido,
        Falla::EstadoDesconocido,
        Falla::TipoIngresoDesconocido,
        Falla::InstitucionDesconocida,
        Falla::Negativo,
        Falla::Excede,
        Falla::FueraDeRango,
        Falla::NoEntero,
        Falla::NoMayorQueCero,
        Falla::FueraDeIntervalo,
        Falla::MenorQueCentavo,
        Falla::IngresoCoacreditado,
        Falla::DeudasCoacreditado,
        Falla::CalibracionInvalida,
    ];

    /// The code and the message template of this kind: the one table of the model's messages.
    /// `{campo}` is the field's path; the other names are this kind's context.
    pub const fn plantilla(self) -> (ErrorCode, &'static str) {
        use ErrorCode as C;
        match self {
            Falla::JsonInvalido => (C::InvalidJson, "El perfil no es JSON válido: {detalle}."),
            Falla::PerfilNoObjeto => (C::InvalidType, "El perfil debe ser un objeto JSON con los campos del comprador."),
            Falla::PerfilNoJson => (C::InvalidType, "El perfil debe ser un objeto con los campos del comprador, no {recibido}."),
            Falla::TipoIncorrecto => (C::InvalidType, "El campo \"{campo}\" debe ser {esperado}, no {recibido}."),
            Falla::ValorNoJson => (C::InvalidType, "El campo \"{campo}\" tiene {recibido}, que no es un valor JSON."),
            Falla::NoEsLista => (C::InvalidType, "{funcion} espera una lista de perfiles."),
            Falla::OpcionTipo => (C::InvalidType, "La opción \"{opcion}\" de {funcion} debe ser {validos}, no un valor de otro tipo."),
            Falla::OpcionValor => (C::ValueOutOfRange, "La opción \"{opcion}\" de {funcion} debe ser {validos}, no {valor}."),
            Falla::OpcionesNoObjeto => (C::InvalidType, "Las opciones de {funcion} deben ser un objeto como { errors: \"return\" }."),
            Falla::NoEsTexto => (C::InvalidType, "{funcion} espera el perfil como texto JSON."),
            Falla::Obligatorio => (C::MissingField, "El campo \"{campo}\" es obligatorio."),
            Falla::DeudasSinLasDelHogar => (
                C::MissingField,
                "El campo \"coacreditado.deudas_mensuales\" es la parte de las deudas del hogar que paga el coacreditado: declara también \"deudas_mensuales\", las del hogar completo.",
            ),
            Falla::CampoDesconocido => (C::UnknownField, "El campo \"{campo}\" no existe en {donde}. Campos válidos: {validos}."),
            Falla::EstadoDesconocido => (
                C::UnknownState,
                "El campo \"{campo}\" no reconoce \"{valor}\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial.",
            ),
            Falla::TipoIngresoDesconocido => (
                C::UnknownIncomeType,
                "El campo \"{campo}\" no admite \"{valor}\": usa asalariado, independiente, mixto o pensionado.",
            ),
            Falla::InstitucionDesconocida => (
                C::UnknownInstitution,
                "El campo \"{campo}\" no admite \"{valor}\": usa INFONAVIT, FOVISSSTE o NINGUNA.",
            ),
            Falla::Negativo => (C::NegativeAmount, "El campo \"{campo}\" no puede ser negativo."),
            Falla::Excede => (C::AmountTooLarge, "El campo \"{campo}\" supera el máximo admitido de {max} MXN."),
            Falla::FueraDeRango => (C::AmountTooLarge, "El campo \"{campo}\" tiene un valor fuera del rango admitido."),
            Falla::NoEntero => (C::NotAnInteger, "El campo \"{campo}\" debe ser un número entero, no {valor}."),
            Falla::NoMayorQueCero => (C::ValueOutOfRange, "El campo \"{campo}\" debe ser mayor que 0."),
            Falla::FueraDeIntervalo => (C::ValueOutOfRange, "El campo \"{campo}\" debe estar entre {min} y {max}."),
            Falla::MenorQueCentavo => (
                C::ValueOutOfRange,
                "El campo \"{campo}\" es menor que un centavo ({min} MXN), la cantidad más pequeña admitida.",
            ),
            Falla::IngresoCoacreditado => (
                C::ValueOutOfRange,
                "El campo \"{campo}\" es la parte del ingreso del hogar que gana el coacreditado: debe ser menor que \"ingreso_mensual\" ({max}), que incluye el ingreso de ambos.",
            ),
            Falla::DeudasCoacreditado => (
                C::ValueOutOfRange,
                "El campo \"{campo}\" es la parte de las deudas del hogar que paga el coacreditado: no puede superar \"deudas_mensuales\" ({max}).",
            ),
            Falla::CalibracionInvalida => (C::CalibrationInvalid, "La calibración no es válida. {detalle}"),
        }
    }

    /// The code of this kind.
    pub const fn codigo(self) -> ErrorCode {
        self.plantilla().0
    }

    /// This mistake at `campo` (a field's path, `None` for the whole input), its message made
    /// from the template with `contexto`'s values (`{name}` of a name not given stays as
    /// written).
    pub fn en(self, campo: Option<&str>, contexto: &[(&str, &dyn fmt::Display)]) -> ErrorDetail {
        let (codigo, plantilla) = self.plantilla();
        let mut mensaje = String::with_capacity(plantilla.len() + 32);
        let campo_text = campo.as_ref();
        let mut rest = plantilla;
        while let Some(open) = rest.find('{') {
            mensaje.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let name = after.find('}').map(|close| &after[..close]);
            let value: Option<&dyn fmt::Display> = match name {
                Some("campo") => campo_text.map(|c| c as &dyn fmt::Display),
                Some(name) => contexto.iter().find(|(n, _)| *n == name).map(|(_, v)| *v),
                None => None,
            };
            match (name, value) {
                (Some(name), Some(value)) => {
                    use fmt::Write as _;
                    let _ = write!(mensaje, "{value}");
                    rest = &after[name.len() + 1..];
                }
                _ => {
                    mensaje.push('{');
                    rest = after;
                }
            }
        }
        mensaje.push_str(rest);
        ErrorDetail { codigo, campo: campo.map(str::to_owned), mensaje }
    }
}

/// One mistake of a profile, as every surface gives it (`{codigo, campo, mensaje}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// Stable machine code.
    pub codigo: ErrorCode,
    /// The field's path (`coacreditado.edad`), `None` when the whole input is at fault.
    pub campo: Option<String>,
    /// Spanish explanation, from [`Falla::plantilla`].
    pub mensaje: String,
}

/// Why a profile could not be scored: every mistake found ([`ScoreError::errors`], in the
/// order documented at [`crate::Profile::from_json_value`]), the first one also as a stable
/// [`ErrorCode`], the offending field (when there is one) and a Spanish message that names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ScoreError {
    /// Stable machine code of the first mistake.
    pub code: ErrorCode,
    /// The profile field at fault in the first mistake, `None` when the whole input is.
    pub field: Option<String>,
    /// Human-readable Spanish explanation of the first mistake.
    pub message: String,
    /// Every mistake, the first one included, in a stable order; never empty.
    #[serde(rename = "errores")]
    pub errors: Vec<ErrorDetail>,
}

impl ScoreError {
    /// The error of these mistakes (the first one in front), `None` when there are none.
    pub fn from_errors(errors: Vec<ErrorDetail>) -> Option<ScoreError> {
        let first = errors.first()?;
        Some(ScoreError { code: first.codigo, field: first.campo.clone(), message: first.mensaje.clone(), errors })
    }
}

impl From<ErrorDetail> for ScoreError {
    fn from(detail: ErrorDetail) -> Self {
        ScoreError {
            code: detail.codigo,
            field: detail.campo.clone(),
            message: detail.mensaje.clone(),
            errors: vec![detail],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_template() {
        for code in ErrorCode::ALL {
            assert!(Falla::ALL.iter().any(|f| f.codigo() == code), "{code} has no template");
        }
    }

    #[test]
    fn templates_fill_their_names_and_keep_other_braces() {
        let d = Falla::FueraDeIntervalo.en(Some("edad"), &[("min", &18), ("max", &100)]);
        assert_eq!((d.codigo, d.mensaje.as_str()), (ErrorCode::ValueOutOfRange, "El campo \"edad\" debe estar entre 18 y 100."));
        let d = Falla::OpcionesNoObjeto.en(None, &[("funcion", &"scoreMany")]);
        assert_eq!(d.mensaje, "Las opciones de scoreMany deben ser un objeto como { errors: \"return\" }.");
        let e = ScoreError::from(d.clone());
        assert_eq!((e.code, e.field, e.message, e.errors), (d.codigo, None, d.mensaje.clone(), vec![d]));
        assert_eq!(ScoreError::from_errors(Vec::new()), None);
    }
}
