//! Child processes under the document's deadline, in an owner-only scratch folder.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use score_docs::DocError;

use crate::{Deadline, unreadable};

/// Most output a tool may write to stdout (a page of text is a few KB).
const MAX_OUTPUT: u64 = 8 * 1024 * 1024;

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
        .stderr(Stdio::null())
        .spawn()
        .map_err(|_| unreadable(format!("No se pudo ejecutar {program}: ¿está instalado? (ver score-ocr/README.md).")))?;
    // stdout is read on a thread so that a chatty child never blocks on a full pipe while the
    // deadline is watched here.
    let mut stdout = child.stdout.take().ok_or_else(|| unreadable("Sin salida del lector."))?;
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = (&mut stdout).take(MAX_OUTPUT).read_to_end(&mut text);
        text
    });
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
    if !status.success() {
        return Err(unreadable("El archivo está dañado o no se puede leer."));
    }
    Ok(String::from_utf8_lossy(&text).into_owned())
}
