"""``ScoreError``, the one exception of platform_score: a ``ValueError`` carrying score-core's
stable ``code``, the profile ``field`` at fault and the ``index`` in a batch. A plain Python
class (it holds three attributes and nothing else); the compiled module raises it for
score-core's and score-docs' errors and re-exports it as ``_core.ScoreError``."""

from __future__ import annotations

from typing import Optional


class ScoreError(ValueError):
    """A profile could not be scored.

    ``code`` is the stable score-core code ("UNKNOWN_STATE", ...), ``field`` the profile field
    at fault (None when the whole profile is), ``index`` the position in a batch (else None).
    """

    # Named as users import it (and pickle finds it): platform_score.ScoreError.
    __module__ = "platform_score"

    code: str
    field: Optional[str]
    index: Optional[int]

    def __init__(
        self, message: str, code: Optional[str] = None, field: Optional[str] = None, index: Optional[int] = None
    ) -> None:
        super().__init__(message)
        self.code, self.field, self.index = code, field, index  # type: ignore[assignment]
