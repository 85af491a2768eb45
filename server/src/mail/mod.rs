//! Outgoing e-mail, durable: a request writes its e-mail to the `mail_outbox` table in the same
//! transaction as the account, token or lead that causes it ([`outbox::enqueue`]), and a
//! background worker per server instance ([`worker`]) delivers the queued rows. A committed
//! e-mail survives a crash or a restart, a slow or failing SMTP server never blocks a request,
//! and the queue lives in the database instead of memory.
//!
//! - `SMTP_URL` set (`smtp://host:port`, `smtp://user:pass@host:587?tls=required`,
//!   `smtps://...`): delivery with lettre, `MAIL_MAX_ATTEMPTS` attempts with exponential
//!   backoff from `MAIL_RETRY_BASE_MS`; a message that still fails (or that the server refuses
//!   for good) stays in the table as a dead letter (`status = 'dead'`, `last_error`).
//! - `SMTP_URL` unset (development): each message is written as an `.eml` file to
//!   `MAIL_OUTBOX_DIR` and its link is logged.
//!
//! The templates below build the messages (Spanish, plain text and HTML).

pub mod outbox;
pub mod worker;

pub use outbox::Email;

use std::{sync::Arc, time::Duration};

use tokio::sync::Notify;

use crate::db::Db;

/// The request side of the queue: wakes this instance's worker after a commit.
#[derive(Clone, Debug)]
pub struct Mailer {
    db: Db,
    wake: Arc<Notify>,
}

impl Mailer {
    pub fn new(db: Db) -> Mailer {
        Mailer { db, wake: Arc::new(Notify::new()) }
    }

    /// What the worker waits on.
    pub fn waker(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    /// Tells the worker that rows were committed (it also polls, so a missed wake only delays).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Queues an e-mail that goes with no other write (its own one-statement transaction) and
    /// wakes the worker. E-mails caused by a write go through [`outbox::enqueue`] in its
    /// transaction instead.
    pub async fn send(&self, email: &Email) -> Result<(), sqlx::Error> {
        outbox::enqueue(&self.db, email).await?;
        self.wake();
        Ok(())
    }
}

/// How long a stopping server waits for the deliveries in flight.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A minimal HTML e-mail: escaped paragraphs and an optional button with its link spelled out.
pub fn html_page(title: &str, paragraphs: &[String], button: Option<(&str, &str)>) -> String {
    let mut body = String::new();
    for p in paragraphs {
        body.push_str(&format!("<p>{}</p>\n", escape_html(p)));
    }
    if let Some((label, link)) = button {
        let l = escape_html(link);
        body.push_str(&format!(
            "<p><a href=\"{l}\" style=\"display:inline-block;padding:10px 18px;background:#1a56db;\
             color:#ffffff;text-decoration:none;border-radius:4px\">{}</a></p>\n\
             <p>Si el botón no funciona, copia este enlace en tu navegador:<br>{l}</p>\n",
            escape_html(label)
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"es\"><head><meta charset=\"utf-8\"><title>{}</title></head>\n\
         <body style=\"font-family:Arial,sans-serif;color:#111\">\n{body}</body></html>\n",
        escape_html(title)
    )
}

fn hours(d: Duration) -> u64 {
    (d.as_secs() / 3600).max(1)
}

/// Verification e-mail (registration and resend).
pub fn verification_email(to: &str, first_name: &str, link: &str, ttl: Duration) -> Email {
    let subject = "Verifica tu correo electrónico".to_string();
    let lines = vec![
        format!("Hola {first_name}:"),
        "Gracias por registrarte. Para activar tu cuenta, confirma tu correo electrónico con el siguiente enlace.".to_string(),
        format!("El enlace caduca en {} horas y solo puede usarse una vez.", hours(ttl)),
        "Si no creaste esta cuenta, ignora este mensaje.".to_string(),
    ];
    let text = format!(
        "{}\n\n{}\n\n{}\n\n{}\n\n{}\n",
        lines[0], lines[1], link, lines[2], lines[3]
    );
    let html = html_page(&subject, &lines, Some(("Verificar mi correo", link)));
    Email {
        to: to.into(),
        subject,
        text,
        html,
        kind: "verify_email",
        link: Some(link.into()),
    }
}

/// Password reset e-mail.
pub fn reset_email(to: &str, first_name: &str, link: &str, ttl: Duration) -> Email {
    let subject = "Restablece tu contraseña".to_string();
    let minutes = (ttl.as_secs() / 60).max(1);
    let lines = vec![
        format!("Hola {first_name}:"),
        "Recibimos una solicitud para restablecer la contraseña de tu cuenta. Usa el siguiente enlace para elegir una nueva.".to_string(),
        format!("El enlace caduca en {minutes} minutos y solo puede usarse una vez. Al cambiar la contraseña se cerrarán todas tus sesiones."),
        "Si no solicitaste este cambio, ignora este mensaje: tu contraseña no cambiará.".to_string(),
    ];
    let text = format!(
        "{}\n\n{}\n\n{}\n\n{}\n\n{}\n",
        lines[0], lines[1], link, lines[2], lines[3]
    );
    let html = html_page(&subject, &lines, Some(("Restablecer contraseña", link)));
    Email {
        to: to.into(),
        subject,
        text,
        html,
        kind: "reset_password",
        link: Some(link.into()),
    }
}

/// Sent when someone tries to register an address that already has an account, so the
/// registration response itself does not reveal that the account exists.
pub fn account_exists_email(to: &str, first_name: &str, login_link: &str) -> Email {
    let subject = "Ya tienes una cuenta".to_string();
    let lines = vec![
        format!("Hola {first_name}:"),
        "Alguien intentó crear una cuenta nueva con este correo electrónico, pero ya existe una cuenta registrada con él.".to_string(),
        "Si fuiste tú, inicia sesión o usa la opción de recuperar contraseña. Si no fuiste tú, puedes ignorar este mensaje.".to_string(),
    ];
    let text = format!(
        "{}\n\n{}\n\n{}\n\n{}\n",
        lines[0], lines[1], lines[2], login_link
    );
    let html = html_page(&subject, &lines, Some(("Iniciar sesión", login_link)));
    Email {
        to: to.into(),
        subject,
        text,
        html,
        kind: "account_exists",
        link: None,
    }
}

/// Sent to an agent whose account an office created: the office vouches for the address, so
/// the agent can log in at once with the password the office chose (never in the message).
pub fn agent_welcome_email(to: &str, first_name: &str, agency: Option<&str>, login_link: &str) -> Email {
    let subject = "Bienvenido a la plataforma".to_string();
    let office = match agency {
        Some(name) => format!("Se creó tu perfil de agente en la oficina {name}."),
        None => "Se creó tu perfil de agente.".to_string(),
    };
    let lines = vec![
        format!("Hola {first_name}:"),
        office,
        format!("Ya puedes iniciar sesión con este correo ({to}) y la contraseña que te entregó tu oficina."),
        "Te recomendamos cambiarla después de tu primer inicio de sesión.".to_string(),
    ];
    let text = format!("{}\n\n{}\n\n{}\n{login_link}\n\n{}\n", lines[0], lines[1], lines[2], lines[3]);
    let html = html_page(&subject, &lines, Some(("Iniciar sesión", login_link)));
    Email {
        to: to.into(),
        subject,
        text,
        html,
        kind: "agent_welcome",
        link: Some(login_link.into()),
    }
}
