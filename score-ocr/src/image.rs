//! What a file is, from its first bytes, and an image's size from its header (read before any
//! tool decodes it, so that a decompression bomb is refused without being opened).

use score_docs::{DocError, DocErrorCode};

use crate::Limits;

/// The formats this crate reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Pdf,
    Png,
    Jpeg,
}

impl Format {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Format::Pdf => "pdf",
            Format::Png => "png",
            Format::Jpeg => "jpg",
        }
    }
}

/// The format of `bytes` by its signature (never by a file name).
pub fn format_of(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"%PDF-") {
        Some(Format::Pdf)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(Format::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(Format::Jpeg)
    } else {
        None
    }
}

/// Width and height in pixels from the header: PNG's IHDR chunk, JPEG's first start-of-frame
/// marker. `None` when the header is cut off or malformed.
pub fn dimensions(bytes: &[u8], format: Format) -> Option<(u32, u32)> {
    match format {
        Format::Png => {
            // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
            if bytes.get(12..16)? != b"IHDR" {
                return None;
            }
            let width = u32::from_be_bytes(bytes.get(16..20)?.try_into().ok()?);
            let height = u32::from_be_bytes(bytes.get(20..24)?.try_into().ok()?);
            Some((width, height))
        }
        Format::Jpeg => jpeg_dimensions(bytes),
        Format::Pdf => None,
    }
}

fn jpeg_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    let mut i = 2;
    loop {
        // Markers may be padded with 0xFF bytes.
        while *bytes.get(i)? == 0xFF && *bytes.get(i + 1)? == 0xFF {
            i += 1;
        }
        if *bytes.get(i)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(i + 1)?;
        let length = usize::from(u16::from_be_bytes([*bytes.get(i + 2)?, *bytes.get(i + 3)?]));
        // SOF0..SOF15 carry the size; C4 (Huffman tables), C8 and CC (arithmetic coding) do not.
        if (0xC0..=0xCF).contains(&marker) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            let height = u16::from_be_bytes([*bytes.get(i + 5)?, *bytes.get(i + 6)?]);
            let width = u16::from_be_bytes([*bytes.get(i + 7)?, *bytes.get(i + 8)?]);
            return Some((u32::from(width), u32::from(height)));
        }
        if length < 2 {
            return None;
        }
        i += 2 + length;
    }
}

/// Refuses an image over the pixel limit, or one with no pixels.
pub(crate) fn check_pixels(width: u32, height: u32, limits: &Limits) -> Result<(), DocError> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels == 0 {
        return Err(crate::unreadable("La imagen está vacía."));
    }
    if pixels > limits.max_pixels {
        return Err(DocError::new(
            DocErrorCode::DocumentTooLarge,
            None,
            format!(
                "La imagen tiene {:.0} megapíxeles; el máximo es {:.0}. Sube una foto de menor resolución.",
                pixels as f64 / 1e6,
                limits.max_pixels as f64 / 1e6
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_signature() {
        assert_eq!(format_of(b"%PDF-1.7\n"), Some(Format::Pdf));
        assert_eq!(format_of(b"\x89PNG\r\n\x1a\n...."), Some(Format::Png));
        assert_eq!(format_of(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(Format::Jpeg));
        assert_eq!(format_of(b"<?xml version=\"1.0\"?>"), None);
        assert_eq!(format_of(b""), None);
    }

    #[test]
    fn png_and_jpeg_sizes_from_their_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1200u32.to_be_bytes());
        png.extend_from_slice(&1600u32.to_be_bytes());
        assert_eq!(dimensions(&png, Format::Png), Some((1200, 1600)));
        assert_eq!(dimensions(&png[..20], Format::Png), None, "cut off");
        // SOI, an APP0 segment of 16 bytes, then SOF0: length 17, precision 8, height, width.
        let mut jpeg = vec![0xFF, 0xD8, 0xFF, 0xE0, 0, 16];
        jpeg.extend_from_slice(&[0; 14]);
        jpeg.extend_from_slice(&[0xFF, 0xC0, 0, 17, 8, 0x0B, 0xB8, 0x0F, 0xA0]);
        assert_eq!(dimensions(&jpeg, Format::Jpeg), Some((4000, 3000)));
        assert_eq!(dimensions(&jpeg[..10], Format::Jpeg), None);
        assert_eq!(dimensions(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0], Format::Jpeg), None, "a zero length ends it");
    }

    #[test]
    fn pixel_limit() {
        let limits = Limits { max_pixels: 1000, ..Limits::default() };
        assert!(check_pixels(10, 100, &limits).is_ok());
        assert_eq!(check_pixels(10, 101, &limits).map_err(|e| e.code), Err(DocErrorCode::DocumentTooLarge));
        assert_eq!(check_pixels(0, 5, &limits).map_err(|e| e.code), Err(DocErrorCode::DocumentUnreadable));
    }
}
