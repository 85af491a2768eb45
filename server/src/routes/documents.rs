//! `POST /api/v1/fase2/documentos/{id}`: the documents that verify a buyer profile: payroll
//! receipts (CFDI XML with the Nómina complement, read at once; or their printed PDF, scan or
//! photo) and bank statements (PDF, PNG, JPEG), read off the request path by the OCR pool.
//! Public like the other phase 2 endpoints (the profile id is the unguessable handle) and rate
//! limited with them (per client IP, or per partner API key). The rules are in
//! `crate::domain::documents` and `crate::domain::document_reads`.

use axum::{
    extract::{DefaultBodyLimit, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    domain::{
        buyers,
        document_reads::{self, LecturaView, NewRead},
        documents::{self, DocumentsAttached, ReceiptOutcome},
        verification::VerificationView,
    },
    http::{
        ApiPath, DataResponse, ErrorBody, ScoreClient,
        error::{ApiError, ApiResult},
        upload::{FILE_FIELD, MAX_UPLOAD_BYTES, STATEMENT_FIELD, UploadedFile, Uploads},
    },
    reader::Job,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    // The only route whose body may exceed MAX_BODY_BYTES: up to MAX_FILES receipts.
    OpenApiRouter::new().routes(routes!(attach_documents)).layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES))
}

/// The multipart body as the OpenAPI document shows it; the handler reads its parts one by
/// one (`http::upload::Uploads`, bounded in count and size), not into this type.
#[derive(Debug, ToSchema)]
pub struct ReceiptsForm {
    /// Payroll receipts: CFDI 3.3/4.0 XML with the Nómina 1.2 complement (at most 1 MiB), or
    /// the receipt's printed PDF, a scan or a photo (PDF, PNG or JPEG, at most 10 MiB); repeat
    /// the field for each file.
    #[schema(value_type = Vec<String>, format = Binary)]
    pub recibos: Vec<Vec<u8>>,
    /// Bank statements (PDF, PNG or JPEG, at most 10 MiB), for the self-employed: repeat the
    /// field for each month.
    #[schema(value_type = Vec<String>, format = Binary)]
    pub estados_cuenta: Vec<Vec<u8>>,
}

/// Answer of an upload with printed documents (202): they are being read; `GET
/// /api/v1/perfil/{id}` shows each one's outcome in `lecturas` when it is ready.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentsAccepted {
    /// The profile.
    pub perfil_id: String,
    /// The printed documents of this request, all `leyendo`.
    pub lecturas: Vec<LecturaView>,
    /// The XML receipts of this request, attached already (empty without XML).
    pub recibidos: Vec<ReceiptOutcome>,
    /// The verification after the XML receipts of this request (`null` without XML).
    pub verificacion: Option<VerificationView>,
}

/// A file of the request that is not XML: a PDF, PNG or JPEG to read off the request path.
fn is_printed(file: &UploadedFile) -> bool {
    score_ocr::format_of(&file.bytes).is_some()
}

fn unsupported_statement(i: usize, name: Option<&str>) -> ApiError {
    let e = ApiError::from(score_docs::DocError::new(
        score_docs::DocErrorCode::DocumentUnsupportedType,
        Some(&format!("{STATEMENT_FIELD}[{i}]")),
        format!("Estado de cuenta {}: no es un PDF, PNG ni JPEG; descarga el estado de cuenta de tu banco en PDF.", i + 1),
    ));
    match name {
        Some(n) => e.with("archivo", n),
        None => e,
    }
}

fn queue_full() -> ApiError {
    let mut e = ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "DOCUMENT_QUEUE_FULL",
        "Hay muchos documentos en lectura en este momento; vuelve a subirlos en un minuto.",
    );
    e.retry_after = Some(60);
    e
}

/// Phase 2 with documents: verifies the profile with the buyer's payroll receipts and bank
/// statements.
///
/// **XML receipts** are read at once (score-docs: CFDI 3.3/4.0, Nómina 1.2; no DTDs or
/// entities) and answered with 200. The server stores each receipt's facts and the SHA-256 of
/// its file, never the file. A receipt already on file (same SAT UUID; same file when
/// unstamped) is not stored twice, so repeating an upload changes nothing
/// (`recibidos[].nuevo` is `false`). All the profile's receipts must be of one worker.
///
/// **Printed documents** (a receipt's PDF, a scan or a photo in `recibos`; bank statements in
/// `estados_cuenta`) are answered with 202 and read off the request path by a bounded pool
/// (PDF text layer, or Tesseract OCR in Spanish; limits of 10 MiB, 10 pages, 40 megapixels and
/// 60 s per document). `GET /api/v1/perfil/{id}` shows each one in `lecturas` (`leyendo`,
/// `leido`, `rechazado` with its code). A printed receipt whose checks all pass (RFC check
/// digits, totals that add up, dates in order) is attached, but paper has no seal: the fields
/// it helps prove are shown as read from paper (`verificacion.campos_impresos`,
/// `perfil_impreso`, and `comprobacion.por_confirmar` with each print's UUID, to confirm with
/// the XML or the SAT's service), never verified nor applied; the XML wins when both are sent. Statements show the income they support
/// (`ingreso_estados_cuenta`). A file is kept only while it is read.
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
        description = "Receipts in `recibos`, bank statements in `estados_cuenta` (each field repeated), one to 12 files in all."),
    responses(
        (status = 200, description = "Only XML receipts: the rescored profile with `verificacion` and what happened to each file", body = DataResponse<DocumentsAttached>),
        (status = 202, description = "Printed documents are being read (`lecturas`); XML receipts of the same request are attached already", body = DataResponse<DocumentsAccepted>),
        (status = 400, description = "No file (`DOCUMENT_REQUIRED`), a malformed multipart body (`DOCUMENT_UPLOAD_INVALID`), another field (`UNKNOWN_FIELD`)", body = ErrorBody),
        (status = 404, description = "Unknown profile (`PROFILE_NOT_FOUND`)", body = ErrorBody),
        (status = 413, description = "More than 12 files, an XML over 1 MiB, a file over 10 MiB, or more than 520 receipts on the profile (`DOCUMENT_TOO_LARGE`, `field` = `recibos[i]` for a file)", body = ErrorBody),
        (status = 415, description = "Not multipart/form-data (`DOCUMENT_UPLOAD_INVALID`)", body = ErrorBody),
        (status = 422, description = "A file that is not a usable receipt (`DOCUMENT_INVALID_XML`, `DOCUMENT_UNSAFE_XML`, `DOCUMENT_NOT_PAYROLL`, `DOCUMENT_UNSUPPORTED_VERSION`; `field` = `recibos[i]`, `archivo` = its name), a statement that is not a PDF or image (`DOCUMENT_UNSUPPORTED_TYPE`), receipts of another worker (`DOCUMENT_MIXED_WORKERS`), or a verified profile the model refuses (score-core codes)", body = ErrorBody),
        (status = 429, description = "Rate limited", body = ErrorBody),
        (status = 503, description = "Too many printed documents waiting to be read (`DOCUMENT_QUEUE_FULL`, `Retry-After`)", body = ErrorBody),
    ))]
pub async fn attach_documents(
    State(state): State<AppState>,
    client: ScoreClient,
    ApiPath(id): ApiPath<String>,
    Uploads(files): Uploads,
) -> ApiResult<Response> {
    // Each printed document costs a reading: it spends a unit of the budget of its own.
    let printed: Vec<&UploadedFile> = files.iter().filter(|f| is_printed(f)).collect();
    client.spend(&state, 1 + u32::try_from(printed.len()).unwrap_or(u32::MAX)).await?;
    let mut xml = Vec::new();
    for (i, f) in files.iter().filter(|f| f.field == FILE_FIELD).enumerate() {
        if !is_printed(f) {
            xml.push((i, f.name.clone(), f.bytes.as_ref()));
        }
    }
    if let Some((i, f)) = files.iter().filter(|f| f.field == STATEMENT_FIELD).enumerate().find(|(_, f)| !is_printed(f)) {
        return Err(unsupported_statement(i, f.name.as_deref()));
    }
    let receipts = documents::read_receipts(&xml, &state.config.sat_ca)?;
    if printed.is_empty() {
        let (row, attached) = documents::attach(&state.db, &id, receipts, documents::today_in_mexico()).await?;
        state.metrics.record_score(&row.nivel);
        return Ok(axum::Json(DataResponse::new(attached)).into_response());
    }

    // Printed documents: the profile must exist and the queue have room for all of them
    // before anything is stored.
    let profile = buyers::find(&state.db, &id).await?;
    let reserved = state.reader.reserve(printed.len()).ok_or_else(queue_full)?;
    let (recibidos, verificacion) = if receipts.is_empty() {
        (Vec::new(), None)
    } else {
        let (row, attached) = documents::attach(&state.db, &profile.id, receipts, documents::today_in_mexico()).await?;
        state.metrics.record_score(&row.nivel);
        (attached.recibidos, Some(attached.verificacion))
    };
    let new_reads: Vec<NewRead> = printed
        .iter()
        .map(|f| NewRead {
            archivo: f.name.clone(),
            sha256: documents::sha256_hex(&f.bytes),
            tipo: Some(if f.field == STATEMENT_FIELD { "estado_cuenta" } else { "recibo_nomina" }),
        })
        .collect();
    let lecturas = document_reads::start(&state.db, state.reader.instance(), &profile.id, &new_reads).await?;
    let jobs = lecturas
        .iter()
        .zip(new_reads)
        .zip(&printed)
        .map(|((lectura, file), upload)| Job {
            read_id: lectura.id.clone(),
            profile_id: profile.id.clone(),
            file,
            bytes: upload.bytes.clone(),
        })
        .collect();
    reserved.send(jobs);
    let accepted = DocumentsAccepted { perfil_id: profile.id, lecturas, recibidos, verificacion };
    Ok((StatusCode::ACCEPTED, axum::Json(DataResponse::new(accepted))).into_response())
}
