"""The constants of score-core/MODEL.md and the reviewed Spanish texts, read from the documents
themselves: the *checked* tables (curves, states, parameters), the calibration's name and the
snapshots of the recommendation, verdict and what-if texts. What the reference model
(reference_model.py) computes with; it shares nothing with the Rust crate but these documents.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, List, Tuple

REPO = Path(__file__).resolve().parents[2]
MODEL_MD = REPO / "score-core" / "MODEL.md"
TEXTS_SNAP = REPO / "score-core" / "tests" / "snapshots" / "snapshots__recommendation_texts.snap"
VERDICT_SNAP = REPO / "score-core" / "tests" / "snapshots" / "snapshots__verdict_texts.snap"
SIMULATION_SNAP = REPO / "score-core" / "tests" / "snapshots" / "snapshots__simulation_texts.snap"



# ---- MODEL.md tables ---------------------------------------------------------------------


def _num(cell: str) -> Decimal:
    return Decimal(cell.replace(",", "").strip())


def _rows(text: str, heading: str) -> List[List[str]]:
    """Rows of the first markdown table after the heading line that starts with `heading`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    rows: List[List[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header


_DOC = MODEL_MD.read_text(encoding="utf-8")
MODEL_VERSION = re.search(r"Score model v([0-9.]+)", _DOC).group(1)  # type: ignore[union-attr]
CALIBRATION = re.search(r"`calibracion` \*\*`([^`]+)`\*\*", _DOC).group(1)  # type: ignore[union-attr]
CURVES: Dict[str, List[Tuple[Decimal, Decimal]]] = {
    name: [(_num(r[0]), _num(r[1])) for r in _rows(_DOC, f"#### `{name}`")]
    for name in (
        "CURVA_INGRESO",
        "CURVA_ANTIGUEDAD_ASALARIADO",
        "CURVA_ANTIGUEDAD_INDEPENDIENTE",
        "CURVA_DEUDAS",
        "CURVA_AHORRO",
        "CURVA_AHORRO_COBERTURA",
        "CURVA_SALUD_FINANCIERA",
    )
}
P: Dict[str, Decimal] = {r[0].strip("`"): _num(r[1]) for r in _rows(_DOC, "## 11. Parameters")}
STATES: List[Dict[str, Any]] = [
    {"clave": r[0], "iso": r[1], "nombre": r[2], "factor": _num(r[3]), "precio_m2": _num(r[5])}
    for r in _rows(_DOC, "## 10. States")
]


def _texts(snapshot: Path) -> Dict[str, str]:
    lines = snapshot.read_text(encoding="utf-8").split("---")[-1].strip().splitlines()
    return {lines[i].strip(): lines[i + 1].strip() for i in range(0, len(lines) - 1, 2)}


TEXTS = _texts(TEXTS_SNAP)
VERDICT_TEXTS = _texts(VERDICT_SNAP)
SIMULATION_TEXTS = _texts(SIMULATION_SNAP)
# MODEL.md section 14: at most four simulations; twelve months when none reaches the next level.
MAX_SIMULACIONES = 4
MESES_SIMULADOS = 12
NIVELES = ["bajo", "medio", "alto", "excelente"]
# MODEL.md section 9.1, in the order the verdict lists them.
KNOCK_OUTS = ["INGRESO_MENOR_AL_MINIMO", "DEUDA_MAYOR_AL_LIMITE", "SIN_PLAZO_POR_EDAD", "SIN_CAPACIDAD_DE_PAGO",
              "SIN_PRODUCTO_DISPONIBLE"]
CONDITIONS = ["DEUDAS_NO_DECLARADAS", "ENGANCHE_Y_GASTOS_NO_CUBIERTOS", "PAGO_COMPROMETE_COSTO_DE_VIDA"]
# PRODUCTS.md section 2: each product's longest term, in years.
PLAZO_MAX = {"INFONAVIT": 30, "FOVISSSTE": 30, "HIPOTECA_BANCARIA": 20, "INFONAVIT_MAS_BANCO": 20, "UNAMOS_CREDITOS": 30, "COFINAVIT": 20}
