"""Every case of fixtures/ through score(), score_json() and score_many(), compared exactly."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Dict, List

import pytest

import platform_score
from conftest import assert_exact, load_cases

CASES = load_cases()
# The valid cases given as a value (a text case is scored by score_json, in test_score).
VALID = [c for c in CASES if "expected" in c and "input" in c]
OBJECT_CASES = [c for c in CASES if "input" in c]


def test_the_fixtures_hold_valid_and_error_cases() -> None:
    assert len(VALID) >= 50
    assert len([c for c in CASES if "error" in c]) >= 20
    assert any("input_text" in c for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_score(case: Dict[str, Any]) -> None:
    if "input_text" in case:
        call = lambda: json.loads(platform_score.score_json(case["input_text"]))  # noqa: E731
    else:
        call = lambda: platform_score.score(case["input"])  # noqa: E731
    if "expected" in case:
        assert_exact(call(), case["expected"])
    else:
        with pytest.raises(platform_score.ScoreError) as info:
            call()
        assert info.value.code == case["error"]["code"]
        assert info.value.field == case["error"]["field"]
        # Every mistake at once, as score-core lists them (the four-mistake case too).
        assert info.value.errors == case["error"]["errores"]
        assert info.value.index is None
        assert isinstance(info.value, ValueError)
        if info.value.field is not None:
            assert f'"{info.value.field}"' in str(info.value), "the message names the field"


@pytest.mark.parametrize("case", OBJECT_CASES, ids=[c["id"] for c in OBJECT_CASES])
def test_score_json_agrees_with_score(case: Dict[str, Any]) -> None:
    text = json.dumps(case["input"])
    if "expected" in case:
        assert_exact(json.loads(platform_score.score_json(text)), case["expected"])
    else:
        with pytest.raises(platform_score.ScoreError) as info:
            platform_score.score_json(text)
        assert (info.value.code, info.value.field) == (case["error"]["code"], case["error"]["field"])
        assert info.value.errors == case["error"]["errores"]


@pytest.mark.parametrize("case", VALID, ids=[c["id"] for c in VALID])
def test_decimals_option_gives_the_same_numbers_as_decimal(case: Dict[str, Any]) -> None:
    report = platform_score.score(case["input"], decimals=True)

    def check(actual: Any, expected: Any) -> None:
        if isinstance(expected, dict):
            for key in expected:
                check(actual[key], expected[key])
        elif isinstance(expected, list):
            for a, e in zip(actual, expected):
                check(a, e)
        elif isinstance(expected, float) or (isinstance(expected, int) and isinstance(actual, Decimal)):
            assert isinstance(actual, Decimal)
            assert actual == Decimal(repr(expected)), (actual, expected)
        else:
            assert actual == expected and type(actual) is type(expected)

    check(report, case["expected"])


def test_score_many_returns_every_valid_case_in_order() -> None:
    reports = platform_score.score_many(c["input"] for c in VALID)  # any iterable
    assert len(reports) == len(VALID)
    for report, case in zip(reports, VALID):
        assert_exact(report, case["expected"])


def test_score_many_in_parallel_blocks_matches_score() -> None:
    # Large enough to be split over the cores and across blocks.
    profiles: List[Any] = [c["input"] for c in VALID] * 700
    reports = platform_score.score_many(profiles)
    assert len(reports) == len(profiles)
    for i in range(0, len(profiles), 97):
        assert_exact(reports[i], VALID[i % len(VALID)]["expected"])
    assert reports[-1] == VALID[(len(profiles) - 1) % len(VALID)]["expected"]


@pytest.mark.parametrize("lazy", [False, True])
def test_score_many_returns_errors_in_place(lazy: bool) -> None:
    results = platform_score.score_many([c["input"] for c in OBJECT_CASES], errors="return", lazy=lazy)
    assert len(results) == len(OBJECT_CASES)
    for i, (result, case) in enumerate(zip(results, OBJECT_CASES)):
        if "expected" in case:
            assert_exact(result.to_dict() if lazy else result, case["expected"])
        else:
            assert isinstance(result, platform_score.ScoreError)
            assert (result.code, result.field, result.index) == (case["error"]["code"], case["error"]["field"], i)
            assert str(result).startswith(f"profiles[{i}]: {result.code}: ")


def test_score_many_raises_for_the_first_bad_profile_with_its_index() -> None:
    first_bad = next(i for i, c in enumerate(OBJECT_CASES) if "error" in c)
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_many([c["input"] for c in OBJECT_CASES])
    case = OBJECT_CASES[first_bad]
    assert (info.value.code, info.value.field, info.value.index) == (case["error"]["code"], case["error"]["field"], first_bad)


def test_score_many_reports_errors_across_blocks() -> None:
    # Long enough for several blocks of the batch pipeline, with errors in each block.
    repeat = 40_000 // len(OBJECT_CASES) + 1
    profiles: List[Any] = [c["input"] for c in OBJECT_CASES] * repeat
    results = platform_score.score_many(profiles, errors="return")
    assert len(results) == len(profiles)
    for i in range(0, len(profiles), 13):
        case = OBJECT_CASES[i % len(OBJECT_CASES)]
        if "expected" in case:
            assert_exact(results[i], case["expected"])
        else:
            result = results[i]
            assert isinstance(result, platform_score.ScoreError)
            assert (result.code, result.field, result.index) == (case["error"]["code"], case["error"]["field"], i)
    # The first bad profile may sit in a later block: its index is still its position.
    bad = next(c["input"] for c in OBJECT_CASES if "error" in c)
    valid = [c["input"] for c in VALID]
    batch = valid * (30_000 // len(valid) + 1) + [bad] + valid
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_many(iter(batch))
    assert info.value.index == batch.index(bad)


def test_score_many_rejects_an_unknown_errors_mode() -> None:
    with pytest.raises(ValueError, match="errors must be"):
        platform_score.score_many([], errors="ignore")  # type: ignore[call-overload]
