"""The compiled extension (Rust, pyo3). Import from ``platform_score`` instead."""

from typing import Any, Dict, Iterable, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

from ._types import ScoreReport

__all__ = [
    "score",
    "score_json",
    "score_many",
    "_score_columns",
    "ScoreError",
    "__version__",
    "CORE_VERSION",
    "MODEL_VERSION",
    "PROFILE_FIELDS",
    "ERROR_CODES",
]

__version__: str
CORE_VERSION: str
MODEL_VERSION: str
ERROR_CODES: Tuple[str, ...]
PROFILE_FIELDS: Tuple[str, ...]

class ScoreError(ValueError):
    """A profile could not be scored.

    ``code`` is the stable score-core code ("UNKNOWN_STATE", ...), ``field`` the profile field
    at fault (None when the whole profile is), ``index`` the position in a batch (else None).
    """

    code: str
    field: Optional[str]
    index: Optional[int]

@overload
def score(profile: Mapping[str, Any], *, decimals: Literal[False] = False) -> ScoreReport: ...
@overload
def score(profile: Mapping[str, Any], *, decimals: Literal[True]) -> Dict[str, Any]: ...
@overload
def score(profile: Mapping[str, Any], *, decimals: bool) -> Union[ScoreReport, Dict[str, Any]]: ...
def score_json(text: str) -> str: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["raise"] = "raise",
    decimals: Literal[False] = False,
) -> List[ScoreReport]: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["return"],
    decimals: Literal[False] = False,
) -> List[Union[ScoreReport, ScoreError]]: ...
@overload
def score_many(
    profiles: Iterable[Mapping[str, Any]],
    *,
    errors: Literal["raise", "return"] = "raise",
    decimals: bool = False,
) -> List[Any]: ...

_Column = Tuple[str, str, Any, Optional[List[str]]]

def _score_columns(
    n_rows: int, columns: Sequence[_Column]
) -> Tuple[bytes, List[Tuple[str, str, bytes, Optional[List[str]]]], List[Tuple[int, str, Optional[str], str]]]: ...
