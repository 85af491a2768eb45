"""OCR accuracy over generated printed documents (issue 19): every fixture receipt of
fixtures/documents printed as a payroll program prints it, and 21 monthly bank statements (7 in
each described layout, random movements), each rendered as a scanner or a phone would give it,
in five variants: 300 dpi PNG; 200 dpi PNG with a larger font; rotated 1 degree and saved as
JPEG (quality 80); rotated -1.5 degrees with noise and JPEG quality 65; and a scanned PDF (the
300 dpi image as the page, no text layer). The noise of each image is a function of its
document's name and `--seed` alone (numpy's generator, seeded from both), so a run gives the
same figure whatever else it draws and in whatever order. Each is read by score-ocr (Poppler, Tesseract) and
score-docs, and compared with the truth: the facts `read_cfdi` reads from a receipt's XML, the
figures a statement was generated with.

    python3 -m venv .venv && .venv/bin/pip install pillow qrcode numpy   # once (make bench-ocr does it)
    .venv/bin/python benches/ocr/accuracy.py [--keep DIR] [--seed N]

Prints, per kind and variant and overall: documents read, documents with every key figure right
(receipts: UUID, RFCs, pay dates, days paid, perceptions, deductions, net; statements: period,
opening and closing balance, deposits, withdrawals, number of movements: the 95% target),
documents with every fact right, verified documents with a wrong fact (must be 0), and seconds
per page. Not a test.
"""

from __future__ import annotations

import argparse
import calendar
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures" / "documents"))
from printer import printed, statement, text_pdf  # noqa: E402  (the print shared with score-py's tests)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "fixtures" / "documents"
READER = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "release" / "examples" / "read_document"
KEY = ["uuid", "emisor_rfc", "receptor_rfc", "fecha_pago", "fecha_inicial_pago", "fecha_final_pago",
       "num_dias_pagados", "total_percepciones", "total_deducciones", "neto"]
def rendered(pdf: Path, dpi: int) -> Image.Image:
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", "-singlefile", pdf.name, "page"], cwd=pdf.parent, check=True)
    return Image.open(pdf.parent / "page.png").convert("L")


# The noise's seed (`--seed`); the figures in benches/RESULTS.md since 2026-11-28 are with 43.
NOISE_SEED = 43


def noise_rng(name: str, seed: int) -> np.random.Generator:
    """The generator of one document's noise: seeded from its name and `seed` (SHA-256, not
    Python's per-process `hash`), so the same document gets the same grain on every run."""
    return np.random.default_rng(int.from_bytes(hashlib.sha256(f"{seed}:{name}".encode()).digest()[:16], "big"))


def noisy(img: Image.Image, sigma: float, rng: np.random.Generator) -> Image.Image:
    """Grain as a phone adds it: Gaussian noise about mid-grey (what Pillow's `effect_noise`
    draws, but from `rng` instead of C's unseeded `rand()`), blended in and softened."""
    grain = rng.normal(128.0, sigma, (img.height, img.width)).clip(0, 255).astype(np.uint8)
    return Image.blend(img, Image.fromarray(grain, "L"), 0.18).filter(ImageFilter.GaussianBlur(0.6))


def variants(text: str, work: Path, stem: str, seed: int) -> list[tuple[str, Path]]:
    out = []
    for size in (8, 10):
        pdf = work / f"{stem}-{size}.pdf"
        pdf.write_bytes(text_pdf(text, size))
        if size == 8:
            img = rendered(pdf, 300)
            out.append(("png-300", work / f"{stem}-png300.png"))
            img.save(out[-1][1])
            out.append(("jpeg-rot1-q80", work / f"{stem}-rot1.jpg"))
            img.rotate(1.0, expand=True, fillcolor=255).save(out[-1][1], quality=80)
            out.append(("jpeg-rot-1.5-noise-q65", work / f"{stem}-noise.jpg"))
            noisy(img.rotate(-1.5, expand=True, fillcolor=255), 40, noise_rng(stem, seed)).save(out[-1][1], quality=65)
            out.append(("scanned-pdf-300", work / f"{stem}-scan.pdf"))
            img.save(out[-1][1], "PDF", resolution=300)
        else:
            out.append(("png-200-font10", work / f"{stem}-png200.png"))
            rendered(pdf, 200).save(out[-1][1])
    return out


CONCEPTS = ["DEPOSITO CLIENTE {n}", "SPEI RECIBIDO HONORARIOS {n}", "PAGO CREDITO AUTOMOTRIZ REF {n}",
            "COMPRA SUPERMERCADO", "PAGO TARJETA DE CREDITO {n}", "TRASPASO ENTRE CUENTAS PROPIAS",
            "COMISION POR MANEJO DE CUENTA", "DEPOSITO EN EFECTIVO", "PAGO DE SERVICIOS LUZ {n}"]


def cents(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)) / 100


def movements(rng: random.Random, year: int, month: int) -> list[tuple[int, str, Decimal]]:
    """Five to nine movements on distinct days, deposits and withdrawals mixed."""
    days = sorted(rng.sample(range(2, 28), rng.randint(5, 9)))
    out = []
    for day in days:
        concept = rng.choice(CONCEPTS).format(n=rng.randint(1000, 9999))
        signed = cents(rng, 200, 25_000) if concept.startswith(("DEPOSITO", "SPEI", "TRASPASO")) else -cents(rng, 50, 6_000)
        out.append((day, concept, signed))
    return out


def seniority_agrees(facts: dict) -> bool:
    """Whether a receipt's `antiguedad` is what the SAT's rule gives from its start date to its
    period's end, as score-docs' antiguedad.rs checks a print's: `P<n>W` the whole weeks of the
    days counting both ends; `P#Y#M#D` the calendar difference, the days counted with or
    without the last one. True when there is no seniority or no start date to check."""
    seniority, start = facts.get("antiguedad"), facts.get("fecha_inicio_rel_laboral")
    if not seniority or not start:
        return True
    begin, end = date.fromisoformat(start), date.fromisoformat(facts["fecha_final_pago"])
    parts = {unit: int(n) for n, unit in re.findall(r"(\d+)([YMWD])", seniority)}
    if end < begin:
        return False
    if set(parts) == {"W"}:
        return parts["W"] == ((end - begin).days + 1) // 7
    if "D" not in parts or "W" in parts:
        return False
    months = (end.year - begin.year) * 12 + end.month - begin.month
    while months > 0 and _add_months(begin, months) > end:
        months -= 1
    days = (end - _add_months(begin, months)).days
    return parts.get("Y", 0) * 12 + parts.get("M", 0) == months and parts["D"] in (days, days + 1)


def _add_months(d: date, months: int) -> date:
    """`d` moved `months` calendar months on, its day cut to the month's last when shorter."""
    index = d.year * 12 + d.month - 1 + months
    year, month = divmod(index, 12)
    day = min(d.day, calendar.monthrange(year, month + 1)[1])
    return date(year, month + 1, day)


def judge(kind: str, got: dict | None, true: dict) -> tuple[bool, bool, list[str]]:
    """Every key figure right, every fact right, and what was missed."""
    if not got:
        return False, False, []
    if kind == "recibo":
        missed = [k for k in KEY if got.get(k) != true.get(k)]
        # Paper has no seal (`sello` is `IMPRESO` on every print): every other fact counts. A
        # seniority read as nothing is a miss only when the XML's own seniority is the one its
        # dates give: paper keeps no other (score-docs' antiguedad.rs), and fixtures sealed
        # before 2026-11-28's regeneration carry one their dates do not give (P284W for 282 weeks).
        excused = got.get("antiguedad") is None and not seniority_agrees(true)
        exact = all(got.get(k) == v for k, v in true.items() if k != "sello" and not (k == "antiguedad" and excused))
        return not missed, not missed and exact, missed
    read_figures = {k: got.get(k) for k in ("desde", "hasta")}
    read_figures.update({k: Decimal(str(got.get(k))) for k in ("saldo_inicial", "saldo_final", "depositos", "retiros")})
    read_figures["movimientos"] = len(got.get("movimientos", []))
    missed = [k for k, v in true.items() if read_figures.get(k) != v]
    # Every fact of a statement: the key figures and every movement's balance checking out.
    exact = not missed and all(m.get("cuadra") for m in got.get("movimientos", []))
    return not missed, exact, missed


def read(paths: list[Path]) -> list[dict]:
    done = subprocess.run([str(READER), *map(str, paths)], check=True, capture_output=True, text=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="write the generated documents here instead of a temporary folder")
    parser.add_argument("--seed", type=int, default=NOISE_SEED, help=f"the noise's seed (default {NOISE_SEED})")
    args = parser.parse_args()
    if not READER.exists():
        sys.exit(f"build the reader first: cargo build --release -p score-ocr --example read_document ({READER})")
    work = Path(args.keep or tempfile.mkdtemp(prefix="ocr-accuracy-"))
    work.mkdir(parents=True, exist_ok=True)
    xmls = sorted(p for p in DOCS.glob("*.xml") if not p.name.startswith("rechazo-"))
    truth = {Path(r["archivo"]).stem: r["documento"] for r in read(xmls) if "documento" in r}
    rng = random.Random(19)
    docs: list[tuple[str, str, str, Path, dict]] = []
    for stem, facts in sorted(truth.items()):
        for variant, path in variants(printed(facts), work, stem, args.seed):
            docs.append(("recibo", stem, variant, path, facts))
    for layout in ("altiplano", "pacifico", "sierra"):
        for month in range(1, 8):
            text, figures = statement(layout, 2025, month, cents(rng, 0, 80_000), movements(rng, 2025, month))
            for variant, path in variants(text, work, f"{layout}-{month:02}", args.seed):
                docs.append(("estado", f"{layout}-{month:02}", variant, path, figures))
    results = read([d[3] for d in docs])
    by_group: dict[tuple[str, str], list[tuple[bool, bool, bool, float]]] = {}
    for (kind, stem, variant, path, true), r in zip(docs, results):
        got = r.get("documento")
        key_ok, exact, missed = judge(kind, got, true)
        wrong_verified = bool(got) and got.get("verificado") and not exact
        if not key_ok:
            print(f"  {stem} {variant}: wrong or missing {missed if got else [r.get('error', {}).get('code')]}")
        by_group.setdefault((kind, variant), []).append((key_ok, exact, bool(wrong_verified), r.get("segundos", 0.0)))
    print(f"{'kind':7} {'variant':26} {'docs':>5} {'key figures right':>18} {'every fact right':>17} {'verified but wrong':>19} {'s/page':>7}")
    rows = [(k, v, rs) for (k, v), rs in sorted(by_group.items())]
    for kind in ("recibo", "estado"):
        rows.append((kind, "all", [x for (k, _), rs in by_group.items() if k == kind for x in rs]))
    rows.append(("all", "all", [x for rs in by_group.values() for x in rs]))
    for kind, variant, rs in rows:
        n = len(rs)
        print(f"{kind:7} {variant:26} {n:>5} {sum(r[0] for r in rs) / n:>18.1%} {sum(r[1] for r in rs) / n:>17.1%} "
              f"{sum(r[2] for r in rs):>19} {statistics.mean(r[3] for r in rs):>7.2f}")
    print(f"documents in {work}" if args.keep else "")
    if not args.keep:
        # About 60 MB of images a run: gone unless asked for.
        for p in work.iterdir():
            p.unlink()
        work.rmdir()


if __name__ == "__main__":
    main()
