//! Child processes under the document's deadline, in an owner-only scratch folder.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use score_docs::DocError;

use crate::{Deadline, unavailable, unreadable};

/// Most output a tool may write to stdout (a page of text is a few KB).
const MAX_OUTPUT: u64 = 8 * 1024 * 1024;

/// Most a tool may write to stderr that is kept (to tell a missing language from a bad file).
const MAX_ERRORS: u64 = 16 * 1024;

/// Reads at most `limit` bytes of a child's pipe on a thread (the rest is discarded, so the
/// child never blocks on a full pipe).
fn drain(mut pipe: impl Read + Send + 'static, limit: u64) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let _ = (&mut pipe).take(limit).read_to_end(&mut kept);
        let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        kept
    })
}

/// A scratch folder, removed when dropped (created 0700 by `tempfile`).
pub(crate) fn workdir() -> Result<tempfile::TempDir, DocError> {
    tempfile::Builder::new()
        .prefix("score-ocr-")
        .tempdir()
        .map_err(|_| unreadable("No se pudo preparar una carpeta temporal para leer el documento."))
}

/// Runs `program args` in `dir`, killed at the deadline; its stdout when it exits 0.
pub(crate) fn output(program: &str, args: &[&str], dir: &Path, deadline: Deadline) -> Result<String, DocError> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        // Tesseract parallelises one page with OpenMP; a server reads many documents at once.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => unavailable(program),
            _ => unreadable(format!("No se pudo ejecutar {program} para leer el documento.")),
        })?;
    // The pipes are read on threads so that a chatty child never blocks on a full pipe while
    // the deadline is watched here.
    let stdout = child.stdout.take().ok_or_else(|| unreadable("Sin salida del lector."))?;
    let stderr = child.stderr.take().ok_or_else(|| unreadable("Sin salida del lector."))?;
    let reader = drain(stdout, MAX_OUTPUT);
    let errors = drain(stderr, MAX_ERRORS);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {
                if deadline.left().is_err() {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(crate::too_slow());
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(_) => return Err(unreadable(format!("{program} terminó de forma inesperada."))),
        }
    };
    let text = reader.join().unwrap_or_default();
    let errors = errors.join().unwrap_or_default();
    if !status.success() {
        // Tesseract installed without its Spanish data says so on stderr and exits 1.
        let errors = String::from_utf8_lossy(&errors);
        if errors.contains("Failed loading language") || errors.contains("Could not initialize tesseract") {
            return Err(unavailable("los datos en español de Tesseract"));
        }
        return Err(unreadable("El archivo está dañado o no se puede leer."));
    }
    Ok(String::from_utf8_lossy(&text).into_owned())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::time::{Duration, Instant};

    use score_docs::DocErrorCode;

    use super::*;

    fn deadline() -> Deadline {
        Deadline(Instant::now() + Duration::from_secs(10))
    }

    #[test]
    fn a_missing_tool_is_ocr_unavailable_not_a_bad_document() {
        let dir = workdir().unwrap();
        let e = output("score-ocr-no-such-tool", &[], dir.path(), deadline()).unwrap_err();
        assert_eq!(e.code, DocErrorCode::DocumentOcrUnavailable);
        assert!(e.message.contains("score-ocr-no-such-tool"), "{}", e.message);
    }

    #[test]
    fn a_failing_tool_is_unreadable_and_long_output_does_not_block() {
        let dir = workdir().unwrap();
        let e = output("sh", &["-c", "exit 3"], dir.path(), deadline()).unwrap_err();
        assert_eq!(e.code, DocErrorCode::DocumentUnreadable);
        // 9 MiB to stdout and stderr: more than is kept of either; the child still finishes.
        let out = output("sh", &["-c", "head -c 9437184 /dev/zero; head -c 9437184 /dev/zero >&2"], dir.path(), deadline()).unwrap();
        assert_eq!(out.len() as u64, MAX_OUTPUT);
    }
}
