"""``score_many``: many profiles at once. The scoring is score-core's batch pipeline, run by
the compiled module (``_core._score_many``: profiles read and reports built on this thread,
scored on all cores with the GIL released); what is Python's is done here, around that one
call: the check of ``errors``, the cyclic garbage collector's pause while the reports are built
and the progress bar (``_progress.bar``), closed whatever ends the batch."""

from __future__ import annotations

import gc
from typing import Any, Iterable, List, Literal, Mapping, Optional, Union, overload

from . import _core, _progress
from ._core import Calibration, Report, ScoreError
from ._frame import _errors_flag
from ._types import ScoreReport


@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["raise"] = "raise",
    decimals: Literal[False] = False,
    lazy: Literal[False] = False,
    progress: bool = False,
    simulations: bool = True,
    calibration: Optional[Calibration] = None,
) -> List[ScoreReport]: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["return"],
    decimals: Literal[False] = False,
    lazy: Literal[False] = False,
    progress: bool = False,
    simulations: bool = True,
    calibration: Optional[Calibration] = None,
) -> List[Union[ScoreReport, ScoreError]]: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["raise"] = "raise",
    decimals: bool = False,
    lazy: Literal[True],
    progress: bool = False,
    simulations: bool = True,
    calibration: Optional[Calibration] = None,
) -> List[Report]: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["return"],
    decimals: bool = False,
    lazy: Literal[True],
    progress: bool = False,
    simulations: bool = True,
    calibration: Optional[Calibration] = None,
) -> List[Union[Report, ScoreError]]: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["raise", "return"] = "raise",
    decimals: bool = False,
    lazy: bool = False,
    progress: bool = False,
    simulations: bool = True,
    calibration: Optional[Calibration] = None,
) -> List[Any]: ...
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["raise", "return"] = "raise",
    decimals: bool = False,
    lazy: bool = False,
    progress: bool = False,
    simulations: bool = True,
    calibration: Optional[Calibration] = None,
) -> List[Any]:
    """The reports of ``profiles`` (any iterable of mappings), in order: dicts as ``score()``
    returns them, or with ``lazy=True`` one read-only ``Report`` per profile.

    ``errors="raise"`` raises ``ScoreError`` for the first bad profile (``.index`` is its
    position); ``errors="return"`` puts each bad profile's ``ScoreError`` in its place.
    ``decimals=True``: amounts as ``decimal.Decimal``. ``progress=True``: a tqdm progress bar
    (total: ``len(profiles)`` when there is one). ``simulations=False``: each report's
    ``simulaciones`` is empty (they are not computed). ``calibration``: a ``Calibration``
    whose ``id`` each report's ``calibracion`` carries (the embedded one when None). The cyclic GC is paused while the batch
    is built (the reports hold no reference cycles) and restored afterwards.
    """
    raise_errors = not _errors_flag(errors)
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        items = iter(profiles)
        bar = _progress.bar(profiles) if progress else None
        try:
            return _core._score_many(
                items, raise_errors, decimals, lazy, simulations, None if bar is None else bar.update, calibration
            )
        finally:
            if bar is not None:
                bar.close()
    finally:
        if paused:
            gc.enable()
