//! The profile's phases: 1 (create), 2 (refine), onboarding (both at once), the profile as
//! it stands, and 3 (a buyer's interest in a property, the lead its agent sees).

use axum::{extract::State, http::StatusCode, response::IntoResponse};
use serde::Serialize;
use serde_json::{Value, value::RawValue};
use utoipa::ToSchema;

use super::schemas::ProfileInput;
use crate::{
    domain::{
        buyers::{self, ProfileView},
        document_reads::VerifiedProfileView,
        documents,
        leads::{self, InterestInput, InterestRecorded},
        verification,
    },
    http::{ApiJson, ApiPath, DataResponse, ErrorBody, ScoreClient, error::ApiResult},
    state::AppState,
};

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

/// Phase 1 and onboarding: validates, scores and durably stores a new profile in `phase`.
async fn create(state: &AppState, client: &ScoreClient, body: &RawValue, phase: i64) -> ApiResult<buyers::BuyerRow> {
    client.spend(state, 1).await?;
    let (profile, contact) = buyers::split_profile_body(body)?;
    let scored = buyers::score_profile(&profile)?;
    state.metrics.record_score(scored.report.nivel.as_str());
    Ok(buyers::insert(&state.profile_writer, &scored, &contact, phase).await?)
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
    let verificacion = verification::find_verification(&state.db, &row.id).await?;
    Ok(axum::Json(DataResponse::new(VerifiedProfileView::load(&state.db, row.view()?, verificacion).await?)))
}

/// The phase 3 body as the OpenAPI document shows it. The handler reads it as JSON with
/// `buyers::split_body` (the contact fields) and `InterestInput::parse` (the rest), which
/// answer the score area's codes (`UNKNOWN_FIELD`, `MISSING_FIELD`, `INVALID_TYPE`) that a
/// derived deserializer would not.
#[derive(Debug, Serialize, ToSchema)]
pub struct InterestBody {
    /// Id of the property (from matching or the property list).
    pub propiedad_id: String,
    /// Message for the agent, at most 1,000 characters.
    pub mensaje: Option<String>,
    /// `email`, `telefono` or `whatsapp`; default `email` when an e-mail is on file, else `telefono`.
    pub preferencia_contacto: Option<String>,
    /// Contact fields, stored on the profile like in phases 1 and 2.
    pub nombre: Option<String>,
    pub email: Option<String>,
    pub telefono: Option<String>,
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
