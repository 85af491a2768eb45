//! `GET /api/v1/calibracion`: the calibration the score reports are made with (its `id`, the
//! date its figures apply from, and every figure with its source or the reason of its
//! estimate), so that anyone can see which figures made a report (`calibracion`).

use axum::{
    extract::State,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{http::DataResponse, state::AppState};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(calibracion))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CalibracionData {
    /// The `calibracion` of every report the server makes.
    #[schema(example = id_incluido)]
    pub id: String,
    /// The date from which its figures apply.
    #[schema(example = "2026-02-01")]
    pub vigente_desde: String,
    /// The whole calibration document (score-core/calibration/mx-2026.toml as JSON): the
    /// general figures, curves, closing costs, products, states and `fuentes`.
    #[schema(value_type = Object)]
    pub documento: serde_json::Value,
}

/// The embedded calibration's id: the example of [`CalibracionData::id`], current whatever the
/// embedded calibration is.
fn id_incluido() -> &'static str {
    score_core::CALIBRATION
}

/// The active calibration: the market's figures the score uses, with their sources.
#[utoipa::path(get, path = "/api/v1/calibracion", tag = "score",
    responses((status = 200, description = "The active calibration", body = DataResponse<CalibracionData>)))]
pub async fn calibracion(State(state): State<AppState>) -> Response {
    let calibration = &state.config.calibration;
    axum::Json(DataResponse::new(CalibracionData {
        id: calibration.id().to_owned(),
        vigente_desde: calibration.vigente_desde().to_owned(),
        documento: calibration.to_json_value(),
    }))
    .into_response()
}
