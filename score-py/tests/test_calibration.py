"""platform_score.Calibration: loaded, written back, refused with CALIBRATION_INVALID, and passed
to every scoring function as ``calibration=``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

import platform_score
from platform_score import Calibration, ScoreError
from test_api import BASE

ROOT = Path(__file__).resolve().parents[2]
EMBEDDED = (ROOT / "score-core" / "calibration" / "mx-2026.toml").read_text(encoding="utf-8")
INVALID = json.loads((ROOT / "fixtures" / "calibraciones" / "invalidas.json").read_text(encoding="utf-8"))
# The embedded calibration's id, read from the package: a new calibration's id keeps the tests.
EMBEDDED_ID = Calibration.default().id


def renamed_text(new_id: str) -> str:
    """The embedded document under another id; fails when it has no line with the embedded id
    rather than keep it."""
    id_line = f'id = "{EMBEDDED_ID}"'
    text = EMBEDDED.replace(id_line, f'id = "{new_id}"', 1)
    assert text != EMBEDDED, f"the embedded calibration has no line {id_line}"
    return text


def renamed(new_id: str) -> Calibration:
    return Calibration.from_toml(renamed_text(new_id))


def test_the_default_is_the_embedded_file_and_reads_back() -> None:
    default = Calibration.default()
    assert default.id == platform_score.score(BASE)["calibracion"]
    assert default.vigente_desde == "2026-02-01"
    assert Calibration.from_toml(EMBEDDED) == default
    assert Calibration.from_toml(default.to_toml()) == default
    assert "Calibration(id=" in repr(default)


def test_from_file(tmp_path: Path) -> None:
    path = tmp_path / "banco.toml"
    path.write_text(renamed_text("banco-2026"), encoding="utf-8")
    assert Calibration.from_file(path).id == "banco-2026"
    assert Calibration.from_file(str(path)).id == "banco-2026"
    with pytest.raises(OSError):
        Calibration.from_file(tmp_path / "missing.toml")


@pytest.mark.parametrize("case", INVALID["casos"], ids=lambda c: c["description"])
def test_every_invalid_fixture_raises_calibration_invalid(case: Dict[str, Any]) -> None:
    assert case["reemplazar"] in EMBEDDED
    with pytest.raises(ScoreError) as info:
        Calibration.from_toml(EMBEDDED.replace(case["reemplazar"], case["por"], 1))
    assert info.value.code == "CALIBRATION_INVALID" == case["error"]["code"]
    assert info.value.field == case["error"]["field"]
    assert "CALIBRATION_INVALID" in platform_score.ERROR_CODES


def test_every_scoring_function_takes_the_calibration() -> None:
    other = renamed("banco-ejemplo-2026.03")
    plain = platform_score.score(BASE)
    report = platform_score.score(BASE, calibration=other)
    assert report["calibracion"] == "banco-ejemplo-2026.03"
    assert {**report, "calibracion": plain["calibracion"]} == plain
    assert platform_score.score(BASE, decimals=True, calibration=other)["calibracion"] == "banco-ejemplo-2026.03"
    text = platform_score.score_json(json.dumps(BASE), calibration=other)
    assert json.loads(text)["calibracion"] == "banco-ejemplo-2026.03"
    plain_text = platform_score.score_json(json.dumps(BASE))
    assert EMBEDDED_ID in plain_text
    assert text == plain_text.replace(EMBEDDED_ID, "banco-ejemplo-2026.03")
    many = platform_score.score_many([BASE, BASE], calibration=other)
    assert [r["calibracion"] for r in many] == ["banco-ejemplo-2026.03"] * 2
    lazy = platform_score.score_many([BASE], lazy=True, calibration=other)
    assert lazy[0]["calibracion"] == "banco-ejemplo-2026.03"
    assert platform_score.score_many([BASE])[0]["calibracion"] == EMBEDDED_ID


def test_score_frame_takes_the_calibration() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame([BASE, BASE])
    plain = platform_score.score_frame(frame)
    calibrated = platform_score.score_frame(frame, calibration=renamed("banco-2026"))
    assert calibrated.equals(plain)
    with pytest.raises(TypeError):
        platform_score.score_frame(frame, calibration="mx-2026")  # type: ignore[arg-type]


BBVA = Calibration.from_file(ROOT / "fixtures" / "simuladores" / "bbva-hipoteca-fija.toml")
PROFILES = [BASE, {**BASE, "ingreso_mensual": 310_333, "ahorro": 2_000_000}, {**BASE, "ingreso_mensual": 18_000}]


def test_batches_score_with_the_calibrations_figures() -> None:
    # A bank's calibration (its own rate and insurances) changes the bank's offer; every batch
    # path gives what scoring each profile alone under it gives, not the embedded figures.
    alone = [platform_score.score(p, calibration=BBVA) for p in PROFILES]
    assert alone != [{**platform_score.score(p), "calibracion": BBVA.id} for p in PROFILES]
    assert platform_score.score_many(PROFILES, calibration=BBVA) == alone
    assert [r.to_dict() for r in platform_score.score_many(PROFILES, lazy=True, calibration=BBVA)] == alone
    many = platform_score.score_many(PROFILES * 5500, calibration=BBVA)  # past one block: the pipeline's threads
    assert many == alone * 5500


def test_score_frame_scores_with_the_calibrations_figures() -> None:
    pd = pytest.importorskip("pandas")
    from test_frame import flatten

    frame = pd.DataFrame(PROFILES)
    calibrated = platform_score.score_frame(frame, calibration=BBVA)
    assert not calibrated.equals(platform_score.score_frame(frame))
    for got, profile in zip(calibrated.to_dict("records"), PROFILES):
        expected = flatten(platform_score.score(profile, calibration=BBVA))
        assert {k: got[k] for k in expected} == expected


TWO_BANKS = json.loads((ROOT / "fixtures" / "calibraciones" / "dos-bancos.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", TWO_BANKS["casos"], ids=lambda c: c["description"])
def test_two_bank_products_recommend_the_one_that_buys_the_most_house(case: Dict[str, Any]) -> None:
    assert case["reemplazar"] in EMBEDDED
    two = Calibration.from_toml(EMBEDDED.replace(case["reemplazar"], case["por"], 1))
    assert Calibration.from_toml(two.to_toml()) == two
    report = platform_score.score(case["perfil"], calibration=two)
    assert [o["producto"] for o in report["productos"]] == case["productos"]
    assert report["producto_recomendado"] == case["producto_recomendado"]
    best = max((o for o in report["productos"] if o["elegible"]), key=lambda o: o["valor_vivienda_max"])
    assert best["producto"] == case["producto_recomendado"]
    # Every path agrees: the JSON text, batches (lazy too) and past one block of the pipeline.
    assert json.loads(platform_score.score_json(json.dumps(case["perfil"]), calibration=two)) == report
    assert platform_score.score_many([case["perfil"]] * 3, calibration=two) == [report] * 3
    assert platform_score.score_many([case["perfil"]], lazy=True, calibration=two)[0].to_dict() == report
    assert platform_score.score_many([case["perfil"]] * 5000, calibration=two)[-1] == report
