"""The what-if block (`simulaciones`, MODEL.md section 14) through Python: every simulation is
the report of the changed profile, and a batch can turn them off without changing anything
else."""

from __future__ import annotations

from typing import Any, Dict, List

import platform_score
from conftest import assert_exact, load_cases

CASES = [c for c in load_cases() if "expected" in c and "input" in c]


def changed(profile: Dict[str, Any], simulation: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(profile)
    for cambio in simulation["cambios"]:
        # A co-borrower's field is named by its path (coacreditado.deudas_mensuales); a change
        # to a co-borrower the profile does not have adds one (SUMAR_COACREDITADO).
        *parents, key = cambio["campo"].split(".")
        target = out
        for parent in parents:
            target[parent] = dict(target.get(parent) or {})
            target = target[parent]
        target[key] = cambio["despues"]
    return out


def test_each_simulation_is_the_report_of_the_changed_profile() -> None:
    seen = set()
    for case in CASES:
        report = platform_score.score(case["input"])
        for s in report["simulaciones"]:
            seen.add(s["accion"])
            again = platform_score.score(changed(case["input"], s))
            assert (s["score"], s["nivel"], s["credito_max"]) == (
                again["score"],
                again["nivel"],
                again["capacidad_compra_estimada"]["credito_max"],
            ), (case["id"], s["accion"])
            assert s["score"] > report["score"] or s["credito_max"] > report["credito_max"], (case["id"], s)
    assert seen == {"AHORRAR_ENGANCHE", "PAGAR_DEUDAS", "DECLARAR_DEUDAS", "SUMAR_ANTIGUEDAD", "SUMAR_COACREDITADO"}, seen


def test_a_batch_can_turn_simulations_off() -> None:
    profiles = [c["input"] for c in CASES]
    full = platform_score.score_many(profiles)
    off: List[Dict[str, Any]] = platform_score.score_many(profiles, simulations=False)
    lazy_off = platform_score.score_many(profiles, simulations=False, lazy=True)
    assert any(r["simulaciones"] for r in full)
    for whole, without, lazy in zip(full, off, lazy_off):
        assert without["simulaciones"] == [] and lazy["simulaciones"] == []
        assert_exact(without, {**whole, "simulaciones": []})
        assert lazy == without
