//! Routes and the OpenAPI document. Every route is registered with `utoipa_axum::routes!`,
//! so it appears in `/openapi.json` by construction (checked by `tests/api/openapi.rs`).
//!
//! To add an area: create `routes/<area>.rs` with `pub fn router() -> OpenApiRouter<AppState>`
//! and merge it in [`api_router`].

pub mod agencies;
pub mod agent_changes;
pub mod agents;
pub mod auth;
pub mod health;
pub mod leads;
pub mod oidc;
pub mod properties;
pub mod reviews;
pub mod score;

use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};
use utoipa_axum::router::OpenApiRouter;

use crate::{http::ErrorBody, state::AppState};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Real-estate platform API",
        description = "Accounts and authentication, agents and offices, buyer credit score. \
            Every error uses the envelope `ErrorBody`.",
        version = env!("CARGO_PKG_VERSION"),
    ),
    components(schemas(ErrorBody)),
    modifiers(&BearerAuth),
    tags(
        (name = "auth", description = "Accounts and authentication"),
        (name = "ops", description = "Health, readiness and metrics"),
        (name = "agents", description = "Agents (spec 4.2): public list and detail, creation, assignment, update, delete, reviews"),
        (name = "agencies", description = "Offices (spec 2.3): owners, co-admins and their agents"),
        (name = "properties", description = "Agents' listings, matching-friendly (estado, operation, price, m2)"),
        (name = "score", description = "Buyer credit score (spec 4.3), public and rate limited per IP"),
    )
)]
#[derive(Debug)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// All API routes with their OpenAPI description.
pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::router())
        .merge(auth::router())
        .merge(oidc::router())
        .merge(score::router())
        .merge(agents::router())
        .merge(agent_changes::router())
        .merge(reviews::router())
        .merge(agencies::router())
        .merge(properties::router())
        .merge(leads::router())
}
