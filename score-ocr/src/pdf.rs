//! PDFs with Poppler: the text layer (`pdftotext -layout`), or, for a scan with no text layer,
//! each page rendered (`pdftoppm`) and read by Tesseract; either way the rendered pages are
//! searched for the print's QR code. Page count and sizes come first
//! (`pdfinfo`), so that the limits hold before anything is rendered.

use ::image::GrayImage;
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
        let qr = qr_of_text_pdf(dir.path(), pages, &last, &sizes, names_a_cfdi(&text), limits, deadline)?;
        return Ok(Extracted { text, fuente: Fuente::Pdf, confianza: Decimal::ONE, paginas: pages, qr });
    }
    // A scan: each page rendered, decoded once, read by Tesseract and, until a code is found,
    // searched for the QR code on a thread of this process meanwhile (Tesseract is a child
    // process on one core; the search takes the other).
    check_sizes(&sizes, limits.dpi, limits)?;
    let mut text = String::new();
    let (mut weighted, mut words, mut qr) = (Decimal::ZERO, 0_usize, None);
    for number in 1..=pages {
        let image = render_page(dir.path(), number, limits.dpi, deadline)?;
        let (page, found) = std::thread::scope(|scope| {
            let found = qr.is_none().then(|| scope.spawn(|| qr::in_decoded(&image)));
            let page = tesseract::read_gray(&image, dir.path(), deadline);
            (page, found.and_then(|f| f.join().ok().flatten()))
        });
        let page = page?;
        qr = qr.or(found);
        text.push_str(&page.text);
        weighted += page.confianza * Decimal::from(page.words);
        words += page.words;
    }
    let confianza = if words == 0 { Decimal::ZERO } else { (weighted / Decimal::from(words)).round_dp(2) };
    Ok(Extracted { text, fuente: Fuente::Ocr, confianza, paginas: pages, qr })
}

/// Most images of a PDF searched for the QR code one by one (a receipt has a logo or two and
/// its code; a PDF with more is rendered instead).
const MAX_EMBEDDED_IMAGES: usize = 20;

/// The QR code of a PDF with a text layer, cheapest way first: the images the PDF embeds (a
/// payroll program usually places the code as an image, which is then read at its own
/// resolution, exactly), then the pages rendered at [`crate::QR_DPI`], then, when the code is
/// still not found (a small code beside text: rqrr misses some at 200 dpi), at the document's
/// scan resolution, when the text names a CFDI (`cfdi`: a bank statement carries no code, and
/// is not rendered twice for it).
fn qr_of_text_pdf(
    dir: &std::path::Path,
    pages: u32,
    last: &str,
    sizes: &[(f64, f64)],
    cfdi: bool,
    limits: &Limits,
    deadline: Deadline,
) -> Result<Option<score_docs::CodigoQr>, DocError> {
    if let Some(qr) = embedded_images(dir, last, limits, deadline).and_then(|images| qr::in_files(&images)) {
        return Ok(Some(qr));
    }
    let first = crate::QR_DPI.min(limits.dpi);
    let mut resolutions = vec![first];
    if cfdi && limits.dpi > first {
        resolutions.push(limits.dpi);
    }
    for dpi in resolutions {
        check_sizes(sizes, dpi, limits)?;
        for number in 1..=pages {
            if let Some(qr) = qr::in_decoded(&render_page(dir, number, dpi, deadline)?) {
                return Ok(Some(qr));
            }
        }
    }
    Ok(None)
}

/// Whether a text layer names a CFDI (its folio fiscal, UUID, or the word), as every printed
/// CFDI does beside its QR code.
fn names_a_cfdi(text: &str) -> bool {
    let folded = text.to_lowercase();
    ["folio fiscal", "uuid", "cfdi"].iter().any(|w| folded.contains(w))
}

/// The PDF's images (`pdfimages -png`), when `pdfimages -list` shows at most
/// [`MAX_EMBEDDED_IMAGES`] and each under the pixel limit; `None` otherwise or when Poppler
/// fails (the pages are then rendered: an image that cannot be extracted is not an error).
fn embedded_images(dir: &std::path::Path, last: &str, limits: &Limits, deadline: Deadline) -> Option<Vec<std::path::PathBuf>> {
    let list = run::output("pdfimages", &["-list", "-l", last, "documento.pdf"], dir, deadline).ok()?;
    let sizes = image_list_sizes(&list);
    let fits = |&(w, h): &(u64, u64)| w * h <= limits.max_pixels;
    if sizes.is_empty() || sizes.len() > MAX_EMBEDDED_IMAGES || !sizes.iter().all(fits) {
        return None;
    }
    run::output("pdfimages", &["-png", "-l", last, "documento.pdf", "imagen"], dir, deadline).ok()?;
    files_named(dir, "imagen").ok()
}

/// Width and height of each image in `pdfimages -list`'s table (after its line of dashes).
fn image_list_sizes(list: &str) -> Vec<(u64, u64)> {
    list.lines()
        .skip_while(|l| !l.starts_with("---"))
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            Some((cols.get(3)?.parse().ok()?, cols.get(4)?.parse().ok()?))
        })
        .collect()
}

/// Refuses a PDF whose pages, rendered at `dpi`, would be over the pixel limit (checked from
/// `pdfinfo`'s sizes before anything is rendered).
fn check_sizes(sizes: &[(f64, f64)], dpi: u32, limits: &Limits) -> Result<(), DocError> {
    let scale = f64::from(dpi) / 72.0;
    for (width_pt, height_pt) in sizes {
        image::check_pixels((width_pt * scale) as u32, (height_pt * scale) as u32, limits)?;
    }
    Ok(())
}

/// Page `number` rendered grey at `dpi` by `pdftoppm` as an uncompressed PGM (no PNG to
/// compress and decompress: zlib over 8 megapixels of a 300 dpi page cost more than the
/// reading around it), decoded once, its file removed (a PDF's pages are rendered one at a
/// time, so the scratch folder holds at most one).
fn render_page(dir: &std::path::Path, number: u32, dpi: u32, deadline: Deadline) -> Result<GrayImage, DocError> {
    let (number, dpi) = (number.to_string(), dpi.to_string());
    run::output("pdftoppm", &["-r", &dpi, "-gray", "-f", &number, "-l", &number, "-singlefile", "documento.pdf", "pagina"], dir, deadline)?;
    let path = dir.join("pagina.pgm");
    let page = std::fs::read(&path).ok().and_then(|bytes| ::image::load_from_memory_with_format(&bytes, ::image::ImageFormat::Pnm).ok());
    let _ = std::fs::remove_file(&path);
    page.map(|p| p.into_luma8()).ok_or_else(|| unreadable("No se pudieron leer las páginas del PDF."))
}

/// The PNG files of `dir` whose names start with `prefix`, sorted (pdfimages pads its numbers
/// to one width, so the names sort in order).
fn files_named(dir: &std::path::Path, prefix: &str) -> Result<Vec<std::path::PathBuf>, DocError> {
    let mut images: Vec<_> = std::fs::read_dir(dir)
        .map_err(|_| unreadable("No se pudieron leer las imágenes del PDF."))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(prefix)))
        .collect();
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

    #[test]
    fn pdfimages_list() {
        let list = "page   num  type   width height color comp bpc  enc interp  object ID x-ppi y-ppi size ratio\n\
            --------------------------------------------------------------------------------------------\n\
               1     0 image     164   164  gray    1   8  image  no         6  0   130   130  452B 1.7%\n\
               1     1 smask    1200    80  gray    1   8  image  no         7  0   300   300  2K 2.1%\n";
        assert_eq!(image_list_sizes(list), vec![(164, 164), (1200, 80)]);
        assert!(image_list_sizes("").is_empty());
    }
}
