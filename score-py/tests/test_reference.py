"""Differential test: score-core (through platform_score) against the independent pure-Python
reference of MODEL.md in benches/python/reference_model.py, on 10,000 random valid profiles."""

from __future__ import annotations

import json
import random
import sys
from decimal import Decimal
from typing import Any, Dict, List

import pytest

import platform_score
from conftest import REPO, load_cases

sys.path.insert(0, str(REPO / "benches" / "python"))
import reference_model  # noqa: E402

STATE_FORMS = [s["iso"] for s in reference_model.STATES] + [s["clave"] for s in reference_model.STATES] + [
    "Nuevo León", "nuevo leon", "CDMX", "Estado de México", "MX-JAL", "yucatán", "Querétaro",
]
TYPES = ["asalariado", "independiente", "mixto", "pensionado", "Mixto", " PENSIONADO "]


def amount(rng: random.Random, high: int) -> Any:
    kind = rng.random()
    if kind < 0.1:
        return 0
    if kind < 0.5:
        return rng.randint(1, high)
    if kind < 0.6:
        return Decimal(rng.randint(1, high * 100)) / 100
    return rng.randint(1, high * 100) / 100


def random_profile(rng: random.Random) -> Dict[str, Any]:
    p: Dict[str, Any] = {
        "estado": rng.choice(STATE_FORMS),
        "ingreso_mensual": amount(rng, rng.choice([20_000, 200_000, 2_000_000])) or 0.01,
        "tipo_ingreso": rng.choice(TYPES),
        "antiguedad_meses": rng.choice([0, 3, 6, 12, 24, 36, 60, 360, 720, rng.randint(0, 720)]),
    }
    if rng.random() < 0.6:
        p["deudas_mensuales"] = amount(rng, rng.choice([1_000, 20_000, 200_000]))
    if rng.random() < 0.8:
        p["ahorro"] = amount(rng, rng.choice([50_000, 1_000_000, 20_000_000]))
    if rng.random() < 0.7:
        p["edad"] = rng.choice([18, 35, 55, 56, 70, 74, 75, 100, rng.randint(18, 100)])
    if rng.random() < 0.5:
        p["personas_hogar"] = rng.randint(1, 20)
    if rng.random() < 0.3:
        p["subcuenta_fondo"] = amount(rng, 2_000_000)
    if rng.random() < 0.05:
        p["edad"] = None
    if rng.random() < 0.3:
        p["institucion"] = rng.choice(["INFONAVIT", "FOVISSSTE", "NINGUNA", "fovissste", " Ninguna ", None])
    if rng.random() < 0.3:
        co = random_coborrower(rng, p)
        if co is not None:
            p["coacreditado"] = co
    return p


def exact(amount: Any) -> Decimal:
    """The decimal a host number is read as (a float's shortest round trip)."""
    return Decimal(repr(amount)) if isinstance(amount, float) else Decimal(amount)


def share(rng: random.Random, total: Any) -> Any:
    """A part of ``total`` to the centavo, as a float or a Decimal."""
    part = (exact(total) * rng.randint(1, 99) / 100).quantize(Decimal("0.01"))
    return float(part) if rng.random() < 0.5 else part


def random_coborrower(rng: random.Random, p: Dict[str, Any]) -> Any:
    """A co-borrower earning part of the household's income (and maybe paying part of its
    declared debts); None when the household earns too little to split."""
    ingreso = share(rng, p["ingreso_mensual"])
    if not 0 < exact(ingreso) < exact(p["ingreso_mensual"]):
        return None
    co: Dict[str, Any] = {
        "ingreso_mensual": ingreso,
        "tipo_ingreso": rng.choice(TYPES),
        "antiguedad_meses": rng.choice([0, 6, 12, 24, 60, rng.randint(0, 720)]),
    }
    if rng.random() < 0.6:
        co["edad"] = rng.choice([18, 30, 45, 60, 74, rng.randint(18, 100)])
    deudas = p.get("deudas_mensuales")
    if deudas is not None and rng.random() < 0.5:
        co["deudas_mensuales"] = share(rng, deudas)
    if rng.random() < 0.3:
        co["subcuenta_fondo"] = amount(rng, 500_000)
    if rng.random() < 0.4:
        co["institucion"] = rng.choice(["INFONAVIT", "FOVISSSTE", "NINGUNA", " infonavit "])
    return co


def as_decimals(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: as_decimals(v) for k, v in x.items() if k != "disclaimer"}
    if isinstance(x, list):
        return [as_decimals(v) for v in x]
    if isinstance(x, float):
        return Decimal(repr(x))
    if isinstance(x, int) and not isinstance(x, bool):
        return Decimal(x)
    return x


def differences(a: Any, b: Any, path: str = "$") -> List[str]:
    if isinstance(b, dict) and isinstance(a, dict):
        if list(a) != list(b):
            return [f"{path}: keys {list(a)} != {list(b)}"]
        return [d for k in b for d in differences(a[k], b[k], f"{path}.{k}")]
    if isinstance(b, list) and isinstance(a, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: rust {a!r} != reference {b!r}"]


def profile_of(case: Dict[str, Any]) -> Any:
    """A case's profile: its value, or its text read with every number's digits as written."""
    if "input" in case:
        return case["input"]
    return json.loads(case["input_text"], parse_float=Decimal)


def test_reference_reproduces_every_fixture() -> None:
    for case in load_cases():
        if "expected" in case:
            assert differences(as_decimals(case["expected"]), as_decimals(reference_model.score(profile_of(case)))) == [], case["id"]


def test_ten_thousand_random_profiles_agree_with_the_reference() -> None:
    rng = random.Random(20261122)
    profiles = [random_profile(rng) for _ in range(10_000)]
    # Simulations are compared on the first 2,000: each one rescores a changed profile with the
    # reference's credit products, whose independent CAT bisection costs milliseconds.
    with_simulations = 2_000
    reports = platform_score.score_many(profiles[:with_simulations]) + platform_score.score_many(
        profiles[with_simulations:], simulations=False
    )
    exact = platform_score.score_many(profiles[:with_simulations], decimals=True) + platform_score.score_many(
        profiles[with_simulations:], decimals=True, simulations=False
    )
    failures = []
    for i, (p, report, dec) in enumerate(zip(profiles, reports, exact)):
        expected = as_decimals(reference_model.score(p, simulations=i < with_simulations))
        diff = differences(as_decimals(report), expected) + differences(as_decimals(dec), expected)
        assert isinstance(report["disclaimer"], str) and report["disclaimer"]
        if diff:
            failures.append((p, diff[:3]))
    assert not failures, f"{len(failures)} of {len(profiles)} profiles differ; first: {failures[:3]}"


@pytest.mark.parametrize(
    "case", [c for c in load_cases() if "error" in c and c["error"]["code"] != "INVALID_JSON"], ids=lambda c: c["id"]
)
def test_reference_rejects_the_error_fixtures_with_the_same_code(case: Dict[str, Any]) -> None:
    with pytest.raises(ValueError) as info:
        reference_model.score(profile_of(case))
    assert getattr(info.value, "code", None) == case["error"]["code"]


def to_json(value: Any) -> str:
    """JSON text with each Decimal written as its own digits (``json.dumps`` cannot)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Decimal):
        return format(value, "f")
    return json.dumps(value)


def with_long_digits(rng: random.Random, value: Any) -> Any:
    """An amount to the centavo with 8 to 16 more digits after it (20 to 29 significant
    digits in all): more than a double holds."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)) or exact(value) == 0:
        return value
    tail = "".join(rng.choice("0123456789") for _ in range(rng.randint(8, 16)))
    return Decimal(format(exact(value).quantize(Decimal("0.01")), "f") + tail)


AMOUNTS = ["ingreso_mensual", "deudas_mensuales", "ahorro", "subcuenta_fondo"]


def test_json_text_agrees_with_the_reference_on_the_digits_written() -> None:
    """score_json reads a text's numbers from their digits (MODEL.md section 1): the reference
    reads the same text with Python's ``decimal``, and the reports (or errors) agree."""
    rng = random.Random(20261126)
    texts = [
        # As written, the co-borrower earns less than the household (its double is 30,000)...
        '{"estado":"JAL","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":60,'
        '"coacreditado":{"ingreso_mensual":29999.99999999999999999,"tipo_ingreso":"mixto","antiguedad_meses":12}}',
        # ...and these debts are below a centavo (their double is 0.01).
        '{"estado":"JAL","ingreso_mensual":30000,"tipo_ingreso":"asalariado","antiguedad_meses":60,'
        '"deudas_mensuales":0.0099999999999999999999}',
    ]
    for _ in range(300):
        p = random_profile(rng)
        for key in AMOUNTS:
            p[key] = with_long_digits(rng, p.get(key))
        if isinstance(p.get("coacreditado"), dict):
            for key in AMOUNTS:
                p["coacreditado"][key] = with_long_digits(rng, p["coacreditado"].get(key))
        texts.append(to_json(p))  # an absent amount is written as null
    failures = []
    for text in texts:
        profile = json.loads(text, parse_float=Decimal)
        try:
            expected: Any = as_decimals(reference_model.score(profile))
        except reference_model.ReferenceError as e:
            expected = e.code
        try:
            got: Any = as_decimals(json.loads(platform_score.score_json(text), parse_float=Decimal))
        except ValueError as e:
            got = getattr(e, "code", str(e))
        diff = differences(got, expected) if isinstance(expected, dict) else ([] if got == expected else [f"{got} != {expected}"])
        if diff:
            failures.append((text, diff[:3]))
    assert not failures, f"{len(failures)} of {len(texts)} texts differ; first: {failures[:2]}"
