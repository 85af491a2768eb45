"""One more printed-receipt layout held out of the reader's tuning (issue 43, part 4), for
benches/ocr/layouts.py: written on 2026-11-28 at 05:25 UTC, before the reader's label fix for
abbreviated and reworded labels, and measured held out (0%: every print refused) before any
change to the reader. Since 2026-11-28's second session the reader reads its "Percepciones:"
summary, its one "P/D" table and its dates in words as classes, so it is a TUNED layout
(NEWEST_TUNED). Its fonts, arrangement and wording are none of
receipt_layouts.py's or receipt_layouts_new.py's:

* `dependencia-times`: a public employer's print in Times-Roman 9 pt under a shaded title band,
  the worker's data on the left and the receipt's on the right without boxes, "Nombre del
  empleado", "Núm. de empleado", "R.F.C. del patrón", "Folio fiscal (UUID)" with the UUID on
  the line below, the start date in words ("15 de marzo de 2019"), the seniority as the XML
  writes it, the period as two dates joined by a dash, "Días trabajados"; perceptions and
  deductions in ONE bordered table with a "P"/"D" column and an amount column for each; a
  summary ("Percepciones", "Deducciones", "Otros pagos", "Neto a cobrar"); the QR code at the
  foot beside the SAT's original string.
"""

from __future__ import annotations

from typing import Callable

from drawing import Page
from receipt_layouts import PERIODICIDAD, REGIMEN, WORKER, EMPLOYER, d, deductions, dmy, money, perceptions, qr_url

MESES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
         "noviembre", "diciembre"]


def in_words(iso: str) -> str:
    return f"{int(iso[8:10])} de {MESES[int(iso[5:7]) - 1]} de {iso[0:4]}"


def dependencia_times(f: dict) -> Page:
    p = Page("times", 9)
    p.shade(30, 28, 552, 30, 0.8)
    p.text(40, 42, EMPLOYER, "timesb", 12)
    p.text(40, 53, "Comprobante fiscal digital por internet - Recibo de nómina", "times", 9)
    y = 76
    left = [("Nombre del empleado", WORKER), ("Núm. de empleado", "1043"), ("R.F.C.", f["receptor_rfc"]),
            ("C.U.R.P.", f["receptor_curp"]), ("Puesto", "ANALISTA ADMINISTRATIVO"),
            ("Régimen", f"{f['tipo_regimen']} - {REGIMEN.get(f['tipo_regimen'], '')}")]
    if f.get("fecha_inicio_rel_laboral"):
        left.append(("Fecha de ingreso", in_words(f["fecha_inicio_rel_laboral"])))
    if f.get("antiguedad"):
        left.append(("Antigüedad", f["antiguedad"]))
    for i, (label, value) in enumerate(left):
        p.text(40, y + i * 12, f"{label}:", "timesb")
        p.text(140, y + i * 12, value)
    right = [("R.F.C. del patrón", f["emisor_rfc"]), ("Folio fiscal (UUID)", ""), ("", f["uuid"]),
             ("Fecha de pago", dmy(f["fecha_pago"])),
             ("Periodo", f"{dmy(f['fecha_inicial_pago'])} - {dmy(f['fecha_final_pago'])}"),
             ("Días trabajados", f"{d(f['num_dias_pagados'])}"),
             ("Periodicidad", f"{f['periodicidad_pago']} {PERIODICIDAD.get(f['periodicidad_pago'], '')}"),
             ("Tipo de nómina", "Ordinaria" if f["tipo_nomina"] == "O" else "Extraordinaria"),
             ("Entidad federativa", f["clave_ent_fed"])]
    for i, (label, value) in enumerate(right):
        if label:
            p.text(330, y + i * 12, f"{label}:", "timesb")
        p.text(440 if label else 340, y + i * 12, value, size=8 if not label else None)
    y += max(len(left), len(right)) * 12 + 14
    top = y - 10
    p.shade(30, top, 552, 13)
    for x, h in ((36, "P/D"), (62, "Clave"), (100, "Concepto"), (430, "Percepción"), (515, "Deducción")):
        p.text(x, y, h, "timesb")
    rows = [("P", c, n, v) for c, n, v in perceptions(f)] + [("D", c, n, v) for c, n, v in deductions(f)]
    for kind, c, n, v in rows:
        y += 12
        p.text(38, y, kind)
        p.text(62, y, c)
        p.text(100, y, n)
        p.right(480 if kind == "P" else 570, y, money(v, False))
    p.box(30, top, 552, y - top + 5)
    p.line(58, top, 58, y + 5, 0.4)
    p.line(96, top, 96, y + 5, 0.4)
    p.line(420, top, 420, y + 5, 0.4)
    p.line(505, top, 505, y + 5, 0.4)
    y += 24
    summary = [("Percepciones", f["total_percepciones"]), ("Deducciones", f["total_deducciones"])]
    if d(f["total_otros_pagos"]):
        summary.append(("Otros pagos", f["total_otros_pagos"]))
    summary.append(("Neto a cobrar", f["neto"]))
    for label, value in summary:
        bold = label.startswith("Neto")
        p.text(380, y, f"{label}:", "timesb" if bold else "times")
        p.right(570, y, money(value), "timesb" if bold else "times")
        y += 12
    y += 10
    p.qr(36, y, 72, qr_url(f))
    p.text(118, y + 8, "Este documento es una representación impresa de un CFDI.", size=7)
    p.text(118, y + 18, f"Cadena original del complemento de certificación digital del SAT: ||1.1|{f['uuid']}|", size=6)
    p.text(118, y + 26, f"{f['fecha_pago']}T11:02:45|SAT970701NN3|Xk3f9QmZ0pLrT2vB8nYwE4sD6aH1cJ5uG7iO||", size=6)
    p.text(118, y + 50, "Firma del empleado: ______________________________", size=8)
    return p


Layout = Callable[[dict], Page]
NEWEST_TUNED: dict[str, Layout] = {"dependencia-times": dependencia_times}
NEWEST_WITH_QR = {"dependencia-times"}
