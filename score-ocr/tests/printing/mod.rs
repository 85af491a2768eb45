//! Documents as printers and scanners make them, for the tests that read them back (score-ocr's
//! and the server's): a PDF with a text layer, a page rendered to an image by Poppler, and a
//! scanned PDF (an image as its only content).

#![allow(dead_code)] // each test binary uses part of it

use std::process::Command;

/// A one-page PDF whose text layer is `text` in Courier (WinAnsi, so accents print), as simple
/// as a PDF gets; `pages` repeats the page.
pub fn text_pdf(text: &str, pages: usize) -> Vec<u8> {
    text_pdf_drawing(text, pages, b"")
}

/// [`text_pdf`] with `drawing` (PDF content operators) painted after the text.
pub fn text_pdf_drawing(text: &str, pages: usize, drawing: &[u8]) -> Vec<u8> {
    text_pdf_with(text, pages, drawing, None)
}

/// [`text_pdf_drawing`] with an image XObject (`/Im1`, the last object) the drawing may paint.
fn text_pdf_with(text: &str, pages: usize, drawing: &[u8], image: Option<Vec<u8>>) -> Vec<u8> {
    let mut content = b"BT /F1 8 Tf 10 TL 30 810 Td\n".to_vec();
    for line in text.lines() {
        content.push(b'(');
        for c in line.chars() {
            let byte = match c {
                '(' | ')' | '\\' => {
                    content.push(b'\\');
                    c as u8
                }
                'á' => 0xE1,
                'é' => 0xE9,
                'í' => 0xED,
                'ó' => 0xF3,
                'ú' => 0xFA,
                'ñ' => 0xF1,
                'Ñ' => 0xD1,
                'ü' => 0xFC,
                c if c.is_ascii() => c as u8,
                _ => b'?',
            };
            content.push(byte);
        }
        content.extend_from_slice(b") Tj T*\n");
    }
    content.extend_from_slice(b"ET\n");
    content.extend_from_slice(drawing);
    let kids: Vec<String> = (0..pages).map(|i| format!("{} 0 R", 5 + i)).collect();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{}] /Count {pages} >>", kids.join(" ")).into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>".to_vec(),
        [format!("<< /Length {} >>\nstream\n", content.len()).into_bytes(), content, b"endstream".to_vec()].concat(),
    ];
    let xobject = if image.is_some() { format!(" /XObject << /Im1 {} 0 R >>", 5 + pages) } else { String::new() };
    for _ in 0..pages {
        objects.push(
            format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 3 0 R >>{xobject} >> /Contents 4 0 R >>")
                .into_bytes(),
        );
    }
    objects.extend(image);
    pdf(objects)
}

/// [`text_pdf`] (one page) with a grey image (`width` × `height`, one byte a pixel) drawn by
/// `placement` (PDF operators that set the image's matrix, e.g. `40 0 0 40 500 700 cm`), as
/// payroll programs embed the QR code.
pub fn text_pdf_image(text: &str, width: usize, height: usize, pixels: &[u8], placement: &str) -> Vec<u8> {
    let image = [
        format!("<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length {} >>\nstream\n", pixels.len()).into_bytes(),
        pixels.to_vec(),
        b"\nendstream".to_vec(),
    ]
    .concat();
    text_pdf_with(text, 1, format!("q {placement} /Im1 Do Q\n").as_bytes(), Some(image))
}

/// A PDF of numbered objects (1 is the catalog) with its cross-reference table.
pub fn pdf(objects: Vec<Vec<u8>>) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(object);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes());
    out
}

/// Poppler renders the PDF's first page as a scanner would: grey, at `dpi`, PNG or PGM.
pub fn render(pdf: &[u8], dpi: u32, format: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("in.pdf"), pdf).expect("write");
    let mut args = vec!["-r".to_owned(), dpi.to_string(), "-gray".to_owned(), "-singlefile".to_owned()];
    if format == "png" {
        args.push("-png".to_owned()); // else binary PGM, pdftoppm's own format for grey
    }
    args.extend(["in.pdf".to_owned(), "out".to_owned()]);
    let status = Command::new("pdftoppm")
        .args(&args)
        .current_dir(dir.path())
        .status()
        .expect("pdftoppm (poppler-utils) installed: see score-ocr/test.mk");
    assert!(status.success());
    let ext = if format == "png" { "png" } else { "pgm" };
    std::fs::read(dir.path().join(format!("out.{ext}"))).expect("rendered page")
}

/// A scanned PDF: the grey image of a page (binary PGM) as the page's only content.
pub fn scanned_pdf(pgm: &[u8]) -> Vec<u8> {
    // P5\n<width> <height>\n<max>\n<pixels>
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while pgm[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !pgm[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..i]).into_owned());
    }
    let pixels = &pgm[i + 1..];
    let (width, height) = (&fields[1], &fields[2]);
    let image = [
        format!("<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length {} >>\nstream\n", pixels.len()).into_bytes(),
        pixels.to_vec(),
        b"\nendstream".to_vec(),
    ]
    .concat();
    let draw = b"q 612 0 0 842 0 0 cm /Im1 Do Q\n";
    pdf(vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>".to_vec(),
        image,
        [format!("<< /Length {} >>\nstream\n", draw.len()).into_bytes(), draw.to_vec(), b"endstream".to_vec()].concat(),
    ])
}

