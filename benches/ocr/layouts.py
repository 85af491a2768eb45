"""OCR accuracy by layout (issue 43, parts 4 and 5), for layouts the reader was written for
("tuned") and layouts held out of its tuning, each document as a PDF with a text layer and as
a 300 dpi greyscale PNG of its page (a scan), read by score-ocr and score-docs:

* bank statements: seven months of each described bank in its tuned layout (printer.py) and in
  a held-out one (statement_layouts.py), the same movements in both, compared with the figures
  they were generated with (period, balances, totals, number of movements);
* payroll receipts: every stamped fixture receipt of fixtures/documents in the nine layouts of
  receipt_layouts.py (three tuned, six held out), the two of receipt_layouts_new.py (written
  after the reader's generic fixes; `nomipaq-barras` tuned since its "F. Pago" refusal was
  fixed, `portal-oblicua` held out: "held-out-new"), the one of receipt_layouts_newest.py
  (written and measured held out before the label fix; tuned since its "Percepciones:" summary
  was read as a class) and the one
  of receipt_layouts_maquila.py (a landscape page in three columns, written and measured
  before any change of 2026-11-28's second session, never tuned on: "held-out-maquila"),
  compared field by field with the facts `read_cfdi` reads from the receipt's XML. The workers' invented
  RFCs are given their right check digit first (in the print and in the truth), as real RFCs
  have.

    .venv/bin/python benches/ocr/layouts.py [--keep DIR] [--receipts N] [--only KIND] [--layouts A,B]   (make bench-ocr)

Prints, for each group of layouts (tuned, held-out, held-out-new, held-out-maquila) separately, per form and overall: documents, documents
read (not refused), field-level accuracy (the share of key fields read right, a refused
document counting all wrong; receipts: UUID, RFCs, pay dates, days paid, perceptions,
deductions, net, and over all fields: plus CURP, payroll type, frequency, regime, state, start
date, other payments, each deduction), documents with every key field right, documents
verified by their checks with a wrong key field (must be 0), and seconds per page; then each
receipt layout's line, and the receipt pages with a QR code: how many were decoded, and their
seconds per page. Not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy import DOCS, KEY, READER, cents, movements, read  # noqa: E402  (the reader and truth of the other bench)
from printer import statement, text_pdf  # noqa: E402
from receipt_layouts import HELD_OUT, TUNED, WITH_QR, with_valid_rfcs  # noqa: E402
from receipt_layouts_new import NEW_HELD_OUT, NEW_TUNED, NEW_WITH_QR  # noqa: E402
from receipt_layouts_newest import NEWEST_TUNED, NEWEST_WITH_QR  # noqa: E402
from receipt_layouts_maquila import MAQUILA_HELD_OUT, MAQUILA_WITH_QR  # noqa: E402
from statement_layouts import HELD_OUT_STATEMENTS  # noqa: E402

# Each group of receipt layouts, reported apart: those the reader was written for (with
# `nomipaq-barras`, tuned since its "F. Pago" refusal was fixed, and `dependencia-times`, since
# its "Percepciones:" summary was), those held out of its tuning (issue 43's six, then
# `portal-oblicua`, written after the generic fixes), and `maquila-compacta`, written and
# measured before the second session's reader changes and never tuned on.
GROUPS = (("tuned", {**TUNED, **NEW_TUNED, **NEWEST_TUNED}), ("held-out", HELD_OUT), ("held-out-new", NEW_HELD_OUT),
          ("held-out-maquila", MAQUILA_HELD_OUT))

OTHER = ["receptor_curp", "tipo_nomina", "periodicidad_pago", "tipo_regimen", "clave_ent_fed",
         "fecha_inicio_rel_laboral", "total_otros_pagos", "deducciones"]


def same(a, b) -> bool:
    """Values as JSON gives them: amounts by value, deductions line by line."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(x.get("tipo") == y.get("tipo") and same(x.get("importe"), y.get("importe")) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return Decimal(str(a)) == Decimal(str(b))
    return a == b


def statement_docs(work: Path) -> list[tuple[str, str, str, Path, dict]]:
    """Seven months of each described bank, in its tuned layout and in its held-out one, with
    the same movements (random, from a fixed seed)."""
    rng = random.Random(43)
    docs = []
    for name, layout in HELD_OUT_STATEMENTS.items():
        bank = name.split("-")[0]
        for month in range(1, 8):
            opening, moves = cents(rng, 0, 80_000), movements(rng, 2025, month)
            text, truth = statement(bank, 2025, month, opening, moves)
            page, held_truth = layout(2025, month, opening, moves)
            assert truth == held_truth
            for group, label, pdf in (("tuned", bank, text_pdf(text, 8)), ("held-out", name, page.pdf())):
                path = work / f"{label}--{month:02}.pdf"
                path.write_bytes(pdf)
                docs.append((group, label, "pdf", path, truth))
                subprocess.run(["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", path.name, path.stem], cwd=work, check=True)
                docs.append((group, label, "png-300", path.with_suffix(".png"), truth))
    return docs


def statement_fields(got: dict, true: dict) -> dict[str, bool]:
    """Each key figure of a statement read right (period, balances, totals, movements)."""
    if not got:
        return {k: False for k in true}
    figures = {k: got.get(k) for k in ("desde", "hasta")}
    figures.update({k: Decimal(str(got.get(k))) for k in ("saldo_inicial", "saldo_final", "depositos", "retiros")})
    figures["movimientos"] = len(got.get("movimientos", []))
    return {k: figures.get(k) == v for k, v in true.items()}


def measure_statements(work: Path) -> None:
    docs = statement_docs(work)
    rows = []
    for (group, name, form, path, true), r in zip(docs, read([d[3] for d in docs])):
        got = r.get("documento") or {}
        right = statement_fields(got, true)
        rows.append({"group": group, "layout": name, "form": form, "right": right, "ok": all(right.values()),
                     "read": bool(got), "wrong_verified": bool(got.get("verificado")) and not all(right.values()), "s": r.get("segundos", 0.0)})
    print(f"\n{'statements: layouts / form':42} {'docs':>5} {'read':>6} {'key fields':>11} {'key docs':>9} {'wrong+ver':>9} {'s/page':>7}")
    for group in ("tuned", "held-out"):
        for form in ("pdf", "png-300", None):
            rs = [x for x in rows if x["group"] == group and form in (None, x["form"])]
            fields = sum(len(x["right"]) for x in rs)
            print(f"{group + ' ' + (form or 'all'):42} {len(rs):>5} {sum(x['read'] for x in rs) / len(rs):>6.1%} "
                  f"{sum(v for x in rs for v in x['right'].values()) / fields:>11.1%} {sum(x['ok'] for x in rs) / len(rs):>9.1%} "
                  f"{sum(x['wrong_verified'] for x in rs):>9} {statistics.mean(x['s'] for x in rs):>7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", help="write the generated documents here instead of a temporary folder")
    parser.add_argument("--receipts", type=int, default=0, help="only the first N receipts (0: all)")
    parser.add_argument("--only", choices=["receipts", "statements"], help="measure one kind only")
    parser.add_argument("--layouts", help="only these receipt layouts (comma-separated names)")
    args = parser.parse_args()
    if not READER.exists():
        sys.exit(f"build the reader first: cargo build --release -p score-ocr --example read_document ({READER})")
    work = Path(args.keep or tempfile.mkdtemp(prefix="ocr-layouts-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.only != "receipts":
        measure_statements(work)
    if args.only != "statements":
        measure_receipts(work, args.receipts, set(args.layouts.split(",")) if args.layouts else None)
    print(f"documents in {work}" if args.keep else "")
    if not args.keep:
        for p in work.iterdir():
            p.unlink()
        work.rmdir()


def measure_receipts(work: Path, receipts: int, only: set[str] | None) -> None:
    xmls = sorted(p for p in DOCS.glob("*.xml") if not p.name.startswith("rechazo-"))
    truths = {Path(r["archivo"]).stem: with_valid_rfcs(r["documento"]) for r in read(xmls) if r.get("documento", {}).get("uuid")}
    stems = sorted(truths)[: receipts or None]
    docs: list[tuple[str, str, str, Path, dict]] = []
    for group, layouts in GROUPS:
        for name, layout in layouts.items():
            if only and name not in only:
                continue
            for stem in stems:
                pdf = work / f"{name}--{stem}.pdf"
                pdf.write_bytes(layout(truths[stem]).pdf())
                docs.append((group, name, "pdf", pdf, truths[stem]))
                png = work / f"{name}--{stem}"
                subprocess.run(["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", pdf.name, png.name], cwd=work, check=True)
                docs.append((group, name, "png-300", png.with_suffix(".png"), truths[stem]))
    results = read([d[3] for d in docs])
    rows: list[dict] = []
    for (group, name, form, path, true), r in zip(docs, results):
        got = r.get("documento") or {}
        right = {k: bool(got) and same(got.get(k), true.get(k)) for k in KEY + OTHER}
        key_ok = all(right[k] for k in KEY)
        rows.append({"group": group, "layout": name, "form": form, "read": bool(got), "right": right, "key_ok": key_ok,
                     "wrong_verified": bool(got.get("verificado")) and not key_ok, "s": r.get("segundos", 0.0),
                     "qr": bool(r.get("texto", {}).get("qr") or r.get("qr")), "has_qr": name in WITH_QR | NEW_WITH_QR | NEWEST_WITH_QR | MAQUILA_WITH_QR})
        if not key_ok:
            missed = [k for k in KEY if not right[k]] if got else [r.get("error", {}).get("code")]
            print(f"  {group} {name} {form} {path.stem.split('--')[1]}: {missed}")

    def line(label: str, rs: list[dict]) -> None:
        n = len(rs)
        if not n:
            return
        key = sum(x["right"][k] for x in rs for k in KEY) / (n * len(KEY))
        every = sum(x["right"][k] for x in rs for k in KEY + OTHER) / (n * len(KEY + OTHER))
        print(f"{label:42} {n:>5} {sum(x['read'] for x in rs) / n:>6.1%} {key:>11.1%} {every:>11.1%} "
              f"{sum(x['key_ok'] for x in rs) / n:>9.1%} {sum(x['wrong_verified'] for x in rs):>9} {statistics.mean(x['s'] for x in rs):>7.2f}")

    print(f"\n{'layouts / form':42} {'docs':>5} {'read':>6} {'key fields':>11} {'all fields':>11} {'key docs':>9} {'wrong+ver':>9} {'s/page':>7}")
    for group, _ in GROUPS:
        for form in ("pdf", "png-300"):
            line(f"{group} {form}", [x for x in rows if x["group"] == group and x["form"] == form])
        line(f"{group} all", [x for x in rows if x["group"] == group])
    print()
    for name in [name for _, layouts in GROUPS for name in layouts]:
        for form in ("pdf", "png-300"):
            line(f"  {name} {form}", [x for x in rows if x["layout"] == name and x["form"] == form])
    qr_pages = [x for x in rows if x["has_qr"]]
    if qr_pages:
        for form in ("pdf", "png-300"):
            rs = [x for x in qr_pages if x["form"] == form]
            print(f"QR code pages ({form}): {len(rs)}, code decoded on {sum(x['qr'] for x in rs) / len(rs):.1%}, "
                  f"{statistics.mean(x['s'] for x in rs):.2f} s/page (median {statistics.median(x['s'] for x in rs):.2f}, "
                  f"max {max(x['s'] for x in rs):.2f})")


if __name__ == "__main__":
    main()
