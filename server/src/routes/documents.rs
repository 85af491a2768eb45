//! `POST /api/v1/fase2/documentos/{id}`: payroll receipts (CFDI XML with the Nómina
//! complement) that verify a buyer profile. Public like the other phase 2 endpoints (the
//! profile id is the unguessable handle) and rate limited with them (per client IP, or per partner API key).
//! The rules are in `crate::domain::documents`.

use axum::extract::{DefaultBodyLimit, State};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::documents::{self, DocumentsAttached},
    http::{
        ApiPath, DataResponse, ErrorBody, ScoreClient,
        error::ApiResult,
        upload::{MAX_UPLOAD_BYTES, Uploads},
    },
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    // The only route whose body may exceed MAX_BODY_BYTES: up to MAX_FILES receipts.
    OpenApiRouter::new().routes(routes!(attach_documents)).layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES))
}

/// The multipart body, for the OpenAPI document.
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ReceiptsForm {
    /// One to 12 CFDI 3.3/4.0 payroll receipts (XML with the Nómina 1.2 complement), at most
    /// 1 MiB each; repeat the field for each file.
    #[schema(value_type = Vec<String>, format = Binary)]
    recibos: Vec<Vec<u8>>,
}

/// Phase 2 with documents: verifies the profile with the buyer's payroll receipts.
///
/// Each file is read as a CFDI payroll receipt (score-docs: CFDI 3.3/4.0, Nómina 1.2; no DTDs
/// or entities). The server stores each receipt's facts and the SHA-256 of its file, never the
/// file. A receipt already on file (same SAT UUID; same file when unstamped) is not stored
/// twice, so repeating an upload changes nothing (`recibidos[].nuevo` is `false`). All the
/// profile's receipts must be of one worker.
///
/// The verification is recomputed from all of the profile's receipts (seniority to today in
/// Mexico City) and the profile rescored with the verified values taking precedence:
/// `ingreso_mensual`, `tipo_ingreso` and `antiguedad_meses` replace the declared values;
/// `deudas_mensuales` applies unless a larger amount was declared (receipts prove only the debts
/// paid through payroll); `estado` is never replaced (the receipt names where the buyer works).
/// Every declared value that differs is listed in `verificacion.discrepancias`; the declared
/// profile stays in `verificacion.perfil_declarado` and later phase 2 changes apply to it.
#[utoipa::path(post, path = "/api/v1/fase2/documentos/{id}", tag = "score",
    params(("id" = String, Path, description = "Profile id from phase 1 or onboarding")),
    request_body(content = ReceiptsForm, content_type = "multipart/form-data",
        description = "Files in the `recibos` field (repeated), one to 12, at most 1 MiB each."),
    responses(
        (status = 200, description = "The rescored profile with `verificacion` and what happened to each file", body = DataResponse<DocumentsAttached>),
        (status = 400, description = "No file (`DOCUMENT_REQUIRED`), a malformed multipart body (`DOCUMENT_UPLOAD_INVALID`), a part other than `recibos` (`UNKNOWN_FIELD`)", body = ErrorBody),
        (status = 404, description = "Unknown profile (`PROFILE_NOT_FOUND`)", body = ErrorBody),
        (status = 413, description = "More than 12 files, a file over 1 MiB, or more than 520 receipts on the profile (`DOCUMENT_TOO_LARGE`, `field` = `recibos[i]` for a file)", body = ErrorBody),
        (status = 415, description = "Not multipart/form-data (`DOCUMENT_UPLOAD_INVALID`)", body = ErrorBody),
        (status = 422, description = "A file that is not a usable receipt (`DOCUMENT_INVALID_XML`, `DOCUMENT_UNSAFE_XML`, `DOCUMENT_NOT_PAYROLL`, `DOCUMENT_UNSUPPORTED_VERSION`; `field` = `recibos[i]`, `archivo` = its name), receipts of another worker (`DOCUMENT_MIXED_WORKERS`), or a verified profile the model refuses (score-core codes)", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
    ))]
pub async fn attach_documents(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiPath(id): ApiPath<String>,
    Uploads(files): Uploads,
) -> ApiResult<axum::Json<DataResponse<DocumentsAttached>>> {
    client.spend(&state, 1)?;
    let files: Vec<(Option<String>, &[u8])> = files.iter().map(|f| (f.name.clone(), f.bytes.as_ref())).collect();
    let receipts = documents::read_receipts(&files)?;
    let (row, attached) = documents::attach(&state.db, &id, receipts, documents::today_in_mexico()).await?;
    state.metrics.record_score(&row.nivel);
    Ok(axum::Json(DataResponse::new(attached)))
}
