"""``ScoreError``, the one exception of platform_score: a ``ValueError`` carrying score-core's
stable ``code``, the profile ``field`` at fault, the ``index`` in a batch and every mistake of
the profile (``errors``). A plain Python class (it holds four attributes and nothing else); the
compiled module raises it for score-core's and score-docs' errors and re-exports it as
``_core.ScoreError``."""

from __future__ import annotations

from typing import Dict, List, Optional


class ScoreError(ValueError):
    """A profile could not be scored.

    ``code`` is the stable score-core code ("UNKNOWN_STATE", ...), ``field`` the profile field
    at fault (None when the whole profile is), ``index`` the position in a batch (else None):
    those of the first mistake. ``errors`` lists every mistake of the profile at once, each a
    dict ``{"codigo", "campo", "mensaje"}``, in score-core's stable order (unknown keys, then
    each field as read, then the ranges); the first is ``code`` and ``field``.
    """

    # Named as users import it (and pickle finds it): platform_score.ScoreError.
    __module__ = "platform_score"

    code: str
    field: Optional[str]
    index: Optional[int]
    errors: List[Dict[str, Optional[str]]]

    def __init__(
        self,
        message: str,
        code: Optional[str] = None,
        field: Optional[str] = None,
        index: Optional[int] = None,
        errors: Optional[List[Dict[str, Optional[str]]]] = None,
    ) -> None:
        super().__init__(message)
        self.code, self.field, self.index = code, field, index  # type: ignore[assignment]
        # An error of one mistake (a document's, a call's) lists it alone.
        self.errors = errors if errors is not None else [{"codigo": code, "campo": field, "mensaje": message}]
