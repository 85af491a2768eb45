//! The pool that reads printed documents off the request path.
//!
//! Reading a scan takes a second or more of a core (Tesseract) and a photo of several pages
//! far more, so the upload only queues the file and answers 202; `workers` tasks take files
//! from a bounded queue and read each with score-ocr on a blocking thread (Poppler and
//! Tesseract run as child processes, limited in bytes, pages, pixels and time). When the queue
//! is full, an upload is refused with 503 `DOCUMENT_QUEUE_FULL` before anything is stored.
//!
//! A file lives in this queue's memory and in score-ocr's owner-only scratch folder only
//! while it is read, so its row records which instance reads it (`lector`). Each instance says
//! it is alive every [`HEARTBEAT`] and marks `DOCUMENT_READ_INTERRUPTED` the documents whose
//! instance has been silent for [`STALE_AFTER`] (stopped or killed with them in memory;
//! [`document_reads::interrupt_orphaned`]): with several instances on one database, one that
//! starts never cuts short what another is reading.

use std::{sync::Arc, time::Duration};

use axum::body::Bytes;
use score_docs::{BankLayout, DocumentKind};
use score_ocr::Limits;
use tokio::sync::{Mutex, mpsc};

use crate::{
    db::Db,
    domain::document_reads::{self, NewRead},
};

/// One file to read.
#[derive(Debug)]
pub struct Job {
    /// The `document_reads` row.
    pub read_id: String,
    pub profile_id: String,
    pub file: NewRead,
    pub bytes: Bytes,
}

/// How often an instance says it is alive and looks for documents whose reader is gone.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// An instance silent this long is gone: the documents it was reading are interrupted.
pub const STALE_AFTER: Duration = Duration::from_secs(30);

/// The queue of the pool; cloned into the application state.
#[derive(Debug, Clone)]
pub struct DocumentReader {
    queue: mpsc::Sender<Job>,
    /// This instance (a UUID per start), recorded as the reader of the documents it queues.
    instance: Arc<str>,
}

/// Room for `n` files in the queue, taken before the files are recorded so that a full queue
/// refuses the upload whole.
#[derive(Debug)]
pub struct Reserved<'a>(Vec<mpsc::Permit<'a, Job>>);

impl Reserved<'_> {
    /// Queues the jobs (as many as were reserved).
    pub fn send(self, jobs: Vec<Job>) {
        for (permit, job) in self.0.into_iter().zip(jobs) {
            permit.send(job);
        }
    }
}

impl DocumentReader {
    /// Starts `workers` readers over a queue of `capacity` files, and this instance's heartbeat.
    pub fn start(db: Db, workers: usize, capacity: usize, limits: Limits) -> DocumentReader {
        let instance: Arc<str> = crate::db::new_id().into();
        tokio::spawn(keep_alive(db.clone(), instance.clone()));
        let (queue, jobs) = mpsc::channel::<Job>(capacity.max(1));
        let jobs = Arc::new(Mutex::new(jobs));
        let layouts = Arc::new(BankLayout::builtin());
        let limits = Arc::new(limits);
        for _ in 0..workers.max(1) {
            tokio::spawn(work(db.clone(), jobs.clone(), layouts.clone(), limits.clone()));
        }
        DocumentReader { queue, instance }
    }

    /// This instance's id, the reader of the documents it queues.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Room for `n` files, or `None` when the queue cannot take them all now.
    pub fn reserve(&self, n: usize) -> Option<Reserved<'_>> {
        (0..n).map(|_| self.queue.try_reserve().ok()).collect::<Option<Vec<_>>>().map(Reserved)
    }
}

/// Every [`HEARTBEAT`] for as long as the process runs: this instance is alive, and the
/// documents of instances silent for [`STALE_AFTER`] are interrupted.
async fn keep_alive(db: Db, instance: Arc<str>) {
    let stale_after = i64::try_from(STALE_AFTER.as_secs()).unwrap_or(i64::MAX);
    let mut ticks = tokio::time::interval(HEARTBEAT);
    loop {
        ticks.tick().await;
        if let Err(e) = document_reads::heartbeat(&db, &instance).await {
            tracing::warn!(error = %e.message, "could not record this instance's heartbeat");
        }
        match document_reads::interrupt_orphaned(&db, stale_after).await {
            Ok(0) => {}
            Ok(n) => tracing::warn!(documents = n, "printed documents whose reader stopped marked DOCUMENT_READ_INTERRUPTED"),
            Err(e) => tracing::warn!(error = %e.message, "could not look for documents whose reader stopped"),
        }
    }
}

async fn work(db: Db, jobs: Arc<Mutex<mpsc::Receiver<Job>>>, layouts: Arc<Vec<BankLayout>>, limits: Arc<Limits>) {
    loop {
        let Some(job) = jobs.lock().await.recv().await else { return };
        let kind = match job.file.tipo {
            Some("estado_cuenta") => Some(DocumentKind::EstadoCuenta),
            Some("recibo_nomina") => Some(DocumentKind::ReciboNomina),
            _ => None,
        };
        let (layouts, limits, bytes) = (layouts.clone(), limits.clone(), job.bytes);
        let outcome = tokio::task::spawn_blocking(move || score_ocr::read_document(&bytes, kind, &layouts, &limits)).await;
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(panic) => {
                tracing::error!(read = %job.read_id, error = %panic, "document reader failed");
                Err(score_docs::DocError::new(
                    score_docs::DocErrorCode::DocumentUnreadable,
                    None,
                    "No se pudo leer el documento; vuelve a subirlo.",
                ))
            }
        };
        if let Err(e) = document_reads::finish(&db, &job.read_id, &job.profile_id, job.file, outcome).await {
            tracing::error!(read = %job.read_id, error = %e.message, "could not record a document's reading");
        }
    }
}
