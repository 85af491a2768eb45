//! Outgoing e-mail. Requests only enqueue a message; a background worker delivers it so a slow
//! or failing SMTP server never blocks the request path.
//!
//! - `SMTP_URL` set (`smtp://host:port`, `smtp://user:pass@host:587?tls=required`,
//!   `smtps://...`): delivery with lettre, retried `MAIL_MAX_ATTEMPTS` times with exponential
//!   backoff; a message that still fails is written to `<MAIL_OUTBOX_DIR>/failed/` and logged,
//!   so it is never lost.
//! - `SMTP_URL` unset (development): each message is written as an `.eml` file to
//!   `MAIL_OUTBOX_DIR` and its link is logged.

use std::{path::PathBuf, sync::Arc, time::Duration};

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, MultiPart},
};
use tokio::{sync::mpsc, task::JoinSet};

use crate::{config::Config, metrics::Metrics};

/// One message to send.
#[derive(Debug, Clone)]
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Kind, for logs and metrics (`verify_email`, `reset_password`, ...).
    pub kind: &'static str,
    /// The action link; logged only in outbox (development) mode.
    pub link: Option<String>,
}

/// Handle to the delivery queue.
#[derive(Clone, Debug)]
pub struct Mailer {
    tx: mpsc::UnboundedSender<Email>,
}

impl Mailer {
    /// Enqueues a message; never blocks.
    pub fn send(&self, email: Email) {
        if self.tx.send(email).is_err() {
            tracing::error!("mail queue closed; message not enqueued");
        }
    }
}

#[derive(Debug)]
struct Worker {
    from: Mailbox,
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    outbox: PathBuf,
    max_attempts: u32,
    retry_base: Duration,
    metrics: Arc<Metrics>,
}

/// Starts the delivery worker. The returned task ends after every `Mailer` clone is dropped
/// and the queued messages are delivered (graceful shutdown).
pub fn start(
    cfg: &Config,
    metrics: Arc<Metrics>,
) -> Result<(Mailer, tokio::task::JoinHandle<()>), String> {
    let from: Mailbox = cfg
        .mail_from
        .parse()
        .map_err(|e| format!("MAIL_FROM: {e}"))?;
    let smtp = match &cfg.smtp_url {
        Some(url) => Some(
            AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                .map_err(|e| format!("SMTP_URL: {e}"))?
                .timeout(Some(Duration::from_secs(15)))
                .build(),
        ),
        None => None,
    };
    let worker = Arc::new(Worker {
        from,
        smtp,
        outbox: cfg.mail_outbox_dir.clone(),
        max_attempts: cfg.mail_max_attempts.max(1),
        retry_base: cfg.mail_retry_base,
        metrics,
    });
    let (tx, mut rx) = mpsc::unbounded_channel::<Email>();
    let handle = tokio::spawn(async move {
        let mut inflight = JoinSet::new();
        while let Some(email) = rx.recv().await {
            let w = worker.clone();
            inflight.spawn(async move { w.deliver(email).await });
            while inflight.try_join_next().is_some() {}
        }
        while inflight.join_next().await.is_some() {}
    });
    Ok((Mailer { tx }, handle))
}

impl Worker {
    async fn deliver(&self, email: Email) {
        let message = match self.build(&email) {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(kind = email.kind, error = %e, "could not build e-mail");
                return;
            }
        };
        let Some(smtp) = &self.smtp else {
            match self.write_eml(&self.outbox, &message).await {
                Ok(path) => {
                    Metrics::inc(&self.metrics.emails_sent);
                    tracing::info!(kind = email.kind, file = %path.display(),
                        link = email.link.as_deref().unwrap_or(""),
                        "e-mail written to outbox (SMTP_URL not set)");
                }
                Err(e) => {
                    tracing::error!(kind = email.kind, error = %e, "could not write e-mail to outbox")
                }
            }
            return;
        };
        for attempt in 1..=self.max_attempts {
            match smtp.send(message.clone()).await {
                Ok(_) => {
                    Metrics::inc(&self.metrics.emails_sent);
                    tracing::info!(kind = email.kind, attempt, "e-mail sent");
                    return;
                }
                Err(e) => {
                    Metrics::inc(&self.metrics.emails_failed_attempts);
                    tracing::warn!(kind = email.kind, attempt, error = %e, "e-mail delivery failed");
                    if attempt < self.max_attempts {
                        let factor = 2u32.saturating_pow(attempt - 1).min(64);
                        tokio::time::sleep(self.retry_base * factor).await;
                    }
                }
            }
        }
        Metrics::inc(&self.metrics.emails_dead_lettered);
        match self.write_eml(&self.outbox.join("failed"), &message).await {
            Ok(path) => tracing::error!(kind = email.kind, file = %path.display(),
                "e-mail not delivered after all retries; kept in the outbox failed/ folder"),
            Err(e) => tracing::error!(kind = email.kind, error = %e,
                "e-mail not delivered after all retries and could not be saved"),
        }
    }

    fn build(&self, email: &Email) -> Result<Message, String> {
        let to: Mailbox = email.to.parse().map_err(|e| format!("recipient: {e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(email.subject.clone())
            .multipart(MultiPart::alternative_plain_html(
                email.text.clone(),
                email.html.clone(),
            ))
            .map_err(|e| e.to_string())
    }

    async fn write_eml(
        &self,
        dir: &std::path::Path,
        message: &Message,
    ) -> std::io::Result<PathBuf> {
        // The e-mails carry live verification and reset links: owner-only (crate::files).
        let name = format!(
            "{}-{}.eml",
            time::OffsetDateTime::now_utc().unix_timestamp_nanos(),
            uuid::Uuid::new_v4().simple()
        );
        let (dir, path) = (dir.to_path_buf(), dir.join(name));
        let tmp = path.with_extension("eml.tmp");
        let bytes = message.formatted();
        let done = path.clone();
        tokio::task::spawn_blocking(move || {
            crate::files::create_private_dir(&dir)?;
            crate::files::write_private(&tmp, &bytes)?;
            std::fs::rename(&tmp, &done)
        })
        .await
        .map_err(std::io::Error::other)??;
        Ok(path)
    }
}

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
