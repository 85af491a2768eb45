//! Tesseract (`spa`) over one image: the text, line by line, and the mean word confidence,
//! from one run in TSV mode.

use std::path::Path;

use ::image::GrayImage;
use rust_decimal::Decimal;
use score_docs::DocError;

use crate::{Deadline, run, unreadable};

/// What Tesseract read from one image.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Page {
    pub text: String,
    /// Mean confidence of the words read, 0–1 (0 when no word was read).
    pub confianza: Decimal,
    /// Words read (to weigh pages).
    pub words: usize,
}

/// Reads an image file as it is (page segmentation 6: one uniform block of text, as a printed
/// form is): a JPEG photo, or a PNG the `image` crate cannot decode. A JPEG goes to Tesseract
/// whole, as it came (cut and decoded by the `image` crate, the rotated JPEGs of
/// benches/ocr/accuracy.py lost receipts: 91.3% to 69.6%).
pub(crate) fn read(image: &Path, deadline: Deadline) -> Result<Page, DocError> {
    let dir = image.parent().unwrap_or(Path::new("."));
    let name = image.file_name().and_then(|n| n.to_str()).ok_or_else(|| unreadable("Nombre de imagen no válido."))?;
    let tsv = run::output("tesseract", &[name, "stdout", "-l", "spa", "--psm", "6", "tsv"], dir, deadline)?;
    Ok(from_tsv(&tsv))
}

/// Reads a decoded greyscale page (a PNG scan, or a PDF page Poppler rendered): the part of
/// it that holds anything dark, with a margin ([`content`]), handed to Tesseract as an
/// uncompressed greyscale PGM in `dir`. A receipt fills a third of its page or so, and
/// Tesseract's time grows with the pixels it lays out: the blank rest cost a fifth of its time
/// on the benches' scans.
pub(crate) fn read_gray(page: &GrayImage, dir: &Path, deadline: Deadline) -> Result<Page, DocError> {
    let path = dir.join("recorte.pgm");
    std::fs::write(&path, pgm(&content(page))).map_err(|_| unreadable("No se pudo preparar la imagen para leerla."))?;
    let page = read(&path, deadline);
    let _ = std::fs::remove_file(&path);
    page
}

/// A pixel this dark or darker is ink (a scan's paper, a photo's grain and a print's shading
/// are lighter).
const INK: u8 = 160;

/// `page` cut to the rectangle that holds its ink, with a margin of 2% of its width (at least 16
/// pixels) on each side; the whole page when it holds none.
fn content(page: &GrayImage) -> GrayImage {
    let (width, height) = page.dimensions();
    let inked_row = |y: u32| (0..width).any(|x| page.get_pixel(x, y)[0] <= INK);
    let inked_column = |x: u32, top: u32, bottom: u32| (top..=bottom).any(|y| page.get_pixel(x, y)[0] <= INK);
    let Some(top) = (0..height).find(|&y| inked_row(y)) else { return page.clone() };
    let bottom = (top..height).rev().find(|&y| inked_row(y)).unwrap_or(top);
    let left = (0..width).find(|&x| inked_column(x, top, bottom)).unwrap_or(0);
    let right = (left..width).rev().find(|&x| inked_column(x, top, bottom)).unwrap_or(width - 1);
    let margin = (width / 50).max(16);
    let (x0, y0) = (left.saturating_sub(margin), top.saturating_sub(margin));
    let (x1, y1) = ((right + margin).min(width - 1), (bottom + margin).min(height - 1));
    ::image::imageops::crop_imm(page, x0, y0, x1 - x0 + 1, y1 - y0 + 1).to_image()
}

/// A binary PGM (`P5`) of a greyscale image: what Tesseract (Leptonica) reads without
/// decompressing anything.
fn pgm(image: &GrayImage) -> Vec<u8> {
    let mut out = format!("P5\n{} {}\n255\n", image.width(), image.height()).into_bytes();
    out.extend_from_slice(image.as_raw());
    out
}

/// One word of Tesseract's TSV: its line key, left edge, width and text.
struct Word<'a> {
    line: (&'a str, &'a str, &'a str, &'a str),
    left: i64,
    width: i64,
    text: &'a str,
}

/// Rebuilds the lines from Tesseract's TSV (level 5 rows are words, keyed by block, paragraph
/// and line) and averages the words' confidences. Words keep their columns as `pdftotext
/// -layout` keeps a text PDF's: each word is placed at its left edge divided by the page's
/// median character width, and a gap wider than two characters stays at least two blanks,
/// so that a grid's values stand under their labels and side-by-side tables stay apart; words
/// closer than that are one blank apart.
pub(crate) fn from_tsv(tsv: &str) -> Page {
    let mut words = Vec::new();
    let mut sum = 0.0_f64;
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.len() < 12 || cols[0] != "5" {
            continue;
        }
        let text = cols[11].trim();
        let Ok(conf) = cols[10].parse::<f64>() else { continue };
        if text.is_empty() || conf < 0.0 {
            continue;
        }
        let (left, width) = (cols[6].parse().unwrap_or(0), cols[8].parse().unwrap_or(0));
        words.push(Word { line: (cols[1], cols[2], cols[3], cols[4]), left, width, text });
        sum += conf;
    }
    let mut widths: Vec<i64> = words.iter().filter(|w| w.width > 0).map(|w| w.width / w.text.chars().count().max(1) as i64).collect();
    widths.sort_unstable();
    let char_width = widths.get(widths.len() / 2).copied().unwrap_or(0).max(1);
    let mut text = String::new();
    let (mut line_key, mut line_len, mut right) = (None, 0_usize, 0_i64);
    for word in &words {
        let column = usize::try_from(word.left / char_width).unwrap_or(0);
        if line_key != Some(word.line) {
            if line_key.is_some() {
                text.push('\n');
            }
            line_key = Some(word.line);
            line_len = column;
            text.extend(std::iter::repeat_n(' ', column));
        } else if word.left - right > 2 * char_width {
            let pad = column.max(line_len + 2) - line_len;
            text.extend(std::iter::repeat_n(' ', pad));
            line_len += pad;
        } else {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(word.text);
        line_len += word.text.chars().count();
        right = word.left + word.width;
    }
    if !text.is_empty() {
        text.push('\n');
    }
    let mean = if words.is_empty() { 0.0 } else { sum / words.len() as f64 / 100.0 };
    let confianza = Decimal::from_f64_retain(mean).unwrap_or_default().round_dp(2).min(Decimal::ONE).max(Decimal::ZERO);
    Page { text, confianza, words: words.len() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_confidence_from_tsv() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
            1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n\
            5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t96.5\tNeto\n\
            5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t93.5\ta\n\
            5\t1\t1\t1\t1\t3\t0\t0\t10\t10\t90\tpagar:\n\
            5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t80\t$1,234.50\n\
            5\t1\t1\t1\t2\t2\t0\t0\t10\t10\t-1\t\n";
        let page = from_tsv(tsv);
        assert_eq!(page.text, "Neto a pagar:\n$1,234.50\n");
        assert_eq!(page.words, 4);
        assert_eq!(page.confianza, Decimal::new(90, 2));
        assert_eq!(from_tsv("level\n").confianza, Decimal::ZERO);
        // Columns kept: a word far right of the last stands at its column (10 px a character).
        let grid = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
            5\t1\t1\t1\t1\t1\t0\t0\t40\t10\t90\tRFC:\n\
            5\t1\t1\t1\t1\t2\t50\t0\t40\t10\t90\tEKU9\n\
            5\t1\t1\t1\t1\t3\t300\t0\t40\t10\t90\tCURP\n\
            5\t1\t1\t1\t2\t1\t300\t20\t40\t10\t90\tGALM\n";
        assert_eq!(from_tsv(grid).text, format!("RFC: EKU9{}CURP\n{}GALM\n", " ".repeat(21), " ".repeat(30)));
    }

    #[test]
    fn the_page_cut_to_its_ink_with_a_margin() {
        // A 1000 x 800 white page, light grain and shading everywhere, ink from (300, 200) to (599, 349).
        let page = GrayImage::from_fn(1000, 800, |x, y| {
            let ink = (300..600).contains(&x) && (200..350).contains(&y) && (x + y) % 3 == 0;
            ::image::Luma([if ink { 20 } else if (x * y) % 7 == 0 { 200 } else { 250 }])
        });
        let cut = content(&page);
        // Margin: 2% of the width (20 pixels) on each side.
        assert_eq!(cut.dimensions(), (300 + 40, 150 + 40));
        assert_eq!(cut.get_pixel(20, 20)[0], page.get_pixel(300, 200)[0]);
        // Nothing dark: the whole page.
        let blank = GrayImage::from_pixel(50, 40, ::image::Luma([230]));
        assert_eq!(content(&blank).dimensions(), (50, 40));
        let header = pgm(&blank);
        assert!(header.starts_with(b"P5\n50 40\n255\n") && header.len() == 13 + 50 * 40);
    }
}
