"""A typed program using platform_score; `mypy --strict` must accept it (see test_typing.py)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Dict, List, Union

import platform_score
from platform_score import Profile, ScoreError, ScoreReport

profile: Profile = {
    "estado": "CMX",
    "ingreso_mensual": 30000,
    "tipo_ingreso": "asalariado",
    "antiguedad_meses": 36,
    "ahorro": Decimal("100000.00"),
    "edad": 35,
}

report: ScoreReport = platform_score.score(profile)
points: int = report["score"]
value: float = report["capacidad_compra_estimada"]["valor_realista"]
codes: List[str] = [r["codigo"] for r in report["recomendaciones_detalle"]]
exact: Dict[str, Any] = platform_score.score(profile, decimals=True)

reports: List[ScoreReport] = platform_score.score_many([profile, profile])
mixed: List[Union[ScoreReport, ScoreError]] = platform_score.score_many([profile], errors="return")
for item in mixed:
    if isinstance(item, ScoreError):
        where: Union[int, None] = item.index
        code: str = item.code
    else:
        level: str = item["nivel"]

text: str = platform_score.score_json('{"estado": "JAL"}') if points > 2000 else ""
version: str = platform_score.MODEL_VERSION
