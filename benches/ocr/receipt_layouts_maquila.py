"""One more printed-receipt layout held out of the reader's tuning (issue 43, part 4), for
benches/ocr/layouts.py: written on 2026-11-28 by 08:39 UTC (commit 74cb6aa) and measured at main 90a9625's
reader before any change to it; the reader is never tuned on it (MAQUILA_HELD_OUT). Its page,
font, arrangement and wording are none of the other layouts':

* `maquila-compacta`: a factory's payroll program printing a whole receipt on a LANDSCAPE page
  in a condensed Helvetica (horizontal scaling 80%, as Arial Narrow prints) at 6.5 pt, under a
  shaded band with the employer's "R.F.C. Patrón" and "Reg. Patronal"; THREE bordered columns
  ("DATOS DEL EMPLEADO" with "No. Empleado", "N.S.S.", "Fecha Alta", "Sueldo Diario", "S.D.I.";
  "DATOS DE LA NÓMINA" with "Tipo Nómina", "Periodo ... AL ...", "Fecha Pago", "Días
  Pagados"; "COMPROBANTE FISCAL" with "Folio Fiscal", "No. Certificado", "Fecha Timbrado");
  dates as `15/ENE/2026`; perceptions and deductions side by side in ruled tables with the
  company's own key ("P01", "D02") before the SAT code and a days column; the totals in a ruled
  grid of labels over values ("Total Percepciones", "Otros Pagos", "Total Deducciones", "Neto a
  Pagar"); the seals in small print and the QR code at the bottom right.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Callable

from drawing import Page
from receipt_layouts import PERIODICIDAD, REGIMEN, WORKER, d, deductions, money, perceptions, qr_url

EMPRESA = "MANUFACTURAS DEL NORTE DE CHIHUAHUA S DE RL DE CV"
MESES = ["ENE", "FEB", "MAR", "ABR", "MAY", "JUN", "JUL", "AGO", "SEP", "OCT", "NOV", "DIC"]
LEFT, RIGHT, COLUMN = 30.0, 762.0, 244.0


def dmy_upper(iso: str) -> str:
    return f"{iso[8:10]}/{MESES[int(iso[5:7]) - 1]}/{iso[0:4]}"


def _column(p: Page, x: float, y: float, title: str, rows: list[tuple[str, str]]) -> float:
    """A bordered column of label/value lines under a shaded title; returns its bottom."""
    p.shade(x, y, COLUMN, 11, 0.75)
    p.text(x + 4, y + 8, title, "helvb", 7)
    for i, (label, value) in enumerate(rows):
        p.text(x + 4, y + 21 + i * 10, f"{label}:", "helvb")
        p.text(x + 78, y + 21 + i * 10, value)
    bottom = y + 16 + len(rows) * 10
    p.box(x, y, COLUMN, bottom - y)
    return bottom


def _table(p: Page, x: float, y: float, width: float, title: str, heads: list[tuple[float, str]],
           rows: list[list[tuple[float, str, bool]]], lines: int) -> None:
    """A ruled table: a shaded title and head, one ruled row per line, `lines` rows tall.
    A cell is (offset, text, right-aligned)."""
    p.shade(x, y, width, 10, 0.75)
    p.text(x + 4, y + 7.5, title, "helvb", 7)
    y += 10
    p.shade(x, y, width, 10, 0.9)
    for dx, head in heads:
        p.text(x + dx, y + 7.5, head, "helvb")
    for i in range(lines + 1):
        p.line(x, y + 10 + i * 10, x + width, y + 10 + i * 10, 0.3)
    for i, row in enumerate(rows):
        for dx, value, right in row:
            (p.right if right else p.text)(x + dx, y + 17.5 + i * 10, value)
    p.box(x - 0, y - 10, width, 20 + lines * 10)
    for dx, _ in heads[1:]:
        p.line(x + dx - 3, y, x + dx - 3, y + 10 + lines * 10, 0.3)


def maquila_compacta(f: dict) -> Page:
    p = Page("helv", 6.5, landscape=True, stretch=80)
    p.shade(LEFT, 24, RIGHT - LEFT, 30, 0.85)
    p.text(LEFT + 6, 36, EMPRESA, "helvb", 10)
    p.text(LEFT + 6, 48, f"R.F.C. Patrón: {f['emisor_rfc']}    Reg. Patronal: R1520384105    Régimen Fiscal: 601    "
                         "Domicilio: Av. de las Industrias 4510, Parque Industrial Norte, Chihuahua, Chih.")
    p.text(560, 36, "RECIBO DE NÓMINA", "helvb", 10)
    p.text(560, 48, f"CFDI {f['version']} con Complemento de Nómina 1.2")
    wages = perceptions(f)[0][2]
    days = d(f["num_dias_pagados"])
    daily = (wages / days).quantize(Decimal("0.01")) if days else Decimal(0)
    empleado = [("No. Empleado", "002381"), ("Nombre", WORKER), ("R.F.C.", f["receptor_rfc"]),
                ("C.U.R.P.", f["receptor_curp"]), ("N.S.S.", "32159012345"), ("Puesto", "OPERADOR DE PRODUCCION"),
                ("Depto.", "ENSAMBLE FINAL"),
                ("Fecha Alta", dmy_upper(f["fecha_inicio_rel_laboral"]) if f.get("fecha_inicio_rel_laboral") else ""),
                ("Antigüedad", f.get("antiguedad") or ""), ("Sueldo Diario", money(daily)),
                ("S.D.I.", money((daily * Decimal("1.0493")).quantize(Decimal("0.01"))))]
    nomina = [("Tipo Nómina", "ORDINARIA" if f["tipo_nomina"] == "O" else "EXTRAORDINARIA"),
              ("Periodicidad", f"{f['periodicidad_pago']} {PERIODICIDAD.get(f['periodicidad_pago'], '').upper()}"),
              ("Periodo", f"{dmy_upper(f['fecha_inicial_pago'])} AL {dmy_upper(f['fecha_final_pago'])}"),
              ("Fecha Pago", dmy_upper(f["fecha_pago"])), ("Días Pagados", f"{days:.3f}"),
              ("Régimen", f"{f['tipo_regimen']} {REGIMEN.get(f['tipo_regimen'], '').upper()}"),
              ("Entidad", f["clave_ent_fed"]), ("Jornada", "01 DIURNA"), ("Forma Pago", "99 POR DEFINIR"),
              ("Cuenta", "**** **** 4417")]
    fiscal = [("Folio Fiscal", f["uuid"]), ("No. Certificado", "00001000000509876543"),
              ("Cert. SAT", "00001000000505142236"), ("Fecha Timbrado", f"{dmy_upper(f['fecha_pago'])} 11:02:45"),
              ("Lugar Expedición", "31109"), ("Uso CFDI", "CN01 NÓMINA"), ("Exportación", "01 NO APLICA")]
    y = 62
    bottom = max(_column(p, LEFT + i * (COLUMN + 0), y, title, rows)
                 for i, (title, rows) in enumerate((("DATOS DEL EMPLEADO", empleado), ("DATOS DE LA NÓMINA", nomina),
                                                    ("COMPROBANTE FISCAL", fiscal))))
    y = bottom + 10
    ps = [[(4, f"P{i + 1:02}", False), (30, c, False), (56, n.upper()[:40], False), (200, f"{days:.2f}" if c == "001" else "", False),
           (362, money(v, False), True)] for i, (c, n, v) in enumerate(perceptions(f))]
    ds = [[(4, f"D{i + 1:02}", False), (30, c, False), (56, n.upper()[:40], False), (362, money(v, False), True)]
          for i, (c, n, v) in enumerate(deductions(f))]
    lines = max(len(ps), len(ds), 4)
    half = (RIGHT - LEFT) / 2
    _table(p, LEFT, y, half, "PERCEPCIONES", [(4, "Clave"), (30, "SAT"), (56, "Concepto"), (200, "Días"), (330, "Importe")], ps, lines)
    _table(p, LEFT + half, y, half, "DEDUCCIONES", [(4, "Clave"), (30, "SAT"), (56, "Concepto"), (330, "Importe")], ds, lines)
    y += 30 + lines * 10 + 8
    grid = [("Total Percepciones", f["total_percepciones"]), ("Otros Pagos", f["total_otros_pagos"]),
            ("Total Deducciones", f["total_deducciones"]), ("Neto a Pagar", f["neto"])]
    cell = (RIGHT - LEFT) / 2 / len(grid)
    for i, (label, value) in enumerate(grid):
        x = LEFT + half + i * cell
        p.shade(x, y, cell, 10, 0.85)
        p.box(x, y, cell, 22)
        p.text(x + 4, y + 7.5, label, "helvb")
        p.right(x + cell - 4, y + 19, money(value), "helvb" if label.startswith("Neto") else None)
    p.text(LEFT + 4, y + 8, "Recibí de la empresa arriba mencionada la cantidad neta indicada en este recibo, sin que a la fecha")
    p.text(LEFT + 4, y + 17, "se me adeude cantidad alguna por concepto de salarios, horas extra, séptimo día o prestaciones.")
    y += 34
    p.text(LEFT + 4, y + 24, "_______________________________", size=8)
    p.text(LEFT + 30, y + 33, "FIRMA DEL EMPLEADO")
    seal = "Hk2Lm9QpX4vR7tB1nW3sY6dF8gJ0cZ5aE2uI9oP4kM7qT1wV3xN6bD8fG0hL2jS5rU7yA9eC1iK3mO5pQ7s="
    p.text(LEFT + 150, y + 6, "Sello Digital del CFDI:", "helvb", 5.5)
    p.text(LEFT + 150, y + 13, seal * 2, size=5)
    p.text(LEFT + 150, y + 22, "Sello Digital del SAT:", "helvb", 5.5)
    p.text(LEFT + 150, y + 29, seal[::-1] * 2, size=5)
    p.text(LEFT + 150, y + 38, "Cadena Original del Complemento de Certificación Digital del SAT:", "helvb", 5.5)
    p.text(LEFT + 150, y + 45, f"||1.1|{f['uuid']}|{f['fecha_pago']}T11:02:45|SPR190613I52|{seal[:40]}|00001000000505142236||", size=5)
    p.text(LEFT + 150, y + 56, "Este documento es una representación impresa de un CFDI.", size=6)
    p.qr(RIGHT - 78, y - 6, 76, qr_url(f))
    return p


Layout = Callable[[dict], Page]
MAQUILA_HELD_OUT: dict[str, Layout] = {"maquila-compacta": maquila_compacta}
MAQUILA_WITH_QR = {"maquila-compacta"}
