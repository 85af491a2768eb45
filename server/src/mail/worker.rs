//! The delivery worker: claims due rows of the outbox table ([`super::outbox`]) and sends
//! them, several at a time, until the server stops.
//!
//! It wakes when a request of this process queues an e-mail ([`super::Mailer::wake`]), when a
//! delivery ends, and every `MAIL_POLL_INTERVAL_MS` (rows queued by another instance, retries
//! coming due, leases running out). Each instance claims its own rows, so several instances
//! on one database never send the same row twice while they are alive. Delivery is
//! at-least-once: a process killed between the SMTP server's acceptance and the `sent` mark
//! sends that one message again after the lease.

use std::{path::PathBuf, sync::Arc, time::Duration};

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, MultiPart},
};
use tokio::{
    sync::{Notify, watch},
    task::{JoinHandle, JoinSet},
};

use super::outbox::{self, Failure, Queued};
use crate::{
    config::Config,
    db::{Backend, Db},
    metrics::Metrics,
};

/// Most deliveries in flight at once per instance (an SMTP pool's worth).
const MAX_IN_FLIGHT: usize = 8;

/// How often sent rows past their keeping time are deleted.
const PURGE_EVERY: Duration = Duration::from_secs(3600);

#[derive(Debug)]
struct Delivery {
    db: Db,
    from: Mailbox,
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    outbox_dir: PathBuf,
    max_attempts: u32,
    retry_base: Duration,
    metrics: Arc<Metrics>,
}

/// The running worker; [`WorkerHandle::shutdown`] stops it.
#[derive(Debug)]
pub struct WorkerHandle {
    stop: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl WorkerHandle {
    /// Stops the worker: it delivers the rows that were due when it was told to stop (the
    /// e-mails of the requests the server just finished) and the deliveries in flight, for up
    /// to `grace`. Retries that come due later and rows not delivered within `grace` stay
    /// queued in the database for the next start or another instance.
    pub async fn shutdown(self, grace: Duration) {
        let _ = self.stop.send(true);
        if tokio::time::timeout(grace, self.task).await.is_err() {
            tracing::warn!("e-mail deliveries still in flight after {grace:?}; they will be retried after the lease");
        }
    }
}

/// Starts the worker of this process.
pub fn start(
    cfg: &Config,
    db: Db,
    wake: Arc<Notify>,
    metrics: Arc<Metrics>,
) -> Result<WorkerHandle, String> {
    let from: Mailbox = cfg.mail_from.parse().map_err(|e| format!("MAIL_FROM: {e}"))?;
    let smtp = match &cfg.smtp_url {
        Some(url) => Some(
            AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                .map_err(|e| format!("SMTP_URL: {e}"))?
                .timeout(Some(cfg.smtp_timeout))
                .build(),
        ),
        None => None,
    };
    let delivery = Arc::new(Delivery {
        db,
        from,
        smtp,
        outbox_dir: cfg.mail_outbox_dir.clone(),
        max_attempts: cfg.mail_max_attempts.max(1),
        retry_base: cfg.mail_retry_base,
        metrics,
    });
    let backend = Backend::of_url(&cfg.database_url);
    let poll = cfg.mail_poll_interval.max(Duration::from_millis(10));
    let (stop, stopped) = watch::channel(false);
    let task = tokio::spawn(run(delivery, backend, poll, wake, stopped));
    Ok(WorkerHandle { stop, task })
}

async fn run(
    delivery: Arc<Delivery>,
    backend: Backend,
    poll: Duration,
    wake: Arc<Notify>,
    mut stopped: watch::Receiver<bool>,
) {
    let mut in_flight = JoinSet::new();
    let mut next_purge = tokio::time::Instant::now();
    loop {
        if *stopped.borrow() {
            break;
        }
        let room = MAX_IN_FLIGHT.saturating_sub(in_flight.len());
        if room > 0 {
            match outbox::claim(&delivery.db, backend, room, outbox::now_ms()).await {
                Ok(rows) => {
                    // A full batch leaves no room: the next claim waits for a delivery to end.
                    for row in rows {
                        let d = delivery.clone();
                        in_flight.spawn(async move { d.deliver(row).await });
                    }
                }
                Err(e) => tracing::error!(error = %e, "could not claim queued e-mails"),
            }
        }
        if tokio::time::Instant::now() >= next_purge {
            next_purge += PURGE_EVERY;
            match outbox::purge_sent(&delivery.db).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(rows = n, "old sent e-mails deleted from the outbox table"),
                Err(e) => tracing::warn!(error = %e, "could not purge sent e-mails"),
            }
        }
        tokio::select! {
            Some(_) = in_flight.join_next(), if !in_flight.is_empty() => {}
            _ = wake.notified() => {}
            _ = tokio::time::sleep(poll) => {}
            _ = stopped.changed() => {}
        }
    }
    drain(&delivery, backend, in_flight).await;
}

/// The last pass before the process exits: the rows due at this moment are claimed and sent,
/// batch by batch, with the deliveries already in flight. A delivery that fails here is
/// rescheduled after this moment, so it is not tried again until the next start.
async fn drain(delivery: &Arc<Delivery>, backend: Backend, mut in_flight: JoinSet<()>) {
    let stopped_at = outbox::now_ms();
    loop {
        let room = MAX_IN_FLIGHT.saturating_sub(in_flight.len());
        let rows = if room > 0 {
            match outbox::claim(&delivery.db, backend, room, stopped_at).await {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::error!(error = %e, "could not claim queued e-mails at shutdown");
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let claimed = !rows.is_empty();
        for row in rows {
            let d = delivery.clone();
            in_flight.spawn(async move { d.deliver(row).await });
        }
        if in_flight.join_next().await.is_none() && !claimed {
            break;
        }
    }
}

impl Delivery {
    async fn deliver(&self, row: Queued) {
        let outcome = match self.build(&row) {
            Err(e) => Err((e, true)),
            Ok(message) => match &self.smtp {
                Some(smtp) => smtp
                    .send(message)
                    .await
                    .map(|_| ())
                    .map_err(|e| (e.to_string(), e.is_permanent())),
                None => self.write_eml(&message).await.map(|path| {
                    tracing::info!(kind = %row.kind, file = %path.display(),
                        link = row.link.as_deref().unwrap_or(""),
                        "e-mail written to outbox (SMTP_URL not set)");
                }).map_err(|e| (format!("outbox file: {e}"), false)),
            },
        };
        match outcome {
            Ok(()) => {
                Metrics::inc(&self.metrics.emails_sent);
                tracing::info!(kind = %row.kind, attempt = row.attempts, "e-mail sent");
                if let Err(e) = outbox::mark_sent(&self.db, &row.id).await {
                    // It went out; the row comes due again after the lease and is sent twice.
                    tracing::error!(kind = %row.kind, error = %e, "e-mail sent but not marked sent");
                }
            }
            Err((error, permanent)) => {
                Metrics::inc(&self.metrics.emails_failed_attempts);
                match outbox::mark_failed(&self.db, &row, &error, permanent, self.max_attempts, self.retry_base).await {
                    Ok(Failure::Retry { at_ms }) => tracing::warn!(kind = %row.kind, attempt = row.attempts, error = %error,
                        retry_in_ms = at_ms - outbox::now_ms(), "e-mail delivery failed; will retry"),
                    Ok(Failure::Dead) => {
                        Metrics::inc(&self.metrics.emails_dead_lettered);
                        tracing::error!(kind = %row.kind, id = %row.id, attempt = row.attempts, error = %error,
                            "e-mail not delivered; kept as a dead letter in the mail_outbox table");
                    }
                    Ok(Failure::Lost) => tracing::warn!(kind = %row.kind, id = %row.id, "e-mail claim expired during delivery"),
                    Err(e) => tracing::error!(kind = %row.kind, error = %e, "could not record a failed e-mail attempt"),
                }
            }
        }
    }

    fn build(&self, row: &Queued) -> Result<Message, String> {
        let to: Mailbox = row.recipient.parse().map_err(|e| format!("recipient: {e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(row.subject.clone())
            .multipart(MultiPart::alternative_plain_html(row.body_text.clone(), row.body_html.clone()))
            .map_err(|e| e.to_string())
    }

    /// Development delivery: the message as an `.eml` file in `MAIL_OUTBOX_DIR`. The files
    /// carry live verification and reset links: owner-only (crate::files).
    async fn write_eml(&self, message: &Message) -> std::io::Result<PathBuf> {
        let name = format!(
            "{}-{}.eml",
            time::OffsetDateTime::now_utc().unix_timestamp_nanos(),
            uuid::Uuid::new_v4().simple()
        );
        let dir = self.outbox_dir.clone();
        let path = dir.join(name);
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
