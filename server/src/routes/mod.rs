//! Routes and the OpenAPI document. Every route is registered with `utoipa_axum::routes!`,
//! so it appears in `/openapi.json` by construction (checked by `tests/api/openapi.rs`).
//!
//! To add an area: create `routes/<area>.rs` with `pub fn router() -> OpenApiRouter<AppState>`
//! and merge it in [`api_router`].

pub mod agencies;
pub mod agent_changes;
pub mod agents;
pub mod api_keys;
pub mod auth;
pub mod ca_sat;
pub mod calibration;
pub mod documents;
pub mod examples;
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
        (name = "score", description = "Buyer credit score (spec 4.3): public, rate limited per IP, or per partner with `X-API-Key`"),
        (name = "partners", description = "Partner API keys (administrators)"),
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
        components.add_security_scheme(
            "partner",
            SecurityScheme::ApiKey(utoipa::openapi::security::ApiKey::Header(
                utoipa::openapi::security::ApiKeyValue::with_description(
                    crate::http::extract::API_KEY_HEADER,
                    "A partner's API key (`psk_...`): its own rate limit on the score endpoints instead of the per-IP one",
                ),
            )),
        );
    }
}

/// The answers the shared extractors give on every operation of a kind, documented once here
/// instead of on each handler (a client and schemathesis then find every status they can get):
/// a JSON body can be malformed (400 `INVALID_JSON`), too large (413), of another content type
/// (415) or of the wrong shape (422); a bearer-protected operation answers 401; a path id that
/// is not an id answers 404.
struct CommonResponses;

impl CommonResponses {
    const BODY: [(&'static str, &'static str); 4] = [
        ("400", "Malformed JSON (`INVALID_JSON`)"),
        ("413", "Body larger than `MAX_BODY_BYTES` (`PAYLOAD_TOO_LARGE`)"),
        ("415", "Not `Content-Type: application/json` (`UNSUPPORTED_MEDIA_TYPE`)"),
        ("422", "Body of the wrong shape, type or characters (`VALIDATION_ERROR`)"),
    ];
}

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder, security::SecurityRequirement};
        let error = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build())
                .build()
        };
        for (path, item) in openapi.paths.paths.iter_mut() {
            let has_id = path.contains('{');
            for op in [&mut item.get, &mut item.post, &mut item.put, &mut item.delete, &mut item.patch]
                .into_iter()
                .flatten()
            {
                let mut add = |status: &str, description: &str| {
                    if !op.responses.responses.contains_key(status) {
                        op.responses.responses.insert(status.to_string(), error(description).into());
                    }
                };
                let json_body = op
                    .request_body
                    .as_ref()
                    .is_some_and(|b| match b {
                        RefOr::T(b) => b.content.contains_key("application/json"),
                        RefOr::Ref(_) => false,
                    });
                if path.starts_with("/api/v1/") {
                    // The score endpoints: anonymous (per-IP limit) or with a partner's key.
                    if op.security.is_none() {
                        op.security = Some(vec![
                            SecurityRequirement::default(),
                            SecurityRequirement::new("partner", Vec::<String>::new()),
                        ]);
                    }
                    add("401", "`X-API-Key` unknown or revoked (`API_KEY_INVALID`)");
                    add("429", "Rate limited: the key's or the address's profiles per minute are spent (`Retry-After`)");
                }
                if json_body {
                    for (status, description) in Self::BODY {
                        add(status, description);
                    }
                }
                if op.security.as_ref().is_some_and(|s| !s.is_empty()) {
                    add("401", "Missing (`TOKEN_MISSING`) or invalid (`TOKEN_INVALID`) token");
                }
                if has_id {
                    add("404", "No such object (an id that is not a UUID included)");
                }
            }
        }
    }
}

/// The served document: that of [`api_router`] completed once every area is merged in
/// (modifiers of `ApiDoc` run before that, on an empty document), as JSON with score-core's
/// own schemas of the profile and the report in place ([`score::schemas`]).
pub fn complete_openapi(mut openapi: utoipa::openapi::OpenApi) -> serde_json::Value {
    CommonResponses.modify(&mut openapi);
    let mut doc = serde_json::to_value(&openapi).expect("the OpenAPI document is JSON");
    score::schemas::insert(&mut doc);
    doc
}

/// All API routes with their OpenAPI description.
pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::router())
        .merge(auth::router())
        .merge(oidc::router())
        .merge(score::router())
        .merge(calibration::router())
        .merge(ca_sat::router())
        .merge(documents::router())
        .merge(agents::router())
        .merge(agent_changes::router())
        .merge(reviews::router())
        .merge(agencies::router())
        .merge(properties::router())
        .merge(leads::router())
        .merge(api_keys::router())
}
