"""Monthly bank statements of the three described banks in layouts held out of the reader's
tuning (issue 43, part 5), for benches/ocr/layouts.py. The tuned layouts are the ones the bank
descriptions (score-docs/layouts/*.json) were written for: fixtures/documents/printer.py's
`statement`. These were written after the reader, as banks redesign their statements, and the
reader was not tuned on them: the summary in two columns, the movements in a bordered table in
Helvetica, long descriptions wrapped onto a second line, a page header and footer. Each gives
the same truth as `statement` (the figures the statement was generated with).
"""

from __future__ import annotations

import calendar
from decimal import Decimal
from typing import Callable

from printer import amount, bank_date, statement  # noqa: E402  (fixtures/documents, on sys.path)
from drawing import Page

Movements = list[tuple[int, str, Decimal]]


def _figures(layout: str, year: int, month: int, opening: Decimal, movements: Movements) -> dict:
    return statement(layout, year, month, opening, movements)[1]


def altiplano_dos_columnas(year: int, month: int, opening: Decimal, movements: Movements) -> tuple[Page, dict]:
    """Banco Altiplano with its summary in two columns and the deposit column before the
    withdrawal column, Helvetica."""
    t = _figures("altiplano", year, month, opening, movements)
    last = calendar.monthrange(year, month)[1]
    p = Page("helv", 8)
    p.text(40, 40, "BANCO ALTIPLANO, S.A.", "helvb", 12)
    p.text(400, 40, "Estado de cuenta", "helvb", 10)
    p.text(40, 56, "Titular: MARIA LOPEZ GARCIA")
    p.text(320, 56, "Número de cuenta: ****4821")
    p.text(40, 68, f"Periodo del {bank_date('altiplano', year, month, 1)} al {bank_date('altiplano', year, month, last)}")
    p.text(40, 86, f"Saldo anterior: ${amount(opening)}")
    p.text(320, 86, f"Total de depósitos: ${amount(t['depositos'])}")
    p.text(40, 98, f"Total de retiros: ${amount(t['retiros'])}")
    p.text(320, 98, f"Saldo al corte: ${amount(t['saldo_final'])}")
    y = 122
    p.text(40, y, "DETALLE DE MOVIMIENTOS", "helvb")
    y += 14
    for x, h in ((40, "Fecha"), (100, "Concepto"), (380, "Depósitos"), (460, "Retiros"), (540, "Saldo")):
        p.text(x, y, h, "helvb")
    balance = opening
    for day, what, a in movements:
        balance += a
        y += 12
        p.text(40, y, bank_date("altiplano", year, month, day))
        p.text(100, y, what)
        p.right(420 if a > 0 else 500, y, amount(abs(a)))
        p.right(575, y, amount(balance))
    y += 16
    p.text(40, y, f"Saldo al corte: ${amount(t['saldo_final'])}", "helvb")
    p.text(40, 760, "Página 1 de 1", size=7)
    return p, t


def pacifico_tabla(year: int, month: int, opening: Decimal, movements: Movements) -> tuple[Page, dict]:
    """Banco del Pacífico Mexicano with bordered, shaded tables, Times."""
    t = _figures("pacifico", year, month, opening, movements)
    last = calendar.monthrange(year, month)[1]
    p = Page("times", 9)
    p.text(40, 40, "Banco del Pacífico Mexicano", "timesb", 13)
    p.text(40, 56, "Nombre del cliente: MARIA LOPEZ GARCIA        Cuenta CLABE: 0123 **** **** 4821")
    p.text(40, 70, f"Periodo: {bank_date('pacifico', year, month, 1)} al {bank_date('pacifico', year, month, last)}")
    y = 88
    p.box(36, y - 10, 540, 56)
    for label, value in (("Saldo inicial del periodo", opening), ("Abonos del periodo", t["depositos"]),
                         ("Cargos del periodo", t["retiros"]), ("Saldo final del periodo", t["saldo_final"])):
        p.text(44, y, label)
        p.right(560, y, amount(value))
        y += 12
    y += 14
    p.text(40, y, "MOVIMIENTOS DEL PERIODO", "timesb", 10)
    y += 14
    p.shade(36, y - 9, 540, 12)
    for x, h in ((40, "Fecha"), (120, "Descripción"), (400, "Importe"), (500, "Saldo")):
        p.text(x, y, h, "timesb")
    top = y - 9
    balance = opening
    for day, what, a in movements:
        balance += a
        y += 13
        p.line(36, y - 9, 576, y - 9, 0.3)
        p.text(40, y, bank_date("pacifico", year, month, day))
        p.text(120, y, what)
        p.right(450, y, amount(abs(a)))
        p.right(570, y, amount(balance))
    p.box(36, top, 540, y - top + 4)
    y += 20
    p.text(40, y, f"Total de movimientos: {len(movements)}")
    return p, t


def sierra_conceptos_largos(year: int, month: int, opening: Decimal, movements: Movements) -> tuple[Page, dict]:
    """Caja Sierra Madre with each movement's reference on a second line, Courier."""
    t = _figures("sierra", year, month, opening, movements)
    last = calendar.monthrange(year, month)[1]
    p = Page("cour", 8)
    rows = ["CAJA SIERRA MADRE S.C. de A.P.", "Socio: MARIA LOPEZ GARCIA     Cuenta: 77-4821",
            f"Estado de cuenta del {bank_date('sierra', year, month, 1)} al {bank_date('sierra', year, month, last)}",
            f"Saldo de apertura {amount(opening)}", "", "OPERACIONES", "Fecha      Referencia                         Importe        Saldo"]
    balance = opening
    for i, (day, what, a) in enumerate(movements):
        balance += a
        rows.append(f"{bank_date('sierra', year, month, day)} {what[:30]:<30} {amount(a):>12} {amount(balance):>12}")
        rows.append(f"           Folio {year}{month:02}{day:02}{i:03}  Sucursal 014")
    rows += [f"Suma de entradas {amount(t['depositos'])}", f"Suma de salidas {amount(t['retiros'])}",
             f"Saldo de cierre {amount(t['saldo_final'])}"]
    for i, r in enumerate(rows):
        p.text(36, 40 + i * 11, r)
    return p, t


StatementLayout = Callable[[int, int, Decimal, Movements], tuple[Page, dict]]
HELD_OUT_STATEMENTS: dict[str, StatementLayout] = {
    "altiplano-dos-columnas": altiplano_dos_columnas, "pacifico-tabla": pacifico_tabla,
    "sierra-conceptos-largos": sierra_conceptos_largos,
}
