//! PDFs with Poppler: the text layer (`pdftotext -layout`), or, for a scan with no text layer,
//! each page rendered (`pdftoppm`) and read by Tesseract; either way the rendered pages are
//! searched for the print's QR code. Page count and sizes come first
//! (`pdfinfo`), so that the limits hold before anything is rendered.

use rust_decimal::Decimal;
use score_docs::{DocError, DocErrorCode, Fuente};

use crate::{Deadline, Extracted, Limits, image, qr, run, tesseract, unreadable};

/// Fewer letters and digits than this in the text layer: the PDF is a scan.
const MIN_TEXT_CHARS: usize = 40;

pub(crate) fn extract(bytes: &[u8], limits: &Limits, deadline: Deadline) -> Result<Extracted, DocError> {
    let dir = run::workdir()?;
    std::fs::write(dir.path().join("documento.pdf"), bytes)
        .map_err(|_| unreadable("No se pudo preparar el PDF para leerlo."))?;
    let info = run::output("pdfinfo", &["documento.pdf"], dir.path(), deadline)?;
    let pages = page_count(&info).ok_or_else(|| unreadable("El PDF está dañado: no se puede saber cuántas páginas tiene."))?;
    if pages == 0 {
        return Err(unreadable("El PDF no tiene páginas."));
    }
    if pages > limits.max_pages {
        return Err(DocError::new(
            DocErrorCode::DocumentTooLarge,
            None,
            format!("El PDF tiene {pages} páginas; el máximo es {}. Sube solo las páginas del recibo o del estado de cuenta.", limits.max_pages),
        ));
    }
    let last = pages.to_string();
    let text = run::output("pdftotext", &["-layout", "-enc", "UTF-8", "-l", &last, "documento.pdf", "-"], dir.path(), deadline)?;
    let sizes = run::output("pdfinfo", &["-f", "1", "-l", &last, "documento.pdf"], dir.path(), deadline)?;
    let sizes = page_sizes(&sizes);
    if text.chars().filter(|c| c.is_alphanumeric()).count() >= MIN_TEXT_CHARS {
        // The text layer holds no QR code: the pages are rendered to find it.
        let dpi = crate::QR_DPI.min(limits.dpi);
        let images = render(dir.path(), &last, dpi, &sizes, limits, deadline)?;
        let qr = qr::in_pages(&images);
        return Ok(Extracted { text, fuente: Fuente::Pdf, confianza: Decimal::ONE, paginas: pages, qr });
    }
    // A scan: read by Tesseract, and its pages searched for the QR code.
    let images = render(dir.path(), &last, limits.dpi, &sizes, limits, deadline)?;
    if images.is_empty() {
        return Err(unreadable("El PDF no tiene texto ni páginas que se puedan leer."));
    }
    let mut text = String::new();
    let (mut weighted, mut words) = (Decimal::ZERO, 0_usize);
    for path in &images {
        let page = tesseract::read(path, deadline)?;
        text.push_str(&page.text);
        weighted += page.confianza * Decimal::from(page.words);
        words += page.words;
    }
    let confianza = if words == 0 { Decimal::ZERO } else { (weighted / Decimal::from(words)).round_dp(2) };
    let qr = qr::in_pages(&images);
    Ok(Extracted { text, fuente: Fuente::Ocr, confianza, paginas: pages, qr })
}

/// Pages 1 to `last` rendered grey at `dpi` (each page's size checked against the pixel limit
/// first), as PNG files in page order.
fn render(
    dir: &std::path::Path,
    last: &str,
    dpi: u32,
    sizes: &[(f64, f64)],
    limits: &Limits,
    deadline: Deadline,
) -> Result<Vec<std::path::PathBuf>, DocError> {
    let scale = f64::from(dpi) / 72.0;
    for (width_pt, height_pt) in sizes {
        image::check_pixels((width_pt * scale) as u32, (height_pt * scale) as u32, limits)?;
    }
    let dpi = dpi.to_string();
    run::output("pdftoppm", &["-r", &dpi, "-gray", "-png", "-l", last, "documento.pdf", "pagina"], dir, deadline)?;
    let mut images: Vec<_> = std::fs::read_dir(dir)
        .map_err(|_| unreadable("No se pudieron leer las páginas del PDF."))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    // pdftoppm pads the page numbers to one width, so the names sort in page order.
    images.sort();
    Ok(images)
}

/// `Pages:` of pdfinfo's report.
fn page_count(info: &str) -> Option<u32> {
    info.lines().find_map(|l| l.strip_prefix("Pages:")).and_then(|v| v.trim().parse().ok())
}

/// `Page    N size: W x H pts` lines of `pdfinfo -f 1 -l N` (points, 1/72 inch).
fn page_sizes(info: &str) -> Vec<(f64, f64)> {
    info.lines()
        .filter(|l| l.starts_with("Page") && l.contains(" size:"))
        .filter_map(|l| {
            let size = l.split(" size:").nth(1)?;
            let mut parts = size.split_whitespace();
            let width = parts.next()?.parse().ok()?;
            let _x = parts.next()?;
            let height = parts.next()?.parse().ok()?;
            Some((width, height))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdfinfo_report() {
        let info = "Producer:       x\nPages:          3\nPage size:      612 x 842 pts\n";
        assert_eq!(page_count(info), Some(3));
        assert_eq!(page_count("Producer: x\n"), None);
        let sizes = "Page    1 size: 612 x 842 pts\nPage    2 size: 595.28 x 841.89 pts (A4)\n";
        assert_eq!(page_sizes(sizes), vec![(612.0, 842.0), (595.28, 841.89)]);
    }
}
