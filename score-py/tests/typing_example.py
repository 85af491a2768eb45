"""A typed program using platform_score; `mypy --strict` must accept it (see test_typing.py)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Dict, List, Mapping, Union

import platform_score
from platform_score import Profile, Report, ScoreError, ScoreReport

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

lazy: List[Report] = platform_score.score_many([profile], lazy=True)
as_mapping: Mapping[str, Any] = lazy[0]
as_dict: ScoreReport = lazy[0].to_dict()
lazy_points: int = as_dict["score"]
lazy_exact: List[Report] = platform_score.score_many([profile], decimals=True, lazy=True)
lazy_mixed: List[Union[Report, ScoreError]] = platform_score.score_many([profile], errors="return", lazy=True)
for lazy_item in lazy_mixed:
    if not isinstance(lazy_item, ScoreError):
        lazy_level: Any = lazy_item["nivel"]
        lazy_keys: List[str] = list(lazy_item.keys())
        same: bool = lazy_item == report

text: str = platform_score.score_json('{"estado": "JAL"}') if points > 2000 else ""
version: str = platform_score.MODEL_VERSION
