"""Drawing one-page letter PDFs with a text layer (text in the PDF base fonts, lines, boxes,
shading, a QR code drawn from its modules), portrait or landscape, the text at its natural
width or condensed (PDF's horizontal scaling, as a narrow face prints), shared by the layouts
of the OCR benches (receipt_layouts*.py, statement_layouts.py)."""

from __future__ import annotations

import qrcode

from printer import pdf_file  # noqa: E402  (fixtures/documents, on sys.path)

WIDTH, HEIGHT = 612, 792
FONTS = {"helv": "Helvetica", "helvb": "Helvetica-Bold", "helvi": "Helvetica-Oblique", "times": "Times-Roman",
         "timesb": "Times-Bold", "timesi": "Times-Italic", "cour": "Courier", "courb": "Courier-Bold"}


class Page:
    """Drawing operations on a letter page, y measured from the top (points); `landscape`
    turns the page, `stretch` is the text's width in percent of its font's (100: as drawn)."""

    def __init__(self, font: str = "helv", size: float = 8, landscape: bool = False, stretch: int = 100):
        self.ops: list[bytes] = []
        self.font, self.size, self.stretch = font, size, stretch
        self.width, self.height = (HEIGHT, WIDTH) if landscape else (WIDTH, HEIGHT)

    def text(self, x: float, y: float, s: str, font: str | None = None, size: float | None = None) -> None:
        font, size = font or self.font, size or self.size
        scale = b"%d Tz " % self.stretch if self.stretch != 100 else b""
        self.ops.append(b"BT %s/%s %.1f Tf %.1f %.1f Td (%s) Tj ET" % (scale, font.encode(), size, x, self.height - y, _esc(s)))

    def right(self, x: float, y: float, s: str, font: str | None = None, size: float | None = None) -> None:
        """Text ending near `x` (an amount column), by an average glyph width."""
        size = size or self.size
        width = len(s) * size * (0.6 if (font or self.font).startswith("cour") else 0.52) * self.stretch / 100
        self.text(x - width, y, s, font, size)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 0.6) -> None:
        self.ops.append(b"%.1f w %.1f %.1f m %.1f %.1f l S" % (width, x1, self.height - y1, x2, self.height - y2))

    def box(self, x: float, y: float, w: float, h: float, width: float = 0.6) -> None:
        self.ops.append(b"%.1f w %.1f %.1f %.1f %.1f re S" % (width, x, self.height - y - h, w, h))

    def shade(self, x: float, y: float, w: float, h: float, grey: float = 0.85) -> None:
        self.ops.append(b"q %.2f g %.1f %.1f %.1f %.1f re f Q" % (grey, x, self.height - y - h, w, h))

    def qr(self, x: float, y: float, side: float, data: str) -> None:
        code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
        code.add_data(data)
        code.make(fit=True)
        matrix = code.get_matrix()
        cell = side / len(matrix)
        rects = b"".join(b"%.2f %.2f %.2f %.2f re " % (x + c * cell, self.height - y - (r + 1) * cell, cell, cell)
                         for r, row in enumerate(matrix) for c, on in enumerate(row) if on)
        self.ops.append(b"q 0 g " + rects + b"f Q")

    def pdf(self) -> bytes:
        content = b"\n".join(self.ops) + b"\n"
        fonts = b" ".join(b"/%s %d 0 R" % (k.encode(), 5 + i) for i, k in enumerate(FONTS))
        objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                   b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << %s >> >> /Contents 4 0 R >>"
                   % (self.width, self.height, fonts),
                   b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream"]
        objects += [b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % v.encode()
                    for v in FONTS.values()]
        return pdf_file(objects)


def _esc(s: str) -> bytes:
    """Text for a WinAnsi (Windows-1252) string operand."""
    out = s.encode("cp1252", errors="replace")
    for c in b"\\()":
        out = out.replace(bytes([c]), b"\\" + bytes([c]))
    return out

