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

pub mod calculator;
pub mod matching;
pub mod phases;
pub mod schemas;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(calculator::score_stateless))
        .merge(
            // A batch of up to 1,000 profiles is larger than MAX_BODY_BYTES allows elsewhere.
            OpenApiRouter::new()
                .routes(routes!(calculator::score_batch))
                .layer(axum::extract::DefaultBodyLimit::max(calculator::BATCH_MAX_BYTES)),
        )
        .routes(routes!(phases::create_profile))
        .routes(routes!(phases::refine_profile))
        .routes(routes!(phases::onboarding))
        .routes(routes!(phases::get_profile))
        .routes(routes!(matching::match_properties))
        .routes(routes!(phases::document_interest))
}
