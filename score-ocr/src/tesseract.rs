//! Tesseract (`spa`) over one image: the text, line by line, and the mean word confidence,
//! from one run in TSV mode.

use std::path::Path;

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

/// Reads `image` (page segmentation 6: one uniform block of text, as a printed form is).
pub(crate) fn read(image: &Path, deadline: Deadline) -> Result<Page, DocError> {
    let dir = image.parent().unwrap_or(Path::new("."));
    let name = image.file_name().and_then(|n| n.to_str()).ok_or_else(|| unreadable("Nombre de imagen no válido."))?;
    let tsv = run::output("tesseract", &[name, "stdout", "-l", "spa", "--psm", "6", "tsv"], dir, deadline)?;
    Ok(from_tsv(&tsv))
}

/// Rebuilds the lines from Tesseract's TSV (level 5 rows are words, keyed by block, paragraph
/// and line) and averages the words' confidences.
pub(crate) fn from_tsv(tsv: &str) -> Page {
    let mut text = String::new();
    let mut line_key = None;
    let (mut sum, mut words) = (0.0_f64, 0_usize);
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.len() < 12 || cols[0] != "5" {
            continue;
        }
        let word = cols[11].trim();
        let Ok(conf) = cols[10].parse::<f64>() else { continue };
        if word.is_empty() || conf < 0.0 {
            continue;
        }
        let key = (cols[1], cols[2], cols[3], cols[4]);
        if line_key != Some(key) {
            if line_key.is_some() {
                text.push('\n');
            }
            line_key = Some(key);
        } else {
            text.push(' ');
        }
        text.push_str(word);
        sum += conf;
        words += 1;
    }
    if !text.is_empty() {
        text.push('\n');
    }
    let mean = if words == 0 { 0.0 } else { sum / words as f64 / 100.0 };
    let confianza = Decimal::from_f64_retain(mean).unwrap_or_default().round_dp(2).min(Decimal::ONE).max(Decimal::ZERO);
    Page { text, confianza, words }
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
    }
}
