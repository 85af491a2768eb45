//! The calculators: `POST /api/v1/score` (one profile, the API's hot path) and
//! `POST /api/v1/score/lote` (up to 1,000 profiles for partners). Both store nothing.

use axum::{
    body::Bytes,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, value::RawValue};
use utoipa::ToSchema;

use super::schemas::{Profile, ScoreReport};
use crate::{
    http::{
        ApiJson, DataResponse, ErrorBody, JsonContentType, ScoreClient,
        error::{ApiError, ApiResult, ScoreErrorItem},
    },
    state::AppState,
};

/// `data` of the stateless calculator.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreData {
    /// The `platform_score` object of spec 2.4 (keys and numbers of score-core and the fixtures).
    #[schema(value_type = ScoreReport)]
    pub platform_score: Value,
}

/// Stateless calculator: the `platform_score` of a profile, stored nowhere.
#[utoipa::path(post, path = "/api/v1/score", tag = "score",
    request_body(content = Profile, description = "A score-core profile (contact fields are not accepted here: it stores nothing).", example = crate::routes::examples::score_profile),
    responses(
        (status = 200, description = "The score", body = DataResponse<ScoreData>),
        (status = 400, description = "Malformed profile (`INVALID_JSON`, `INVALID_TYPE`, `MISSING_FIELD`, `UNKNOWN_FIELD`)", body = crate::http::error::ScoreErrorBody),
        (status = 422, description = "Values the model rejects (`UNKNOWN_STATE`, `UNKNOWN_INCOME_TYPE`, `UNKNOWN_INSTITUTION`, `NEGATIVE_AMOUNT`, `AMOUNT_TOO_LARGE`, `NOT_AN_INTEGER`, `VALUE_OUT_OF_RANGE`)", body = crate::http::error::ScoreErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn score_stateless(
    State(state): State<AppState>,
    client: ScoreClient,
    _json: JsonContentType,
    body: Bytes,
) -> ApiResult<Response> {
    client.spend(&state, 1).await?;
    // The hot path of the API: the body goes straight to score-core as text and its compact
    // JSON report is spliced into the envelope, with no intermediate `Value` either way (the
    // same codes as `ApiJson`: 415 without a JSON content type, 400 `INVALID_JSON`).
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request("INVALID_JSON", "El cuerpo de la solicitud no es un JSON válido"))?;
    let report = score_core::ValidProfile::from_json_str(text)?.score_calibrated(&state.config.calibration);
    state.metrics.record_score(report.nivel.as_str());
    let mut out = Vec::with_capacity(4096);
    out.extend_from_slice(br#"{"status":"success","data":{"platform_score":"#);
    report.write_json(&mut out);
    out.extend_from_slice(b"}}");
    Ok(([(header::CONTENT_TYPE, "application/json")], out).into_response())
}

/// Most profiles in one batch.
pub const BATCH_MAX_PROFILES: usize = 1000;

/// Largest batch body: 1,000 profiles of about 1 KiB each.
pub const BATCH_MAX_BYTES: usize = 1024 * 1024;

/// Body of `POST /api/v1/score/lote`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// 1 to 1,000 profiles, each like the body of `POST /api/v1/score`.
    #[schema(value_type = Vec<Profile>)]
    /// Each profile as its raw JSON text, so that score-core reads its numbers from the
    /// digits written, as `POST /api/v1/score` does.
    pub perfiles: Vec<Box<RawValue>>,
}

/// One result of a batch, in the order of `perfiles`: a report or the error of that profile.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchItem {
    /// Position of the profile in `perfiles`, from 0.
    pub indice: usize,
    /// The report, by score-core's own writer (absent when the profile has an error).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<ScoreReport>)]
    pub platform_score: Option<Box<RawValue>>,
    /// The error of this profile (absent when it was scored).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<BatchError>,
}

/// The error of one profile of a batch: the same `code`, `message`, `field` and `errores`
/// (every mistake of the profile) as `POST /api/v1/score` would answer.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "code": "UNKNOWN_STATE",
    "errores": [{"campo": "estado", "codigo": "UNKNOWN_STATE", "mensaje": "El campo \"estado\" no reconoce \"Atlantis\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial."}],
    "field": "estado",
    "message": "El campo \"estado\" no reconoce \"Atlantis\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial.",
}))]
pub struct BatchError {
    /// The first mistake's stable code.
    pub code: &'static str,
    /// Every mistake of the profile.
    #[schema(value_type = Vec<ScoreErrorItem>)]
    pub errores: Value,
    /// The first mistake's field (its path), null for the whole input.
    pub field: Option<String>,
    /// The first mistake's Spanish message.
    pub message: String,
}

impl BatchError {
    fn new(e: &score_core::ScoreError) -> Self {
        Self {
            code: e.code.as_str(),
            // As a JSON value: the mistakes' keys in the order of every error envelope.
            errores: serde_json::to_value(&e.errors).unwrap_or_default(),
            field: e.field.clone(),
            message: e.message.clone(),
        }
    }
}

/// `data` of a batch.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchData {
    pub resultados: Vec<BatchItem>,
    /// Profiles received.
    pub total: usize,
    /// Profiles scored.
    pub puntuados: usize,
    /// Profiles with an error.
    pub errores: usize,
}

/// Batch calculator for partners: up to 1,000 profiles in one request, each scored like
/// `POST /api/v1/score` (stored nowhere). A bad profile does not fail the batch: its result
/// carries its error in place. Each profile counts against the rate limit (an API key's own
/// limit, else the address's).
#[utoipa::path(post, path = "/api/v1/score/lote", tag = "score",
    request_body(content = BatchRequest, example = crate::routes::examples::score_batch),
    security((), ("partner" = [])),
    responses(
        (status = 200, description = "Every profile's report or error, in order", body = DataResponse<BatchData>),
        (status = 422, description = "`perfiles` missing, empty or longer than 1,000 (`VALIDATION_ERROR`), or more profiles than the caller's limit per minute (`BATCH_OVER_RATE_LIMIT`)", body = ErrorBody),
        (status = 429, description = "Rate limited (each profile counts)", body = ErrorBody),
    ))]
pub async fn score_batch(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiJson(req): ApiJson<BatchRequest>,
) -> ApiResult<axum::Json<DataResponse<BatchData>>> {
    let n = req.perfiles.len();
    if n == 0 || n > BATCH_MAX_PROFILES {
        return Err(ApiError::validation(format!(
            "El campo perfiles debe tener entre 1 y {BATCH_MAX_PROFILES} perfiles"
        ))
        .with("field", "perfiles"));
    }
    // A batch larger than the whole budget of a minute could never pass: say so instead of 429.
    let limit = client.limit_per_minute(&state);
    if n as u64 > u64::from(limit) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "BATCH_OVER_RATE_LIMIT",
            format!("El lote tiene más perfiles ({n}) que tu límite por minuto ({limit}); divídelo o usa una clave de API con un límite mayor."),
        )
        .with("field", "perfiles"));
    }
    client.spend(&state, n as u32).await?;
    // Read here, scored by score-core's batch over the cores on a blocking thread: a thousand
    // reports are milliseconds of CPU that must not hold one of the executor's threads.
    let inputs: Vec<score_core::batch::Input> =
        req.perfiles.iter().map(|profile| score_core::Profile::from_json_str(profile.get())).collect();
    let results = tokio::task::spawn_blocking(move || score_core::batch::score_all(&inputs))
        .await
        .map_err(ApiError::internal)?;
    // Each report written by score-core's own writer, kept as its JSON text in the envelope.
    let mut scored = 0;
    let mut resultados = Vec::with_capacity(n);
    for (indice, result) in results.iter().enumerate() {
        let (platform_score, error) = match result {
            Ok(report) => {
                state.metrics.record_score(report.nivel.as_str());
                scored += 1;
                let mut text = Vec::with_capacity(3072);
                report.write_json(&mut text);
                let text = String::from_utf8(text).map_err(ApiError::internal)?;
                (Some(RawValue::from_string(text).map_err(ApiError::internal)?), None)
            }
            Err(e) => (None, Some(BatchError::new(e))),
        };
        resultados.push(BatchItem { indice, platform_score, error });
    }
    Ok(axum::Json(DataResponse::new(BatchData { resultados, total: n, puntuados: scored, errores: n - scored })))
}

