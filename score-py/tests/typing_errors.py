"""Mistakes the stubs must catch: `mypy --strict` must reject each line marked E."""

from __future__ import annotations

import platform_score
from platform_score import Profile

bad_profile: Profile = {"estado": "CMX", "ingreso": 30000, "tipo_ingreso": "asalariado", "antiguedad_meses": 1}  # E
report = platform_score.score({"estado": "CMX"})
typo = report["scor"]  # E
wrong: str = report["score"]  # E
platform_score.score_many([], errors="ignore")  # E
lazy_as_dicts: list[platform_score.ScoreReport] = platform_score.score_many([], lazy=True)  # E
lazy_typo = platform_score.score_many([], lazy=True)[0].to_dict()["scor"]  # E
platform_score.score_many([], errors="return", lazy=True)[0].to_dict()  # E
