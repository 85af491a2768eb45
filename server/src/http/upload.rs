//! `multipart/form-data` file uploads, bounded in count and size, with the error envelope.
//!
//! The files are read into memory (each at most [`MAX_FILE_BYTES`], at most [`MAX_FILES`] per
//! request, and at most [`MAX_UPLOAD_BYTES`] in all): an XML receipt is a few kilobytes (its
//! reader refuses more than 1 MiB), a printed PDF or a photo a few megabytes, and the readers
//! need the whole document anyway. A file over the limit is refused as soon as its chunks pass
//! it, not after reading the rest.

use axum::{
    body::Bytes,
    extract::{FromRequest, Multipart, Request, multipart::MultipartError},
    http::{StatusCode, header},
};

use super::error::ApiError;

/// The form field of payroll receipts (XML, or their printed PDF, scan or photo).
pub const FILE_FIELD: &str = "recibos";
/// The form field of bank statements (PDF, PNG or JPEG).
pub const STATEMENT_FIELD: &str = "estados_cuenta";
/// Most files in one request (a year of monthly receipts, six months of fortnightly ones).
pub const MAX_FILES: usize = 12;
/// Largest file: score-ocr's limit for a printed document (10 MiB; an XML receipt is further
/// held to its reader's 1 MiB).
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Largest request body: two printed documents at their limit, or a dozen phone photos.
pub const MAX_UPLOAD_BYTES: usize = 2 * MAX_FILE_BYTES + 64 * 1024;

/// One uploaded file: the form field it came in ([`FILE_FIELD`] or [`STATEMENT_FIELD`]), the
/// name the client gave it (shown back, never used as a path) and its bytes.
#[derive(Debug, Clone)]
pub struct UploadedFile {
    pub field: &'static str,
    pub name: Option<String>,
    pub bytes: Bytes,
}

/// The files of a `multipart/form-data` body, in the order sent, from the parts named
/// [`FILE_FIELD`] and [`STATEMENT_FIELD`]. Rejections, all in the envelope:
/// - not `multipart/form-data` → 415 `DOCUMENT_UPLOAD_INVALID`; a malformed body → 400
///   `DOCUMENT_UPLOAD_INVALID`;
/// - a part with another name → 400 `UNKNOWN_FIELD` (`field` = its name);
/// - no file → 400 `DOCUMENT_REQUIRED`;
/// - more than [`MAX_FILES`] files, a file over [`MAX_FILE_BYTES`] or a body over
///   [`MAX_UPLOAD_BYTES`] → 413 `DOCUMENT_TOO_LARGE` (`field` = `recibos[i]` for a file).
#[derive(Debug, Clone)]
pub struct Uploads(pub Vec<UploadedFile>);

fn upload_invalid(status: StatusCode) -> ApiError {
    ApiError::new(
        status,
        "DOCUMENT_UPLOAD_INVALID",
        "Envía los documentos como multipart/form-data: cada recibo (XML, PDF o imagen) en un campo \"recibos\" y cada estado de cuenta en un campo \"estados_cuenta\".",
    )
}

fn too_many() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "DOCUMENT_TOO_LARGE",
        format!("Se pueden subir hasta {MAX_FILES} recibos por envío; envía el resto en otra solicitud."),
    )
    .with("field", FILE_FIELD)
}

fn file_too_large(field: &str, index: usize, name: Option<&str>) -> ApiError {
    let e = ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "DOCUMENT_TOO_LARGE",
        format!("El archivo {} pesa más de {} MiB, el máximo de un documento.", index + 1, MAX_FILE_BYTES / (1024 * 1024)),
    )
    .with("field", format!("{field}[{index}]"));
    match name {
        Some(n) => e.with("archivo", n),
        None => e,
    }
}

fn stream_error(e: &MultipartError) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "DOCUMENT_TOO_LARGE",
            format!("El envío supera {} MiB; sube menos documentos a la vez.", MAX_UPLOAD_BYTES / (1024 * 1024)),
        )
    } else {
        upload_invalid(StatusCode::BAD_REQUEST)
    }
}

impl<S: Send + Sync> FromRequest<S> for Uploads {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_multipart = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("multipart/form-data"));
        if !is_multipart {
            return Err(upload_invalid(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        }
        let mut multipart = Multipart::from_request(req, state)
            .await
            .map_err(|_| upload_invalid(StatusCode::BAD_REQUEST))?;
        let mut files: Vec<UploadedFile> = Vec::new();
        while let Some(mut field) = multipart.next_field().await.map_err(|e| stream_error(&e))? {
            let field_name = field.name().unwrap_or_default().to_owned();
            let kind = match field_name.as_str() {
                FILE_FIELD => FILE_FIELD,
                STATEMENT_FIELD => STATEMENT_FIELD,
                _ => {
                    return Err(ApiError::bad_request(
                        "UNKNOWN_FIELD",
                        format!(
                            "Campo no reconocido \"{field_name}\": los recibos van en el campo \"{FILE_FIELD}\" y los estados de cuenta en \"{STATEMENT_FIELD}\"."
                        ),
                    )
                    .with("field", field_name));
                }
            };
            if files.len() == MAX_FILES {
                return Err(too_many());
            }
            let name = field.file_name().map(str::to_owned);
            let mut bytes = Vec::new();
            while let Some(chunk) = field.chunk().await.map_err(|e| stream_error(&e))? {
                if bytes.len() + chunk.len() > MAX_FILE_BYTES {
                    return Err(file_too_large(kind, files.iter().filter(|f| f.field == kind).count(), name.as_deref()));
                }
                bytes.extend_from_slice(&chunk);
            }
            files.push(UploadedFile { field: kind, name, bytes: Bytes::from(bytes) });
        }
        if files.is_empty() {
            return Err(ApiError::bad_request(
                "DOCUMENT_REQUIRED",
                format!("No se recibió ningún documento: adjunta al menos un recibo en el campo \"{FILE_FIELD}\" o un estado de cuenta en \"{STATEMENT_FIELD}\"."),
            ));
        }
        Ok(Uploads(files))
    }
}
