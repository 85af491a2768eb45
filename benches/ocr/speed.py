"""Seconds a scanned receipt page with its QR code takes, two readers side by side (issue 43's
"a printed page with its QR code under 2 s"): the 300 dpi scans of every stamped fixture receipt
in the receipt layouts that carry the SAT's QR code, each page read by reader A then reader B,
alternating which goes first, so that both see the same load on a shared machine. Prints each
reader's median and mean seconds a page (wall clock, as the reader times itself) and CPU
seconds a page (the reader's and its children's, Tesseract's and Poppler's, user and system:
what a loaded machine's wall clock swings around less), the median of the per-page ratios B/A
of both, and how many pages each decoded the QR code of and read without error.

    .venv/bin/python benches/ocr/speed.py A/read_document B/read_document [--receipts N] [--form png|pdf]

`--form png` (the default) reads each page as the 300 dpi greyscale PNG `pdftoppm` renders (a
scanner's image); `--form pdf` wraps that image in a PDF without a text layer (Pillow, as
accuracy.py's scanned PDFs), which the reader renders again with `pdftoppm` before Tesseract.

(`read_document` is score-ocr's example: `cargo build --release -p score-ocr --example
read_document`; copy the binary of each commit somewhere first.) Not a test.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy import DOCS, read  # noqa: E402
from receipt_layouts import HELD_OUT, TUNED, WITH_QR, with_valid_rfcs  # noqa: E402
from receipt_layouts_new import NEW_HELD_OUT, NEW_TUNED, NEW_WITH_QR  # noqa: E402
from receipt_layouts_newest import NEWEST_TUNED, NEWEST_WITH_QR  # noqa: E402
from receipt_layouts_maquila import MAQUILA_HELD_OUT, MAQUILA_WITH_QR  # noqa: E402


def one(reader: str, page: Path) -> tuple[dict, float]:
    """The reader's JSON line for `page`, and the CPU seconds it and its children took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([reader, str(page)], check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return json.loads(done.stdout), (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--receipts", type=int, default=0, help="only the first N receipts (0: all)")
    parser.add_argument("--form", choices=("png", "pdf"), default="png", help="pages as PNG images or as scanned PDFs")
    args = parser.parse_args()
    layouts = {**TUNED, **HELD_OUT, **NEW_TUNED, **NEW_HELD_OUT, **NEWEST_TUNED, **MAQUILA_HELD_OUT}
    with_qr = WITH_QR | NEW_WITH_QR | NEWEST_WITH_QR | MAQUILA_WITH_QR
    xmls = sorted(p for p in DOCS.glob("*.xml") if not p.name.startswith("rechazo-"))
    truths = {Path(r["archivo"]).stem: with_valid_rfcs(r["documento"]) for r in read(xmls) if r.get("documento", {}).get("uuid")}
    stems = sorted(truths)[: args.receipts or None]
    with tempfile.TemporaryDirectory(prefix="ocr-speed-") as tmp:
        work = Path(tmp)
        pages = []
        for name in sorted(with_qr):
            for stem in stems:
                pdf = work / f"{name}--{stem}.pdf"
                pdf.write_bytes(layouts[name](truths[stem]).pdf())
                subprocess.run(["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", pdf.name, pdf.stem], cwd=work, check=True)
                png = pdf.with_suffix(".png")
                if args.form == "pdf":
                    scan = work / f"{pdf.stem}--scan.pdf"
                    with Image.open(png) as image:
                        image.save(scan, "PDF", resolution=300)
                    png.unlink()
                    pages.append(scan)
                else:
                    pages.append(png)
        seconds: dict[str, list[float]] = {"a": [], "b": []}
        cpu: dict[str, list[float]] = {"a": [], "b": []}
        decoded = {"a": 0, "b": 0}
        read_ok = {"a": 0, "b": 0}
        for i, page in enumerate(pages):
            order = ("a", "b") if i % 2 == 0 else ("b", "a")
            for who in order:
                r, used = one(getattr(args, who), page)
                seconds[who].append(r["segundos"])
                cpu[who].append(used)
                decoded[who] += bool(r.get("texto", {}).get("qr") or r.get("qr"))
                read_ok[who] += "documento" in r
    n = len(pages)
    print(f"pages: 300 dpi {'scanned PDFs' if args.form == 'pdf' else 'PNG images'}")
    for who in ("a", "b"):
        s = seconds[who]
        print(f"{who}: {getattr(args, who)}: {n} pages, median {statistics.median(s):.2f} s, mean {statistics.mean(s):.2f} s, "
              f"max {max(s):.2f} s; CPU median {statistics.median(cpu[who]):.2f} s, mean {statistics.mean(cpu[who]):.2f} s; "
              f"QR decoded {decoded[who]}/{n}, read {read_ok[who]}/{n}")
    for label, values in (("wall", seconds), ("CPU", cpu)):
        ratios = [b / a for a, b in zip(values["a"], values["b"]) if a > 0]
        print(f"b/a per page ({label}): median {statistics.median(ratios):.3f}, mean {statistics.mean(ratios):.3f}")


if __name__ == "__main__":
    main()
