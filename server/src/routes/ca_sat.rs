//! `GET /api/v1/ca-sat`: the CA certificates the server chains receipts' certificates to (the
//! SAT's carried by score-docs, or those of `SAT_CA_DIR`), so that the page reads receipts in
//! the browser against the same trust set as the server: a receipt verified in the page is one
//! the server verifies. Certificates are public documents.

use axum::{
    extract::State,
    response::{IntoResponse, Response},
};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{http::DataResponse, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ca_sat))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CaSatData {
    /// `incluidos` (the SAT's production CAs score-docs carries) or `SAT_CA_DIR` (the
    /// operator's folder, used instead).
    #[schema(example = "incluidos")]
    pub origen: &'static str,
    /// Each CA certificate, PEM (`-----BEGIN CERTIFICATE-----`), in load order.
    pub certificados: Vec<String>,
}

/// The CA certificates receipts are chained to: a receipt proves its facts only when its seal
/// is valid and one of these issued its certificate.
#[utoipa::path(get, path = "/api/v1/ca-sat", tag = "score",
    responses((status = 200, description = "The CA certificates receipts are chained to", body = DataResponse<CaSatData>)))]
pub async fn ca_sat(State(state): State<AppState>) -> Response {
    let config = &state.config;
    let certificados = config.sat_ca.der().map(pem).collect();
    let origen = if config.sat_ca_dir.is_some() { "SAT_CA_DIR" } else { "incluidos" };
    axum::Json(DataResponse::new(CaSatData { origen, certificados })).into_response()
}

/// A certificate's DER as PEM (base64 in lines of 64).
fn pem(der: &[u8]) -> String {
    let body = STANDARD.encode(der);
    let lines: Vec<&str> = body.as_bytes().chunks(64).filter_map(|c| std::str::from_utf8(c).ok()).collect();
    format!("-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n", lines.join("\n"))
}
