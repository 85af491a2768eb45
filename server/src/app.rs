//! Building the application (state, router, middleware) and serving it with graceful shutdown.

use std::{future::Future, net::SocketAddr, sync::Arc, time::Instant};

use axum::{
    Router,
    body::Body,
    extract::{DefaultBodyLimit, MatchedPath, Request, State},
    http::{HeaderName, HeaderValue, Method, StatusCode, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use tokio::net::TcpListener;
use tower_http::{
    catch_panic::CatchPanicLayer,
    cors::{AllowOrigin, CorsLayer},
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    timeout::TimeoutLayer,
    trace::TraceLayer,
};
use utoipa_swagger_ui::SwaggerUi;

use crate::{
    config::Config,
    db,
    domain::oidc::OidcState,
    http::error::{ApiError, EnvelopeMarker},
    mail::{self, worker::WorkerHandle},
    metrics::Metrics,
    ratelimit::RateLimiter,
    routes,
    security::{JwtService, PasswordService, load_or_create_jwt_secret},
    state::AppState,
};

#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    #[error("{0}")]
    Other(String),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// Connects and migrates the database, loads keys and starts the mail delivery worker.
pub async fn build_state(config: Config) -> Result<(AppState, WorkerHandle), StartupError> {
    let db = db::connect_and_migrate(&config.database_url, config.db_max_connections).await?;
    let secret = load_or_create_jwt_secret(&config)?;
    let metrics = Arc::new(Metrics::default());
    let mailer = mail::Mailer::new(db.clone());
    let mail_worker = mail::worker::start(&config, db.clone(), mailer.waker(), metrics.clone())
        .map_err(StartupError::Other)?;
    let passwords = PasswordService::new(&config.argon2, config.hash_concurrency)
        .map_err(StartupError::Other)?;
    let oidc = OidcState::new(config.oidc.clone()).map_err(StartupError::Other)?;
    let limits = score_ocr::Limits { timeout: config.ocr_timeout, ..score_ocr::Limits::default() };
    let reader = crate::reader::DocumentReader::start(db.clone(), config.ocr_workers, config.ocr_queue, limits);
    let backend = db::Backend::of_url(&config.database_url);
    let state = AppState::new(crate::state::Services {
        profile_writer: crate::domain::buyers::ProfileWriter::start(db.clone()),
        limiter: Arc::new(RateLimiter::for_backend(backend, db.clone(), config.auth_rate_limit_per_minute)),
        score_limiter: Arc::new(RateLimiter::for_backend(backend, db.clone(), config.score_rate_limit_per_minute)),
        db,
        jwt: Arc::new(JwtService::new(&secret, &config)),
        config: Arc::new(config),
        mailer,
        passwords,
        metrics,
        oidc: Arc::new(oidc),
        reader,
    });
    Ok((state, mail_worker))
}

/// The full router: API routes, docs, fallbacks and every middleware.
pub fn router(state: AppState) -> Router {
    let (api, openapi) = routes::api_router().split_for_parts();
    let openapi = routes::complete_openapi(openapi);
    let mut app: Router<AppState> = api;
    if state.config.api_docs_enabled {
        app = app.merge(SwaggerUi::new("/docs").external_url_unchecked("/openapi.json", openapi));
    } else {
        let doc = Arc::new(openapi);
        app = app.route(
            "/openapi.json",
            axum::routing::get(move || {
                let doc = doc.clone();
                async move { axum::Json((*doc).clone()) }
            }),
        );
    }
    app = app.merge(crate::web::router()); // the web app's pages and assets (web.rs)
    let cors = cors_layer(&state.config.cors_allowed_origins);
    let timeout = state.config.request_timeout;
    let body_limit = state.config.max_body_bytes;
    let request_id = HeaderName::from_static("x-request-id");
    app.fallback(|| async { ApiError::from_status(StatusCode::NOT_FOUND) })
        .method_not_allowed_fallback(|| async { ApiError::from_status(StatusCode::METHOD_NOT_ALLOWED) })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, timeout))
        .layer(middleware::from_fn_with_state(state.clone(), response_policies))
        .layer(middleware::from_fn(crate::http::connection::close_after_refused_body))
        .layer(cors)
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request<Body>| {
                    let id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("-");
                    let client = req
                        .extensions()
                        .get::<axum::extract::ConnectInfo<SocketAddr>>()
                        .map(|c| c.0.ip().to_string())
                        .unwrap_or_default();
                    tracing::info_span!("request", request_id = %id, client = %client, method = %req.method(), path = %req.uri().path())
                })
                .on_response(
                    |resp: &Response, latency: std::time::Duration, _span: &tracing::Span| {
                        // A number, so that log queries can compare and aggregate it.
                        tracing::info!(
                            status = resp.status().as_u16(),
                            latency_ms = latency.as_secs_f64() * 1000.0,
                            "finished processing request"
                        );
                    },
                ),
        )
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
        .layer(CatchPanicLayer::custom(|_: Box<dyn std::any::Any + Send>| {
            tracing::error!("handler panicked");
            ApiError::internal_generic().into_response()
        }))
        .with_state(state)
}

fn cors_layer(origins: &[String]) -> CorsLayer {
    let list: Vec<HeaderValue> = origins
        .iter()
        .filter_map(|o| HeaderValue::from_str(o).ok())
        .collect();
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(list))
        .allow_methods([
            Method::GET,
            Method::POST,
            Method::PUT,
            Method::DELETE,
            Method::PATCH,
        ])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            HeaderName::from_static("x-request-id"),
        ])
        .expose_headers([HeaderName::from_static("x-request-id"), header::RETRY_AFTER])
        .max_age(std::time::Duration::from_secs(600))
}

/// Metrics, the error envelope for every bare framework error, and cache/security headers.
async fn response_policies(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".into());
    let is_auth = req.uri().path().starts_with("/api/auth");
    let mut resp = next.run(req).await;
    let status = resp.status();
    if (status.is_client_error() || status.is_server_error())
        && resp.extensions().get::<EnvelopeMarker>().is_none()
    {
        let mut replacement = ApiError::from_status(status).into_response();
        for name in [header::ALLOW, header::RETRY_AFTER, header::WWW_AUTHENTICATE] {
            if let Some(v) = resp.headers().get(&name) {
                replacement.headers_mut().insert(name, v.clone());
            }
        }
        resp = replacement;
    }
    let headers = resp.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if is_auth {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        headers.insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    }
    state.metrics.observe(
        method.as_str(),
        &route,
        resp.status().as_u16(),
        start.elapsed(),
    );
    resp
}

/// A bound, ready-to-run server.
#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    router: Router,
    mail_worker: WorkerHandle,
    /// Held while serving a SQLite file (one process per file; [`db::InstanceLock`]).
    instance_lock: Option<db::InstanceLock>,
    pub state: AppState,
}

impl Application {
    /// Binds `HOST:PORT` from the configuration and builds everything.
    /// On SQLite it first takes the file's instance lock: a second process refuses to start.
    pub async fn build(config: Config) -> Result<Self, StartupError> {
        let lock = db::InstanceLock::acquire(&config.database_url).map_err(StartupError::Other)?;
        let listener = TcpListener::bind((config.host, config.port)).await?;
        let config = config.with_bound_port(listener.local_addr()?.port());
        let mut app = Self::build_with_listener(config, listener).await?;
        app.instance_lock = Some(lock);
        Ok(app)
    }

    /// Builds the application on an already-bound listener (tests bind port 0 first).
    pub async fn build_with_listener(
        config: Config,
        listener: TcpListener,
    ) -> Result<Self, StartupError> {
        let (state, mail_worker) = build_state(config).await?;
        let router = router(state.clone());
        Ok(Self {
            listener,
            router,
            mail_worker,
            instance_lock: None,
            state,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Serves until `shutdown` resolves, finishes in-flight requests, then lets the mail
    /// worker finish the deliveries in flight (up to 30 s); the rest stays queued in the
    /// database for the next start.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let Application {
            listener,
            router,
            mail_worker,
            instance_lock,
            state,
        } = self;
        drop(state);
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await?;
        mail_worker.shutdown(mail::SHUTDOWN_GRACE).await;
        drop(instance_lock);
        Ok(())
    }
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutdown signal received; finishing in-flight requests");
}
