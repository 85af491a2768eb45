//! The QR code of a printed CFDI (the SAT's verification URL, see [`score_docs::CodigoQr`]),
//! found in an image by `rqrr`, a pure-Rust decoder, after the `image` crate decodes it. Both
//! run in this process, but only on images whose size the header already put under
//! [`crate::Limits::max_pixels`] (or pages Poppler rendered under it), and neither reads
//! anything but pixels. A page without a legible code gives `None`: the print is then read
//! from its text alone.

use std::path::Path;

use image::GrayImage;
use score_docs::{CodigoQr, parse_verification_url};

/// The SAT's URL in the first of the image's QR codes that holds it.
fn in_image(image: &GrayImage) -> Option<CodigoQr> {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| image.as_raw()[y * width + x]);
    prepared
        .detect_grids()
        .iter()
        .filter_map(|grid| grid.decode().ok())
        .find_map(|(_, content)| parse_verification_url(&content))
}

/// Images smaller than this on their longer side (a code a PDF embeds at one pixel a module
/// or a few) are enlarged before the search.
const SMALL: u32 = 400;

/// `image` enlarged by a whole factor to at least [`SMALL`] pixels (each pixel a square, so
/// modules stay sharp) on a white margin of an eighth of its size (the quiet zone a code
/// embedded without one lacks).
fn enlarged(image: &GrayImage) -> GrayImage {
    let factor = SMALL / image.width().max(image.height()).max(1) + 1;
    let (w, h) = (image.width() * factor, image.height() * factor);
    let big = image::imageops::resize(image, w, h, image::imageops::FilterType::Nearest);
    let margin = w.max(h) / 8;
    let mut canvas = GrayImage::from_pixel(w + 2 * margin, h + 2 * margin, image::Luma([255]));
    image::imageops::overlay(&mut canvas, &big, i64::from(margin), i64::from(margin));
    canvas
}

/// The code in an image, at full size and, when not found there, at half size (a photo's
/// grain can hide the finder patterns at full size and not at half); a small image enlarged.
pub(crate) fn in_decoded(image: &GrayImage) -> Option<CodigoQr> {
    if image.width().max(image.height()) < SMALL {
        return in_image(&enlarged(image));
    }
    in_image(image).or_else(|| {
        let (w, h) = (image.width() / 2, image.height() / 2);
        (w >= 100 && h >= 100)
            .then(|| image::imageops::resize(image, w, h, image::imageops::FilterType::Triangle))
            .and_then(|half| in_image(&half))
    })
}

/// The code in a PNG or JPEG's bytes (`None` when it cannot be decoded or holds none).
pub(crate) fn in_bytes(bytes: &[u8]) -> Option<CodigoQr> {
    let image = image::load_from_memory(bytes).ok()?.into_luma8();
    in_decoded(&image)
}

/// The code in the first of the image files `images` that holds one.
pub(crate) fn in_files(images: &[impl AsRef<Path>]) -> Option<CodigoQr> {
    images.iter().find_map(|image| in_bytes(&std::fs::read(image).ok()?))
}
