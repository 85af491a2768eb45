//! The web app (`web/`, built by `npm run build` into `web/dist/`) served by this server, so
//! the links of every e-mail (`FRONTEND_URL` defaults to the server's own address) open a page.
//!
//! - **Where**: `WEB_DIST_DIR`, else `web/dist` under the working directory, else the
//!   repository's `web/dist` next to this crate. A missing folder only logs a warning: the API
//!   works without the pages, and page paths then answer the usual 404 envelope.
//! - **Pages**: the client-side routes in [`PAGES`] all answer `index.html` (the app routes in
//!   the browser). Only these paths do: `/api/...` and every other unknown path keep the API's
//!   404 `ROUTE_NOT_FOUND` envelope, so a mistyped API call is never answered with HTML.
//! - **Compression**: the build writes `.br` and `.gz` beside each file; they are served by
//!   `Accept-Encoding` (with `Vary: accept-encoding`), nothing is compressed per request.
//! - **Caching**: `/assets/*` names carry a content hash, so they are `immutable` for a year;
//!   HTML is `no-cache` (revalidated with its `ETag`/`Last-Modified` on every visit, so a new
//!   build shows at once).
//! - **Security headers** on every page: a strict Content-Security-Policy (scripts and styles
//!   only from this origin, no inline script, no `unsafe-eval`; `'wasm-unsafe-eval'` because
//!   the calculator compiles score-wasm's WebAssembly), `Referrer-Policy: no-referrer` (the
//!   verification and reset links carry their token in the query), and no framing.

use std::path::{Path, PathBuf};

use axum::{
    Router,
    http::{HeaderValue, header},
};
use tower::ServiceBuilder;
use tower_http::{
    services::{ServeDir, ServeFile},
    set_header::SetResponseHeaderLayer,
};

use crate::state::AppState;

/// The app's client-side routes (kept in step with `web/src/routes.js`, checked by the web
/// end-to-end suite, which opens every one of them through this server).
pub const PAGES: &[&str] = &[
    "/",
    "/login",
    "/register",
    "/terms",
    "/verify-email",
    "/forgot-password",
    "/reset-password",
    "/auth/callback",
    "/auth/idp/callback",
    "/account",
    "/calculator",
    "/profile/{id}",
    "/agents",
    "/agents/{id}",
    "/office",
    "/leads",
];

/// Files at the root of the build (everything else lives under the hashed `/assets/`).
const ROOT_FILES: &[&str] = &["/favicon.svg", "/robots.txt"];

/// The Content-Security-Policy of every page.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
     style-src 'self'; img-src 'self' data: https:; font-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The folder with the built app (see the module documentation).
pub fn dist_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("WEB_DIST_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("web/dist");
    if local.join("index.html").is_file() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/dist")
}

/// The pages and their assets, to merge into the application's router.
pub fn router() -> Router<AppState> {
    let dist = dist_dir();
    if !dist.join("index.html").is_file() {
        tracing::warn!(
            dir = %dist.display(),
            "web app not built (run `npm run build` in web/ or set WEB_DIST_DIR); pages answer 404"
        );
        return Router::new();
    }
    let index = ServeFile::new(dist.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let assets = ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ))
        .service(
            ServeDir::new(dist.join("assets"))
                .precompressed_br()
                .precompressed_gzip(),
        );
    let mut router = Router::new().nest_service("/assets", assets);
    for page in PAGES {
        router = router.route_service(page, index.clone());
    }
    for file in ROOT_FILES {
        let path = dist.join(file.trim_start_matches('/'));
        router = router.route_service(file, ServeFile::new(path).precompressed_gzip());
    }
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_no_inline_script_and_no_eval() {
        let script = CONTENT_SECURITY_POLICY
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with("script-src"))
            .expect("script-src");
        assert_eq!(script, "script-src 'self' 'wasm-unsafe-eval'");
        assert!(!CONTENT_SECURITY_POLICY.contains("'unsafe-inline'"));
        assert!(!CONTENT_SECURITY_POLICY.contains("'unsafe-eval'"));
    }

    #[test]
    fn no_page_shadows_the_api() {
        for page in PAGES {
            assert!(!page.starts_with("/api"), "{page}");
            assert!(page.starts_with('/'), "{page}");
        }
    }
}
