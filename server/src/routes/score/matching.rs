//! `GET /api/v1/matching/{id}`: the properties that fit a scored profile.

use axum::extract::State;
use serde::Deserialize;

use crate::{
    domain::{
        buyers,
        matching::{self, MatchPage},
    },
    http::{ApiPath, ApiQuery, DataResponse, ErrorBody, Paging, ScoreClient, error::ApiResult},
    state::AppState,
};

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

