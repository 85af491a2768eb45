# mypy: disable-error-code="import-untyped"
"""Progress bars of long batches (`score_many(..., progress=True)` and the command), with tqdm:
a text bar on a terminal, a widget in a notebook (`tqdm.auto`)."""

from __future__ import annotations

from typing import Any, Optional


def bar(items: Any = None, *, total: Optional[int] = None, unit: str = "perfiles", **options: Any) -> Any:
    """A tqdm bar over `total` units (`len(items)` when it has one; else no total)."""
    from tqdm.auto import tqdm

    if total is None and items is not None:
        try:
            total = len(items)
        except TypeError:
            total = None
    options.setdefault("desc", "platform-score")
    return tqdm(total=total, unit=unit, unit_scale=True, dynamic_ncols=True, **options)
