//! Keep-alive after an early answer.
//!
//! Some answers come before the request body is read: 401 or 403 from the token check, 415
//! from the content type, 413 from the declared length, 404/405 from the router. hyper then
//! closes the connection once the response is written (it will not read an unbounded body it
//! was not asked for), and a pooling client that sends its next request on that connection
//! loses it. So every error answer to a request that announced a body says
//! `Connection: close`: the client opens a new connection instead of reusing a dying one. Error
//! answers that came after the body was read close too; a client pays one reconnection per
//! refused request with a body, never a lost request.

use axum::{
    extract::Request,
    http::{HeaderValue, header},
    middleware::Next,
    response::Response,
};

/// Middleware: `Connection: close` on an error answer to a request that announced a body.
pub async fn close_after_refused_body(req: Request, next: Next) -> Response {
    let announced_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0);
    let mut resp = next.run(req).await;
    if announced_body && (resp.status().is_client_error() || resp.status().is_server_error()) {
        resp.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    resp
}
