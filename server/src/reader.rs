//! The pool that reads printed documents off the request path.
//!
//! Reading a scan takes a second or more of a core (Tesseract) and a photo of several pages
//! far more, so the upload only queues the file and answers 202; `workers` tasks take files
//! from a bounded queue and read each with score-ocr on a blocking thread (Poppler and
//! Tesseract run as child processes, limited in bytes, pages, pixels and time). When the queue
//! is full, an upload is refused with 503 `DOCUMENT_QUEUE_FULL` before anything is stored.
//!
//! A file lives in this queue's memory and in score-ocr's owner-only scratch folder only
//! while it is read. A server stopped with files still queued marks them
//! `DOCUMENT_READ_INTERRUPTED` at its next start ([`document_reads::interrupt_unfinished`]).

use std::sync::Arc;

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

/// The queue of the pool; cloned into the application state.
#[derive(Debug, Clone)]
pub struct DocumentReader {
    queue: mpsc::Sender<Job>,
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
    /// Starts `workers` readers over a queue of `capacity` files.
    pub fn start(db: Db, workers: usize, capacity: usize, limits: Limits) -> DocumentReader {
        let (queue, jobs) = mpsc::channel::<Job>(capacity.max(1));
        let jobs = Arc::new(Mutex::new(jobs));
        let layouts = Arc::new(BankLayout::builtin());
        let limits = Arc::new(limits);
        for _ in 0..workers.max(1) {
            tokio::spawn(work(db.clone(), jobs.clone(), layouts.clone(), limits.clone()));
        }
        DocumentReader { queue }
    }

    /// Room for `n` files, or `None` when the queue cannot take them all now.
    pub fn reserve(&self, n: usize) -> Option<Reserved<'_>> {
        (0..n).map(|_| self.queue.try_reserve().ok()).collect::<Option<Vec<_>>>().map(Reserved)
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
