//! The credit-score API (spec 4.3) under `/api/v1`: public, rate limited per client IP
//! (`SCORE_RATE_LIMIT_PER_MINUTE`), `{"status": "success", "data": ...}` envelopes, and the
//! `platform_score` object of score-core returned unchanged.
//!
//! Decisions the spec leaves open (also in the OpenAPI descriptions):
//! - Bodies are the score-core profile (`estado`, `ingreso_mensual`, `tipo_ingreso`,
//!   `antiguedad_meses`, optional `deudas_mensuales`, `ahorro`, `edad`, `personas_hogar`,
//!   `subcuenta_fondo`, `institucion`) plus optional contact fields `nombre`, `email`, `telefono`.
//! - Phase 1 validates and scores the profile at once (so bad input fails early and
//!   `GET /perfil/{id}` has a result), and answers 201 with the id only.
//! - Phase 2 takes any subset of the profile and contact fields; `null` clears an optional
//!   field (`deudas_mensuales: null` makes debts undeclared again). It rescores with the
//!   current model.
//! - Bad profile input answers with the score-core code: 400 for malformed input
//!   (`INVALID_TYPE`, `MISSING_FIELD`, `UNKNOWN_FIELD`), 422 for values the model rejects
//!   (`UNKNOWN_STATE`, `NEGATIVE_AMOUNT`, `VALUE_OUT_OF_RANGE`, ...), with `field` in the envelope.
//! - Unknown or malformed profile ids answer 404 `PROFILE_NOT_FOUND`.
//! - Matching: the rules and the fit formula are in `crate::domain::matching` (and the OpenAPI text).
//! - Phase 3: one lead per profile and property, contact rules and consent in `crate::domain::leads`.

use axum::{
    body::Bytes,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        buyers::{self, ProfileView},
        document_reads::VerifiedProfileView,
        documents,
        leads::{self, InterestInput, InterestRecorded},
        matching::{self, MatchPage},
    },
    http::{
        ApiJson, ApiPath, ApiQuery, DataResponse, ErrorBody, JsonContentType, Paging, ScoreClient,
        error::{ApiError, ApiResult},
    },
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(score_stateless))
        .merge(
            // A batch of up to 1,000 profiles is larger than MAX_BODY_BYTES allows elsewhere.
            OpenApiRouter::new()
                .routes(routes!(score_batch))
                .layer(axum::extract::DefaultBodyLimit::max(BATCH_MAX_BYTES)),
        )
        .routes(routes!(create_profile))
        .routes(routes!(refine_profile))
        .routes(routes!(onboarding))
        .routes(routes!(get_profile))
        .routes(routes!(match_properties))
        .routes(routes!(document_interest))
}

/// The score-core profile, for the OpenAPI document (the server reads it as JSON and lets
/// score-core validate it, so its error codes are the same everywhere). The body of the
/// stateless calculator, which refuses any other field (400 `UNKNOWN_FIELD`).
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)]
pub struct ScoreProfile {
    /// State where the buyer wants to buy: ISO 3166-2:MX code with or without `MX-` (`CMX`),
    /// INEGI key (`09`) or official name, case- and accent-insensitive.
    #[schema(example = "CMX")]
    estado: String,
    /// Monthly household net income, MXN: at least one centavo (0.01), the smallest amount; any
    /// other amount is 0 or at least a centavo too.
    #[schema(example = 30000, minimum = 0.01)]
    ingreso_mensual: f64,
    /// `asalariado`, `independiente`, `mixto` or `pensionado`.
    #[schema(example = "asalariado")]
    tipo_ingreso: String,
    /// Months in the current job or activity.
    #[schema(example = 36)]
    antiguedad_meses: u32,
    /// Non-mortgage monthly debt payments; absent or null = not declared (scored neutral).
    #[schema(example = 3500, minimum = 0)]
    deudas_mensuales: Option<f64>,
    /// Savings available for the down payment (default 0).
    #[schema(example = 150000, minimum = 0)]
    ahorro: Option<f64>,
    /// Age in years (18..100); shortens the loan term.
    #[schema(example = 33, minimum = 18, maximum = 100)]
    edad: Option<u32>,
    /// Household size (1..20; default 3.35, the ENIGH mean).
    #[schema(example = 3, minimum = 1, maximum = 20)]
    personas_hogar: Option<u32>,
    /// Declared housing-fund sub-account balance; estimated when absent.
    #[schema(minimum = 0)]
    subcuenta_fondo: Option<f64>,
    /// The housing fund the buyer contributes to: `INFONAVIT`, `FOVISSSTE` or `NINGUNA` (any
    /// case); absent: INFONAVIT for `asalariado` and `mixto`, none otherwise. Only the credit
    /// products read it; another value answers 422 `UNKNOWN_INSTITUTION`.
    #[schema(example = "FOVISSSTE")]
    institucion: Option<String>,
    /// A second borrower whose income and debts are part of the household's: the credit
    /// products pool both incomes; the score, which reads the household, does not change.
    coacreditado: Option<CoBorrowerProfile>,
}

/// `coacreditado`: the part of the household that is a second borrower (score-core MODEL.md
/// section 1). Errors name its fields by path (`coacreditado.ingreso_mensual`).
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)]
pub struct CoBorrowerProfile {
    /// The co-borrower's own monthly net income: part of the household's `ingreso_mensual`
    /// and less than it (422 `VALUE_OUT_OF_RANGE` otherwise).
    #[schema(example = 16000, minimum = 0.01)]
    ingreso_mensual: f64,
    /// `asalariado`, `independiente`, `mixto` or `pensionado`.
    #[schema(example = "asalariado")]
    tipo_ingreso: String,
    /// Months in the co-borrower's current job or activity.
    #[schema(example = 30)]
    antiguedad_meses: u32,
    /// Age in years (18..100).
    #[schema(example = 31, minimum = 18, maximum = 100)]
    edad: Option<u32>,
    /// The part of the household's declared `deudas_mensuales` that is the co-borrower's
    /// (needs the household's declared); absent: none.
    #[schema(minimum = 0)]
    deudas_mensuales: Option<f64>,
    /// The co-borrower's housing-fund sub-account balance; estimated when absent.
    #[schema(minimum = 0)]
    subcuenta_fondo: Option<f64>,
    /// The co-borrower's housing fund: `INFONAVIT`, `FOVISSSTE` or `NINGUNA` (any case).
    #[schema(example = "INFONAVIT")]
    institucion: Option<String>,
}

/// The profile with the optional contact fields (phases 1 and 2, onboarding).
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)]
pub struct ProfileInput {
    #[serde(flatten)]
    profile: ScoreProfile,
    /// Contact name (stored; shown back).
    #[schema(example = "Ana García")]
    nombre: Option<String>,
    /// Contact e-mail (stored; shared only with the agent of a property the buyer shows interest in).
    #[schema(example = "ana.garcia@example.com")]
    email: Option<String>,
    /// Contact phone (stored; shared only like the e-mail).
    #[schema(example = "+52 33 1234 5678")]
    telefono: Option<String>,
}

/// `data` of the stateless calculator.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScoreData {
    /// The `platform_score` object of spec 2.4 (keys and numbers of score-core and the fixtures).
    #[schema(value_type = Object, example = buyers::example_report)]
    pub platform_score: Value,
}

/// `data` of phase 1.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedProfile {
    /// Unguessable profile id (UUID v4) for the next phases.
    pub id: String,
    pub fase: i64,
    #[schema(example = "2.1")]
    pub modelo_version: String,
    /// RFC 3339.
    pub created_at: String,
}

/// Stateless calculator: the `platform_score` of a profile, stored nowhere.
#[utoipa::path(post, path = "/api/v1/score", tag = "score",
    request_body(content = ScoreProfile, description = "A score-core profile (contact fields are not accepted here: it stores nothing).", example = crate::routes::examples::score_profile),
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
    #[schema(value_type = Vec<ScoreProfile>)]
    /// Each profile as its raw JSON text, so that score-core reads its numbers from the
    /// digits written, as `POST /api/v1/score` does.
    pub perfiles: Vec<Box<RawValue>>,
}

/// One result of a batch, in the order of `perfiles`: a report or the error of that profile.
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)]
pub struct BatchItem {
    /// Position of the profile in `perfiles`, from 0.
    indice: usize,
    /// The report (absent when the profile has an error).
    #[schema(value_type = Option<Object>, example = buyers::example_report)]
    platform_score: Option<Value>,
    /// The error of this profile (absent when it was scored): the same `code`, `message`,
    /// `field` and `errores` (every mistake of the profile) as `POST /api/v1/score` would answer.
    #[schema(value_type = Option<Object>, example = json!({
        "code": "UNKNOWN_STATE",
        "message": "El campo \"estado\" no reconoce \"Atlantis\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial.",
        "field": "estado",
        "errores": [{"codigo": "UNKNOWN_STATE", "campo": "estado", "mensaje": "El campo \"estado\" no reconoce \"Atlantis\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial."}],
    }))]
    error: Option<Value>,
}

/// `data` of a batch.
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)]
pub struct BatchData {
    /// Profiles received.
    total: usize,
    /// Profiles scored.
    puntuados: usize,
    /// Profiles with an error.
    errores: usize,
    resultados: Vec<BatchItem>,
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
) -> ApiResult<Response> {
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
    // Written straight into the envelope, each report by score-core's own writer.
    let mut out = Vec::with_capacity(n * 3072 + 128);
    let mut scored = 0;
    out.extend_from_slice(br#"{"status":"success","data":{"resultados":["#);
    for (i, result) in results.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(format!(r#"{{"indice":{i},"#).as_bytes());
        match result {
            Ok(report) => {
                state.metrics.record_score(report.nivel.as_str());
                out.extend_from_slice(br#""platform_score":"#);
                report.write_json(&mut out);
                scored += 1;
            }
            Err(e) => {
                out.extend_from_slice(br#""error":"#);
                let error = serde_json::json!({
                    "code": e.code.as_str(), "message": e.message, "field": e.field, "errores": e.errors,
                });
                out.extend_from_slice(error.to_string().as_bytes());
            }
        }
        out.push(b'}');
    }
    out.extend_from_slice(format!(r#"],"total":{n},"puntuados":{scored},"errores":{}}}}}"#, n - scored).as_bytes());
    Ok(([(header::CONTENT_TYPE, "application/json")], out).into_response())
}

/// Phase 1 and onboarding: validates, scores and durably stores a new profile in `phase`.
async fn create(state: &AppState, client: &ScoreClient, body: &RawValue, phase: i64) -> ApiResult<buyers::BuyerRow> {
    client.spend(state, 1).await?;
    let (profile, contact) = buyers::split_profile_body(body)?;
    let scored = buyers::score_profile(&profile)?;
    state.metrics.record_score(scored.report.nivel.as_str());
    buyers::insert(&state.profile_writer, &scored, &contact, phase).await
}

/// Phase 1: creates the buyer profile.
#[utoipa::path(post, path = "/api/v1/fase1/perfil", tag = "score",
    request_body(content = ProfileInput, description = "The profile and optional contact fields.", example = crate::routes::examples::profile_with_contact),
    responses(
        (status = 201, description = "Created; use `id` in the next phases", body = DataResponse<CreatedProfile>),
        (status = 400, description = "Malformed profile", body = crate::http::error::ScoreErrorBody),
        (status = 422, description = "Values the model rejects (with `errores`), or an invalid contact field (`VALIDATION_ERROR`)", body = crate::http::error::ScoreErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn create_profile(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiJson(body): ApiJson<Box<RawValue>>,
) -> ApiResult<impl IntoResponse> {
    let row = create(&state, &client, &body, 1).await?;
    let data = CreatedProfile {
        id: row.id,
        fase: row.phase,
        modelo_version: row.model_version,
        created_at: crate::db::to_rfc3339(row.created_at),
    };
    Ok((StatusCode::CREATED, axum::Json(DataResponse::new(data))))
}

/// Phase 2: refines the profile (any subset of fields) and returns it with its new score.
///
/// With payroll receipts on file (`POST /api/v1/fase2/documentos/{id}`), the changes apply to
/// the declared profile and the verified values keep their precedence; `verificacion` is
/// recomputed (`null` for a profile without receipts).
#[utoipa::path(post, path = "/api/v1/fase2/validar/{id}", tag = "score",
    params(("id" = String, Path, description = "Profile id from phase 1 or onboarding")),
    request_body(content = ProfileInput, description = "Any subset of the profile and contact fields; `null` clears an optional field.", example = crate::routes::examples::profile_changes),
    responses(
        (status = 200, description = "The refined profile with `platform_score`", body = DataResponse<VerifiedProfileView>),
        (status = 400, description = "Malformed profile", body = crate::http::error::ScoreErrorBody),
        (status = 404, description = "Unknown profile (`PROFILE_NOT_FOUND`)", body = ErrorBody),
        (status = 422, description = "Values the model rejects", body = crate::http::error::ScoreErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn refine_profile(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<Box<RawValue>>,
) -> ApiResult<axum::Json<DataResponse<VerifiedProfileView>>> {
    client.spend(&state, 1).await?;
    let (changes, contact) = buyers::split_profile_body(&body)?;
    let (row, verificacion) = documents::refine(&state.db, &id, &changes, &contact, documents::today_in_mexico()).await?;
    state.metrics.record_score(&row.nivel);
    Ok(axum::Json(DataResponse::new(VerifiedProfileView::load(&state.db, row.view()?, verificacion).await?)))
}

/// Onboarding: phases 1 and 2 in one call.
#[utoipa::path(post, path = "/api/v1/onboarding/perfil", tag = "score",
    request_body(content = ProfileInput, description = "The full profile and optional contact fields.", example = crate::routes::examples::profile_with_contact),
    responses(
        (status = 201, description = "Created, with `id` and `platform_score`", body = DataResponse<ProfileView>),
        (status = 400, description = "Malformed profile", body = crate::http::error::ScoreErrorBody),
        (status = 422, description = "Values the model rejects (with `errores`), or an invalid contact field", body = crate::http::error::ScoreErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn onboarding(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiJson(body): ApiJson<Box<RawValue>>,
) -> ApiResult<impl IntoResponse> {
    let row = create(&state, &client, &body, 2).await?;
    Ok((StatusCode::CREATED, axum::Json(DataResponse::new(row.view()?))))
}

/// The profile with its current `platform_score`, phase, timestamps and `verificacion` (its
/// payroll receipts' verification, `null` without receipts), and its printed documents
/// (`lecturas`: being read, read or refused) with the income its bank statements support.
#[utoipa::path(get, path = "/api/v1/perfil/{id}", tag = "score",
    params(("id" = String, Path, description = "Profile id")),
    responses(
        (status = 200, description = "The profile", body = DataResponse<VerifiedProfileView>),
        (status = 404, description = "Unknown profile (`PROFILE_NOT_FOUND`)", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn get_profile(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiPath(id): ApiPath<String>,
) -> ApiResult<axum::Json<DataResponse<VerifiedProfileView>>> {
    client.spend(&state, 1).await?;
    let row = buyers::find(&state.db, &id).await?;
    let verificacion = documents::find_verification(&state.db, &row.id).await?;
    Ok(axum::Json(DataResponse::new(VerifiedProfileView::load(&state.db, row.view()?, verificacion).await?)))
}

/// Query of `GET /api/v1/matching/{id}`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MatchingQuery {
    /// Page number, default 1.
    pub page: Option<i64>,
    /// Page size, default 10, at most 100.
    pub limit: Option<i64>,
    /// `sale` or `rent`; both when absent.
    pub operation: Option<String>,
}

/// Properties compatible with the profile, best fit first.
///
/// In the profile's state and listed by an active agent. Sale: price at most
/// `criterios.precio_max_venta` = min(`valor_realista`, `credito_max` + `enganche_disponible`,
/// `enganche_disponible` / (1 - `ltv`)), the binding one named in `limite_venta`. Rent: at most
/// `criterios.renta_max_mensual` = `pago_mensual_estimado`. `ajuste` (0..100) = 0.7 x price fit
/// (100 at 80% of the ceiling, 75 at the ceiling, 0 at price 0) + 0.3 x space fit (area as a
/// share of `m2_minimo_nucleo`, capped at 100); ties by higher price, then id. Each entry has
/// `motivos` (why it fits, stable codes), `advertencias` and `finanzas` (down payment, credit and
/// monthly payment for that price). The ceilings come from the stored report, so a profile
/// scored by an older model version is matched with the figures it was shown.
#[utoipa::path(get, path = "/api/v1/matching/{id}", tag = "score",
    params(("id" = String, Path, description = "Profile id"), MatchingQuery),
    responses(
        (status = 200, description = "A page of matching properties", body = DataResponse<MatchPage>),
        (status = 400, description = "Bad `operation` (`INVALID_QUERY`) or paging (`INVALID_PAGINATION`)", body = ErrorBody),
        (status = 404, description = "Unknown profile (`PROFILE_NOT_FOUND`)", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn match_properties(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiPath(id): ApiPath<String>,
    ApiQuery(q): ApiQuery<MatchingQuery>,
) -> ApiResult<axum::Json<DataResponse<MatchPage>>> {
    client.spend(&state, 1).await?;
    let operation = matching::parse_operation(q.operation.as_deref())?;
    let paging = Paging::new(q.page, q.limit)?;
    let row = buyers::find(&state.db, &id).await?;
    let criterios = matching::criteria_of(&row)?;
    let (propiedades, total) = matching::find(&state.db, &criterios, operation, paging).await?;
    Ok(axum::Json(DataResponse::new(MatchPage {
        perfil_id: row.id,
        criterios,
        propiedades,
        pagination: paging.pagination(total),
    })))
}

/// The phase 3 body, for the OpenAPI document.
#[derive(Debug, Serialize, ToSchema)]
#[allow(dead_code)]
pub struct InterestBody {
    /// Id of the property (from matching or the property list).
    propiedad_id: String,
    /// Message for the agent, at most 1,000 characters.
    mensaje: Option<String>,
    /// `email`, `telefono` or `whatsapp`; default `email` when an e-mail is on file, else `telefono`.
    preferencia_contacto: Option<String>,
    /// Contact fields, stored on the profile like in phases 1 and 2.
    nombre: Option<String>,
    email: Option<String>,
    telefono: Option<String>,
}

/// Phase 3: records the buyer's interest in a property and notifies its agent.
///
/// One lead per profile and property: the first call answers 201 and e-mails the agent; a
/// repeat answers 200 with the same lead (its message, when given, and contact preference are
/// updated; no second e-mail). The buyer needs an e-mail or a phone (on the profile or in this
/// body) matching `preferencia_contacto`. Documenting interest shares the buyer's name, e-mail
/// and phone with that agent only, in `GET /api/agent/leads`; the e-mail to the agent carries
/// no contact data. The profile moves to phase 3.
#[utoipa::path(post, path = "/api/v1/fase3/documentar/{id}", tag = "score",
    params(("id" = String, Path, description = "Profile id")),
    request_body(content = InterestBody, example = crate::routes::examples::interest),
    responses(
        (status = 201, description = "Lead created; the agent is notified", body = DataResponse<InterestRecorded>),
        (status = 200, description = "The lead already existed (no duplicate)", body = DataResponse<InterestRecorded>),
        (status = 400, description = "Malformed body (`INVALID_TYPE`, `MISSING_FIELD`, `UNKNOWN_FIELD`)", body = ErrorBody),
        (status = 404, description = "Unknown profile (`PROFILE_NOT_FOUND`) or property (`PROPERTY_NOT_FOUND`)", body = ErrorBody),
        (status = 409, description = "Nobody to notify (`PROPERTY_WITHOUT_AGENT`, `AGENT_INACTIVE`)", body = ErrorBody),
        (status = 422, description = "No way to contact the buyer (`CONTACT_REQUIRED`) or a bad value (`VALIDATION_ERROR`)", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn document_interest(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<Value>,
) -> ApiResult<impl IntoResponse> {
    client.spend(&state, 1).await?;
    let (rest, contact) = buyers::split_body(body)?;
    let input = InterestInput::parse(rest)?;
    let profile = buyers::find(&state.db, &id).await?;
    let (created, data) = leads::document_interest(&state.db, &state.mailer, &state.config.frontend_url, &profile, &input, &contact).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, axum::Json(DataResponse::new(data))))
}
