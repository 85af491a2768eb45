"""Printed payroll receipts in nine layouts, drawn as one-page PDFs with a text layer, for
benches/ocr/layouts.py (issue 43, part 4: layouts the reader was not written for).

Three layouts are the ones score-docs' reader was written for (TUNED: this repository's own
print, fixtures/documents/printer.py, and its two relabelled forms that score-docs'
tests/printed.rs reads). Six were written for issue 43 after the reader, as payroll programs
print receipts (HELD_OUT), and the reader was not tuned on them: one and two columns, tables
with and without borders, perceptions and deductions side by side, label variants ("RFC:",
"R.F.C.", "Trabajador", "Empleado", "Receptor", "Colaborador"), codes printed with or without
their names, three PDF base fonts (Poppler draws them with Debian's Liberation or URW fonts),
and four of them with the SAT's QR code (Anexo 20's verification URL).

A layout is a function of a receipt's facts (the JSON `read_cfdi` gives) to a `Page`; `pdf()`
writes it (drawing.py). Names of people and companies are invented; amounts, dates, RFCs and UUIDs are the
receipt's.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Callable

from drawing import Page
from printer import printed  # noqa: E402  (fixtures/documents, on sys.path)

WORKER, EMPLOYER = "MARIA LUISA GARCIA LOPEZ", "SERVICIOS INTEGRALES DEL BAJIO SA DE CV"
PERIODICIDAD = {"01": "Diario", "02": "Semanal", "03": "Catorcenal", "04": "Quincenal", "05": "Mensual",
                "06": "Bimestral", "10": "Decenal", "99": "Otra periodicidad"}
REGIMEN = {"02": "Sueldos", "03": "Jubilados", "04": "Pensionados", "09": "Asimilados honorarios",
           "12": "Jubilados o pensionados", "13": "Indemnización o separación"}
DEDUCCION = {"001": "Seguridad social", "002": "ISR", "003": "Aportaciones a retiro", "004": "Otros",
             "006": "Descuento por incapacidad", "007": "Pensión alimenticia",
             "009": "Préstamos provenientes del Fondo Nacional de la Vivienda",
             "010": "Pago por crédito de vivienda", "011": "Pago de abonos INFONACOT", "020": "Ausencia"}
MES = ["Ene", "Feb", "Mar", "Abr", "May", "Jun", "Jul", "Ago", "Sep", "Oct", "Nov", "Dic"]
# The SAT's RFC check-digit alphabet (value = position).
RFC_CHARS = "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ"


def rfc_with_check_digit(rfc: str) -> str:
    """`rfc` with its last character replaced by the right check digit (the SAT's weighted sum
    modulo 11): the fixtures' workers have invented RFCs, and a real print has real ones."""
    body = rfc[:-1].rjust(12)
    total = sum(RFC_CHARS.index(c) * (13 - i) for i, c in enumerate(body))
    digit = 11 - total % 11
    return rfc[:-1] + ("0" if digit == 11 else "A" if digit == 10 else str(digit))


def with_valid_rfcs(facts: dict) -> dict:
    return dict(facts, emisor_rfc=rfc_with_check_digit(facts["emisor_rfc"]), receptor_rfc=rfc_with_check_digit(facts["receptor_rfc"]))


def d(v) -> Decimal:
    return Decimal(str(v))


def money(v, sign: bool = True) -> str:
    v = d(v)
    return f"{'-' if v < 0 else ''}{'$' if sign else ''}{abs(v):,.2f}"


def dmy(iso: str, sep: str = "/") -> str:
    return f"{iso[8:10]}{sep}{iso[5:7]}{sep}{iso[0:4]}"


def d_mon_y(iso: str) -> str:
    return f"{iso[8:10]}/{MES[int(iso[5:7]) - 1]}/{iso[0:4]}"


def perceptions(f: dict) -> list[tuple[str, str, Decimal]]:
    """The perception lines: wages and, on an ordinary receipt, a punctuality bonus (10%), which
    add up to the receipt's total."""
    total = d(f["total_percepciones"])
    if f["tipo_nomina"] != "O" or total < 1000:
        return [("001", "Sueldos, salarios, rayas y jornales", total)]
    bonus = (total / 10).quantize(Decimal("0.01"))
    return [("001", "Sueldos, salarios, rayas y jornales", total - bonus), ("010", "Premios por puntualidad", bonus)]


def deductions(f: dict) -> list[tuple[str, str, Decimal]]:
    return [(x["tipo"], DEDUCCION.get(x["tipo"], "Otras deducciones"), d(x["importe"])) for x in f["deducciones"]]


def qr_url(f: dict) -> str:
    """Anexo 20's verification URL (CFDI 4.0 form: the total as written)."""
    tt = f"{d(f['neto']):.2f}" if f["version"] == "4.0" else f"{d(f['neto']):017.6f}"
    return (f"https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id={f['uuid']}&re={f['emisor_rfc']}"
            f"&rr={f['receptor_rfc']}&tt={tt}&fe=bW9ja1NlbGxv")


def _lines(text: str, font: str = "cour", size: float = 8) -> Page:
    page = Page(font, size)
    for i, line in enumerate(text.splitlines()):
        page.text(30, 40 + i * (size + 2), line)
    return page


# --- Tuned: the layouts score-docs' reader was written for -------------------------------------

def repo(f: dict) -> Page:
    """This repository's print (fixtures/documents/printer.py), Courier, one column."""
    return _lines(printed(f))


def _relabel(f: dict, emisor: str, receptor: str) -> Page:
    out = []
    for line in printed(f).splitlines():
        if line.startswith("RFC emisor:"):
            line = f"{emisor}{f['emisor_rfc']}     Régimen fiscal: 601"
        elif line.startswith("RFC receptor:"):
            line = f"{receptor}{f['receptor_rfc']}   CURP: {f['receptor_curp']}"
        out.append(line)
    return _lines("\n".join(out))


def trabajador_rfc(f: dict) -> Page:
    """The print relabelled as score-docs' tests relabel it: "Empresa: … R.F.C.", "Trabajador: … RFC:"."""
    return _relabel(f, f"Empresa: {EMPLOYER[:22]}  R.F.C. ", f"Trabajador: {WORKER}  RFC: ")


def patron_empleado(f: dict) -> Page:
    """The print relabelled "Patrón  RFC", "Empleado  RFC"."""
    return _relabel(f, "Patrón  RFC ", "Empleado  RFC ")


# --- Held out: written after the reader, never tuned on ----------------------------------------

def _signature_block(p: Page, f: dict, y: float, size: float = 5.5) -> float:
    """The stamp's data and seals as a CFDI print ends (long unbroken strings, as printed)."""
    seal = "Xk3f9QmZ0pLrT2vB8nYwE4sD6aH1cJ5uG7iO" * 4
    p.text(40, y, f"Folio fiscal: {f['uuid']}    No. de serie del certificado del SAT: 00001000000509846663", size=size)
    p.text(40, y + 8, f"Fecha y hora de certificación: {f['fecha_pago']}T13:10:02    No. de serie del CSD del emisor: 30001000000500003416", size=size)
    p.text(40, y + 16, "Sello digital del CFDI:", size=size)
    p.text(40, y + 23, seal[:120], size=size)
    p.text(40, y + 31, "Sello digital del SAT:", size=size)
    p.text(40, y + 38, seal[7:127], size=size)
    p.text(40, y + 46, f"Cadena original del complemento de certificación digital del SAT: ||1.1|{f['uuid']}|{f['fecha_pago']}T13:10:02|", size=size)
    return y + 56


def dos_columnas_bordes(f: dict) -> Page:
    """Two columns (employer | worker) in boxes, Helvetica, perceptions and deductions side by
    side in bordered tables, "Empleado:", "R.F.C.:", codes with their names, QR code."""
    p = Page("helv", 8)
    p.text(40, 40, EMPLOYER, "helvb", 11)
    p.text(40, 54, f"R.F.C.: {f['emisor_rfc']}     Registro patronal: Y6012345109     Régimen fiscal: 601 General de Ley Personas Morales")
    p.text(430, 40, "RECIBO DE NÓMINA", "helvb", 10)
    p.text(430, 54, f"CFDI versión {f['version']}")
    p.box(36, 64, 270, 92)
    p.box(306, 64, 270, 92)
    p.text(40, 76, "DATOS DEL EMPLEADO", "helvb")
    p.text(40, 90, f"Empleado: {WORKER}")
    p.text(40, 102, f"R.F.C.: {f['receptor_rfc']}")
    p.text(40, 114, f"CURP: {f['receptor_curp']}")
    p.text(40, 126, f"Fecha de ingreso: {dmy(f['fecha_inicio_rel_laboral'])}" if f.get("fecha_inicio_rel_laboral") else "Fecha de ingreso:")
    p.text(40, 138, f"Tipo de régimen: {f['tipo_regimen']} {REGIMEN.get(f['tipo_regimen'], '')}")
    p.text(40, 150, f"Entidad federativa: {f['clave_ent_fed']}")
    p.text(310, 76, "DATOS DEL PERIODO", "helvb")
    p.text(310, 90, f"Tipo de nómina: {'O Ordinaria' if f['tipo_nomina'] == 'O' else 'E Extraordinaria'}")
    p.text(310, 102, f"Periodicidad de pago: {f['periodicidad_pago']} {PERIODICIDAD.get(f['periodicidad_pago'], '')}")
    p.text(310, 114, f"Fecha inicial de pago: {dmy(f['fecha_inicial_pago'])}")
    p.text(310, 126, f"Fecha final de pago: {dmy(f['fecha_final_pago'])}")
    p.text(310, 138, f"Fecha de pago: {dmy(f['fecha_pago'])}")
    p.text(310, 150, f"Días pagados: {d(f['num_dias_pagados']):.3f}")
    y = 172
    p.shade(36, y - 9, 270, 12)
    p.shade(306, y - 9, 270, 12)
    p.text(40, y, "PERCEPCIONES", "helvb")
    p.text(310, y, "DEDUCCIONES", "helvb")
    left, right = perceptions(f), deductions(f)
    for i in range(max(len(left), len(right))):
        y += 12
        if i < len(left):
            c, n, v = left[i]
            p.text(40, y, f"{c}  {n[:30]}")
            p.right(300, y, money(v, False))
        if i < len(right):
            c, n, v = right[i]
            p.text(310, y, f"{c}  {n[:30]}")
            p.right(570, y, money(v, False))
    top = 163
    y += 14
    p.box(36, top, 270, y - top)
    p.box(306, top, 270, y - top)
    p.line(36, y - 10, 576, y - 10)
    p.text(40, y - 1, "Total percepciones", "helvb")
    p.right(300, y - 1, money(f["total_percepciones"], False), "helvb")
    p.text(310, y - 1, "Total deducciones", "helvb")
    p.right(570, y - 1, money(f["total_deducciones"], False), "helvb")
    y += 16
    if d(f["total_otros_pagos"]):
        p.text(40, y, f"Otros pagos: 002 Subsidio para el empleo   {money(f['total_otros_pagos'])}")
        y += 12
    p.box(380, y - 10, 196, 16, 1.0)
    p.text(386, y + 2, f"NETO A PAGAR   {money(f['neto'])}", "helvb", 10)
    y += 30
    p.qr(40, y, 80, qr_url(f))
    _signature_block_at(p, f, 130, y)
    return p


def _signature_block_at(p: Page, f: dict, x: float, y: float) -> None:
    seal = "Xk3f9QmZ0pLrT2vB8nYwE4sD6aH1cJ5uG7iO" * 3
    p.text(x, y + 6, f"Folio fiscal: {f['uuid']}", size=6)
    p.text(x, y + 14, "No. de serie del certificado del SAT: 00001000000509846663", size=6)
    p.text(x, y + 22, "Sello digital del CFDI:", size=6)
    p.text(x, y + 29, seal[:95], size=5.5)
    p.text(x, y + 37, "Sello del SAT:", size=6)
    p.text(x, y + 44, seal[5:100], size=5.5)
    p.text(x, y + 56, "Este documento es una representación impresa de un CFDI", size=6)


def una_columna_times(f: dict) -> Page:
    """One column, Times, tables without borders, "Receptor" / "RFC Receptor:", the period on
    one line ("Periodo del … al …"), frequency and regime by name, no QR code."""
    p = Page("times", 10)
    y = 44
    for s, font, size in ((EMPLOYER, "timesb", 13), ("Comprobante fiscal digital por Internet — Recibo de nómina", "times", 10)):
        p.text(50, y, s, font, size)
        y += 16
    rows = [
        f"Emisor RFC: {f['emisor_rfc']}",
        f"Folio Fiscal: {f['uuid']}",
        f"Receptor: {WORKER}",
        f"RFC Receptor: {f['receptor_rfc']}",
        f"CURP Receptor: {f['receptor_curp']}",
        f"Periodo del {dmy(f['fecha_inicial_pago'])} al {dmy(f['fecha_final_pago'])}",
        f"Fecha de pago: {dmy(f['fecha_pago'])}",
        f"Días pagados: {d(f['num_dias_pagados'])}",
        f"Periodicidad: {PERIODICIDAD.get(f['periodicidad_pago'], f['periodicidad_pago'])}",
        f"Tipo de nómina: {'Ordinaria' if f['tipo_nomina'] == 'O' else 'Extraordinaria'}",
        f"Régimen: {REGIMEN.get(f['tipo_regimen'], f['tipo_regimen'])}",
        f"Entidad federativa: {f['clave_ent_fed']}",
    ]
    if f.get("fecha_inicio_rel_laboral"):
        rows.append(f"Inicio de la relación laboral: {dmy(f['fecha_inicio_rel_laboral'])}")
    for r in rows:
        y += 13
        p.text(50, y, r)
    y += 2
    for title, lines, label, total in (("Percepciones", perceptions(f), "Total de percepciones", f["total_percepciones"]),
                                       ("Deducciones", deductions(f), "Total de deducciones", f["total_deducciones"])):
        y += 22
        p.text(50, y, title, "timesb", 11)
        for c, n, v in lines:
            y += 13
            p.text(60, y, c)
            p.text(100, y, n)
            p.right(520, y, money(v))
        y += 13
        p.text(60, y, label, "timesb")
        p.right(520, y, money(total), "timesb")
    if d(f["total_otros_pagos"]):
        y += 22
        p.text(50, y, "Otros pagos", "timesb", 11)
        y += 13
        p.text(60, y, "002")
        p.text(100, y, "Subsidio para el empleo")
        p.right(520, y, money(f["total_otros_pagos"]))
    y += 26
    p.text(300, y, "Neto del recibo", "timesb", 12)
    p.right(520, y, money(f["neto"]), "timesb", 12)
    _signature_block(p, f, y + 40)
    return p


def sat_tabla(f: dict) -> Page:
    """The SAT's "representación impresa" style: labels in a shaded row and values in the row
    below (a grid with borders), Helvetica 7, QR code at the foot beside the seals."""
    p = Page("helv", 7)
    p.text(36, 36, "REPRESENTACIÓN IMPRESA DE UN CFDI DE NÓMINA", "helvb", 10)
    grids = [
        [("RFC emisor", f["emisor_rfc"]), ("Nombre emisor", EMPLOYER), ("Folio fiscal", f["uuid"])],
        [("RFC receptor", f["receptor_rfc"]), ("Nombre receptor", WORKER), ("CURP", f["receptor_curp"])],
        [("Fecha de pago", dmy(f["fecha_pago"])), ("Fecha inicial de pago", dmy(f["fecha_inicial_pago"])),
         ("Fecha final de pago", dmy(f["fecha_final_pago"])), ("Número de días pagados", str(f["num_dias_pagados"]))],
        [("Tipo de nómina", f["tipo_nomina"]), ("Periodicidad de pago", f["periodicidad_pago"]),
         ("Tipo de régimen", f["tipo_regimen"]), ("Clave entidad federativa", f["clave_ent_fed"]),
         ("Fecha inicio rel. laboral", dmy(f["fecha_inicio_rel_laboral"]) if f.get("fecha_inicio_rel_laboral") else "")],
    ]
    y = 50
    for grid in grids:
        w = 540 / len(grid)
        for i, (label, value) in enumerate(grid):
            x = 36 + i * w
            p.shade(x, y, w, 11)
            p.box(x, y, w, 24)
            p.text(x + 3, y + 8, label, "helvb")
            p.text(x + 3, y + 20, value)
        y += 28
    for title, rows, total_label, total in (("Percepciones", perceptions(f), "Total percepciones", f["total_percepciones"]),
                                            ("Deducciones", deductions(f), "Total deducciones", f["total_deducciones"])):
        y += 8
        p.text(36, y + 6, title.upper(), "helvb", 8)
        y += 10
        p.shade(36, y, 540, 11)
        p.box(36, y, 540, 11 + 11 * (len(rows) + 1))
        for x, h in ((40, "Tipo"), (90, "Concepto"), (540, "Importe")):
            p.text(x, y + 8, h, "helvb")
        for c, n, v in rows:
            y += 11
            p.line(36, y, 576, y, 0.3)
            p.text(40, y + 8, c)
            p.text(90, y + 8, n)
            p.right(570, y + 8, money(v))
        y += 11
        p.line(36, y, 576, y, 0.3)
        p.text(90, y + 8, total_label, "helvb")
        p.right(570, y + 8, money(total), "helvb")
        y += 14
    y += 6
    p.text(380, y + 8, f"Total otros pagos: {money(f['total_otros_pagos'])}")
    p.text(380, y + 20, f"Total: {money(f['neto'])}", "helvb", 9)
    y += 34
    p.qr(36, y, 90, qr_url(f))
    _signature_block_at(p, f, 140, y)
    return p


def mayusculas_courier(f: dict) -> Page:
    """Upper-case labels as old payroll systems print them, Courier, dotted leaders, dates as
    "15/Ene/2025", "TRABAJADOR", "R.F.C.", one column, QR code top right."""
    p = Page("cour", 8)
    p.qr(470, 30, 90, qr_url(f))
    rows = [
        ("RECIBO DE PAGO DE NOMINA", ""), (EMPLOYER, ""), (f"R.F.C. PATRON....: {f['emisor_rfc']}", ""),
        (f"FOLIO FISCAL.....: {f['uuid']}", ""), ("", ""),
        (f"TRABAJADOR.......: {WORKER}", ""), (f"R.F.C............: {f['receptor_rfc']}", ""),
        (f"C.U.R.P..........: {f['receptor_curp']}", ""),
        (f"FECHA INGRESO....: {d_mon_y(f['fecha_inicio_rel_laboral'])}" if f.get("fecha_inicio_rel_laboral") else "FECHA INGRESO....:", ""),
        (f"PERIODO..........: {d_mon_y(f['fecha_inicial_pago'])} A {d_mon_y(f['fecha_final_pago'])}", ""),
        (f"FECHA DE PAGO....: {d_mon_y(f['fecha_pago'])}", ""),
        (f"DIAS PAGADOS.....: {d(f['num_dias_pagados'])}", ""),
        (f"PERIODICIDAD.....: {f['periodicidad_pago']}-{PERIODICIDAD.get(f['periodicidad_pago'], '').upper()}", ""),
        (f"TIPO NOMINA......: {f['tipo_nomina']}", ""),
        (f"REGIMEN..........: {f['tipo_regimen']}", ""),
        (f"ENTIDAD..........: {f['clave_ent_fed']}", ""),
    ]
    y = 40
    for text, _ in rows:
        p.text(36, y, text)
        y += 11
    y += 6
    p.text(36, y, "-" * 88)
    y += 11
    p.text(36, y, "CVE  PERCEPCION                          IMPORTE   CVE  DEDUCCION                   IMPORTE")
    y += 4
    p.text(36, y + 7, "-" * 88)
    y += 11
    left, right = perceptions(f), deductions(f)
    for i in range(max(len(left), len(right))):
        y += 11
        line = ""
        if i < len(left):
            c, n, v = left[i]
            line += f"{c}  {n.upper()[:30]:<30} {money(v, False):>12}"
        else:
            line += " " * 47
        if i < len(right):
            c, n, v = right[i]
            line += f"   {c}  {n.upper()[:22]:<22} {money(v, False):>12}"
        p.text(36, y, line)
    y += 8
    p.text(36, y + 7, "-" * 88)
    y += 18
    p.text(36, y, f"TOTAL PERCEPCIONES {money(f['total_percepciones'], False):>28}   TOTAL DEDUCCIONES {money(f['total_deducciones'], False):>20}")
    y += 11
    p.text(36, y, f"OTROS PAGOS {money(f['total_otros_pagos'], False):>35}")
    y += 16
    p.text(300, y, f"NETO A RECIBIR {money(f['neto']):>20}", "courb", 9)
    _signature_block(p, f, y + 30, 5.5)
    return p


def colaborador_sin_bordes(f: dict) -> Page:
    """Two columns without borders, Helvetica 9: "Colaborador" and "RFC" on the left, the
    period on the right; deductions named first with the SAT code after ("ISR (002)"); no QR."""
    p = Page("helv", 9)
    p.text(40, 40, EMPLOYER, "helvb", 12)
    p.text(40, 54, f"RFC {f['emisor_rfc']}")
    p.text(360, 40, "Recibo electrónico de nómina", "helvb", 10)
    p.text(360, 54, f"UUID {f['uuid']}", size=7)
    left = [f"Colaborador: {WORKER}", f"RFC: {f['receptor_rfc']}", f"CURP: {f['receptor_curp']}",
            f"Régimen: {f['tipo_regimen']} - {REGIMEN.get(f['tipo_regimen'], '')}", f"Estado: {f['clave_ent_fed']}"]
    if f.get("fecha_inicio_rel_laboral"):
        left.append(f"Alta: {dmy(f['fecha_inicio_rel_laboral'])}")
    right = [f"Del {dmy(f['fecha_inicial_pago'])} al {dmy(f['fecha_final_pago'])}", f"Pagado el {dmy(f['fecha_pago'])}",
             f"Días: {d(f['num_dias_pagados'])}", f"Pago {PERIODICIDAD.get(f['periodicidad_pago'], '').lower()} ({f['periodicidad_pago']})",
             f"Nómina {'ordinaria' if f['tipo_nomina'] == 'O' else 'extraordinaria'}"]
    y = 80
    for i in range(max(len(left), len(right))):
        if i < len(left):
            p.text(40, y, left[i])
        if i < len(right):
            p.text(360, y, right[i])
        y += 13
    y += 12
    p.text(40, y, "Ingresos", "helvb", 10)
    p.text(320, y, "Descuentos", "helvb", 10)
    ls = [(f"{n[:28]} ({c})", v) for c, n, v in perceptions(f)]
    rs = [(f"{n[:28]} ({c})", v) for c, n, v in deductions(f)]
    for i in range(max(len(ls), len(rs))):
        y += 13
        if i < len(ls):
            p.text(40, y, ls[i][0])
            p.right(290, y, money(ls[i][1], False))
        if i < len(rs):
            p.text(320, y, rs[i][0])
            p.right(570, y, money(rs[i][1], False))
    y += 16
    p.text(40, y, "Suma de ingresos", "helvb")
    p.right(290, y, money(f["total_percepciones"], False), "helvb")
    p.text(320, y, "Suma de descuentos", "helvb")
    p.right(570, y, money(f["total_deducciones"], False), "helvb")
    if d(f["total_otros_pagos"]):
        y += 13
        p.text(40, y, "Subsidio para el empleo (otros pagos)")
        p.right(290, y, money(f["total_otros_pagos"], False))
    y += 24
    p.text(320, y, "Total pagado", "helvb", 11)
    p.right(570, y, money(f["neto"]), "helvb", 11)
    _signature_block(p, f, y + 30)
    return p


def gravado_exento(f: dict) -> Page:
    """Perceptions with taxed and exempt columns (as most payroll programs print them), Times,
    bordered tables, ISO dates, "Empleado" / "RFC del empleado" / "RFC de la empresa", QR code."""
    p = Page("times", 9)
    p.text(40, 40, EMPLOYER, "timesb", 12)
    p.text(40, 54, f"RFC de la empresa: {f['emisor_rfc']}    Lugar de expedición: 37000")
    p.qr(490, 26, 80, qr_url(f))
    rows = [
        (f"Empleado: {WORKER}", f"Folio fiscal: {f['uuid']}"),
        (f"RFC del empleado: {f['receptor_rfc']}", f"Fecha de pago: {f['fecha_pago']}"),
        (f"CURP: {f['receptor_curp']}", f"Periodo: {f['fecha_inicial_pago']} - {f['fecha_final_pago']}"),
        (f"Fecha de inicio de la relación laboral: {f.get('fecha_inicio_rel_laboral') or ''}", f"Días pagados: {d(f['num_dias_pagados'])}"),
        (f"Tipo de régimen: {f['tipo_regimen']}", f"Periodicidad de pago: {f['periodicidad_pago']}"),
        (f"Entidad federativa: {f['clave_ent_fed']}", f"Tipo de nómina: {f['tipo_nomina']}"),
    ]
    y = 74
    for a, b in rows:
        p.text(40, y, a)
        p.text(300, y, b)
        y += 12
    y += 10
    p.box(36, y - 10, 540, 14)
    for x, h in ((40, "Clave"), (80, "Percepción"), (360, "Gravado"), (440, "Exento"), (520, "Total")):
        p.text(x, y, h, "timesb")
    top = y - 10
    for c, n, v in perceptions(f):
        y += 13
        exempt = Decimal(0) if c == "001" else v
        p.text(40, y, c)
        p.text(80, y, n)
        p.right(400, y, money(v - exempt, False))
        p.right(480, y, money(exempt, False))
        p.right(570, y, money(v, False))
    y += 13
    p.text(80, y, "Total de percepciones", "timesb")
    p.right(570, y, money(f["total_percepciones"], False), "timesb")
    p.box(36, top, 540, y - top + 4)
    y += 24
    p.box(36, y - 10, 540, 14)
    for x, h in ((40, "Clave"), (80, "Deducción"), (520, "Importe")):
        p.text(x, y, h, "timesb")
    top = y - 10
    for c, n, v in deductions(f):
        y += 13
        p.text(40, y, c)
        p.text(80, y, n)
        p.right(570, y, money(v, False))
    y += 13
    p.text(80, y, "Total de deducciones", "timesb")
    p.right(570, y, money(f["total_deducciones"], False), "timesb")
    p.box(36, top, 540, y - top + 4)
    y += 24
    p.text(80, y, f"Otros pagos: {money(f['total_otros_pagos'], False)}")
    p.text(360, y, "Neto a pagar:", "timesb", 11)
    p.right(570, y, money(f["neto"]), "timesb", 11)
    _signature_block(p, f, y + 30)
    return p


Layout = Callable[[dict], Page]
TUNED: dict[str, Layout] = {"repositorio": repo, "trabajador-rfc": trabajador_rfc, "patron-empleado": patron_empleado}
HELD_OUT: dict[str, Layout] = {
    "dos-columnas-bordes": dos_columnas_bordes, "una-columna-times": una_columna_times, "sat-tabla": sat_tabla,
    "mayusculas-courier": mayusculas_courier, "colaborador-sin-bordes": colaborador_sin_bordes,
    "gravado-exento": gravado_exento,
}
WITH_QR = {"dos-columnas-bordes", "sat-tabla", "mayusculas-courier", "gravado-exento"}
