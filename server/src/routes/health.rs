//! Liveness, readiness and metrics.

use axum::{
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    http::{ApiError, ErrorBody},
    metrics::write_gauge,
    security::hash_token,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(healthz))
        .routes(routes!(readyz))
        .routes(routes!(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HealthResponse {
    #[schema(example = "ok")]
    pub status: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReadyResponse {
    #[schema(example = "ok")]
    pub status: &'static str,
    /// `sqlite` or `postgres`.
    pub database: &'static str,
}

/// Liveness: the process is up.
#[utoipa::path(get, path = "/healthz", tag = "ops",
    responses((status = 200, description = "Alive", body = HealthResponse)))]
pub async fn healthz() -> Response {
    axum::Json(HealthResponse { status: "ok" }).into_response()
}

/// Readiness: the database answers.
#[utoipa::path(get, path = "/readyz", tag = "ops",
    responses(
        (status = 200, description = "Ready", body = ReadyResponse),
        (status = 503, description = "`DATABASE_UNAVAILABLE`", body = ErrorBody),
    ))]
pub async fn readyz(State(state): State<AppState>) -> Response {
    match crate::db::ping(&state.db).await {
        Ok(_) => {
            let database = match crate::db::Backend::of_url(&state.config.database_url) {
                crate::db::Backend::Sqlite => "sqlite",
                crate::db::Backend::Postgres => "postgres",
            };
            axum::Json(ReadyResponse {
                status: "ok",
                database,
            })
            .into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "readiness check failed");
            ApiError::service_unavailable("DATABASE_UNAVAILABLE", "Base de datos no disponible")
                .into_response()
        }
    }
}

/// Prometheus metrics (text format 0.0.4).
#[utoipa::path(get, path = "/metrics", tag = "ops",
    description = "Public unless `METRICS_TOKEN` is set; then `Authorization: Bearer <METRICS_TOKEN>` is required (401 `TOKEN_INVALID` otherwise).",
    responses(
        (status = 200, description = "Prometheus text exposition", content_type = "text/plain", body = String),
        (status = 401, description = "`METRICS_TOKEN` set and not given", body = ErrorBody),
    ))]
pub async fn metrics(State(state): State<AppState>, headers: axum::http::HeaderMap) -> Response {
    if let Some(expected) = &state.config.metrics_token {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .unwrap_or("");
        // Compared as SHA-256 digests: the time does not depend on how much of the token matches.
        let expected = String::from_utf8_lossy(&expected.0);
        if given.is_empty() || hash_token(given) != hash_token(&expected) {
            return ApiError::unauthorized("TOKEN_INVALID", "Token de métricas inválido")
                .into_response();
        }
    }
    let mut body = state.metrics.render();
    let (open, idle) = (state.db.size(), state.db.num_idle() as u32);
    write_gauge(&mut body, "db_pool_connections_in_use", "Database connections lent to a request or task now.", open.saturating_sub(idle));
    write_gauge(&mut body, "db_pool_connections_idle", "Open database connections waiting in the pool.", idle);
    write_gauge(&mut body, "db_pool_max_connections", "Largest size of the pool (DB_MAX_CONNECTIONS).", state.config.db_max_connections);
    match crate::mail::outbox::depth(&state.db).await {
        Ok((pending, dead)) => {
            write_gauge(&mut body, "mail_queue_depth", "E-mails queued for delivery (mail_outbox, all instances).", pending);
            write_gauge(&mut body, "mail_dead_letters", "E-mails kept as dead letters after their last attempt (mail_outbox).", dead);
        }
        // The rest of the page is still worth scraping; the gauges are left out.
        Err(e) => tracing::warn!(error = %e, "metrics: could not read the mail queue"),
    }
    (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        body,
    )
        .into_response()
}
