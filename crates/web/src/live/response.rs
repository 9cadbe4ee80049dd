//! [`Response`]: what the live page's server sends back, made by the state that answers
//! each path and written by the server.

/// What the server sends back.
pub(super) struct Response {
    /// The HTTP status.
    pub(super) status: u16,
    /// The `Content-Type` header.
    pub(super) content_type: &'static str,
    /// The body.
    pub(super) body: Vec<u8>,
}

impl Response {
    /// A page, 200.
    pub(super) fn html(body: String) -> Self {
        Response { status: 200, content_type: "text/html; charset=utf-8", body: body.into_bytes() }
    }

    /// A JSON document, 200.
    pub(super) fn json(body: String) -> Self {
        Response { status: 200, content_type: "application/json", body: body.into_bytes() }
    }

    /// Plain text with `status`.
    pub(super) fn text(status: u16, body: &str) -> Self {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: body.as_bytes().to_vec(),
        }
    }
}
