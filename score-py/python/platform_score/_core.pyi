"""The compiled extension (Rust, pyo3). Import from ``platform_score`` instead."""

from typing import (
    Any,
    Callable,
    Dict,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Type,
    Union,
    ValuesView,
    final,
    overload,
)

import os

from ._types import ScoreReport

__all__ = [
    "DOCUMENT_ERROR_CODES", "CertificadosSat", "profile_from_cfdi", "read_cfdi", "read_document",  # payroll receipts (score-docs)
    "score",
    "score_json",
    "Calibration",
    "_score_many",
    "_score_columns",
    "_plan",
    "Report",
    "ScoreError",
    "__version__",
    "CORE_VERSION",
    "MODEL_VERSION",
    "PROFILE_FIELDS",
    "ERROR_CODES",
    "ERROR_COLUMNS",
    "ERROR_LIST_COLUMN",
]

__version__: str
CORE_VERSION: str
MODEL_VERSION: str
ERROR_CODES: Tuple[str, ...]
ERROR_COLUMNS: Tuple[str, ...]
ERROR_LIST_COLUMN: str
PROFILE_FIELDS: Tuple[str, ...]

from ._errors import ScoreError as ScoreError

@overload
def score(
    profile: Mapping[str, Any], *, decimals: Literal[False] = False, calibration: Optional["Calibration"] = None
) -> ScoreReport: ...
@overload
def score(
    profile: Mapping[str, Any], *, decimals: Literal[True], calibration: Optional["Calibration"] = None
) -> Dict[str, Any]: ...
@overload
def score(
    profile: Mapping[str, Any], *, decimals: bool, calibration: Optional["Calibration"] = None
) -> Union[ScoreReport, Dict[str, Any]]: ...
def score_json(text: str, *, calibration: Optional["Calibration"] = None) -> str: ...
@final
class Calibration:
    """A checked calibration of the model: the Mexican market's figures with their sources.
    A bad document raises ScoreError with code CALIBRATION_INVALID and the key as ``.field``."""

    @staticmethod
    def default() -> "Calibration": ...
    @staticmethod
    def from_toml(text: str) -> "Calibration": ...
    @staticmethod
    def from_file(path: Union[str, "os.PathLike[str]"]) -> "Calibration": ...
    @property
    def id(self) -> str: ...
    @property
    def vigente_desde(self) -> str: ...
    def to_toml(self) -> str: ...
    def __reduce__(self) -> Tuple[Callable[[str], "Calibration"], Tuple[str]]: ...
@final
class Report(Mapping[str, Any]):
    """A report of ``score_many(..., lazy=True)``: a read-only mapping with exactly the keys and
    values of the dict ``score()`` returns, converted from the Rust report when read (nested
    dicts and lists once, on the first access of their key).

    Equal to that dict (and to another Report with the same values), unhashable, pickled as
    that dict. Registered as a ``collections.abc.Mapping``.
    """

    __hash__: None  # type: ignore[assignment]
    def __getitem__(self, key: str, /) -> Any: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def keys(self) -> KeysView[str]: ...
    def values(self) -> ValuesView[Any]: ...
    def items(self) -> ItemsView[str, Any]: ...
    @overload
    def get(self, key: str) -> Any: ...
    @overload
    def get(self, key: str, default: Any) -> Any: ...
    def to_dict(self) -> ScoreReport:
        """A new dict: the very one ``score()`` returns for the same profile (with
        ``decimal.Decimal`` amounts when the batch was scored with ``decimals=True``)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> Tuple[Type[Dict[str, Any]], Tuple[Dict[str, Any]]]: ...

def _score_many(
    profiles: Iterable[Mapping[str, Any]],
    raise_errors: bool,
    decimals: bool,
    lazy: bool,
    simulations: bool,
    progress: Optional[Callable[[int], object]],
    calibration: Optional[Calibration],
) -> List[Any]: ...

_Column = Tuple[str, str, Any, Optional[List[str]]]

def _score_columns(
    n_rows: int, columns: Sequence[_Column], calibration: Optional["Calibration"] = None
) -> Tuple[bytes, List[Tuple[str, str, bytes, Optional[List[str]]]], List[Tuple[int, int, Optional[str], str, str]]]: ...
def _plan(
    names: Sequence[str], keep: Sequence[str], extra: str, return_errors: bool, error_list: bool = False
) -> Tuple[List[bool], List[Tuple[str, str, Optional[List[str]]]]]: ...

# Payroll receipts (CFDI with the Nómina 1.2 complement), from score-docs: the facts and the
# profile are the JSON objects of fixtures/documents/ (see score-docs/README.md).
from datetime import date as _date

DOCUMENT_ERROR_CODES: Tuple[str, ...]

@final
class CertificadosSat:
    """The CA certificates (DER as the SAT publishes them, or PEM) receipts' certificates are
    chained to, in place of the SAT's carried ones: a bank's own trust set, or the tests' CA. A
    receipt proves its facts only when its seal is valid and one of these issued its certificate.
    A file that is not a CA certificate raises ScoreError DOCUMENT_UNREADABLE naming it."""

    def __new__(cls, certificados: Sequence[bytes]) -> "CertificadosSat": ...
    @staticmethod
    def from_dir(path: Union[str, "os.PathLike[str]"]) -> "CertificadosSat": ...
    @staticmethod
    def incluidos() -> "CertificadosSat": ...
    def __len__(self) -> int: ...

def read_cfdi(data: bytes, *, ca_sat: Optional[CertificadosSat] = None) -> Dict[str, Any]: ...
def profile_from_cfdi(
    receipts: Sequence[bytes], *, reference_date: Union[str, _date], ca_sat: Optional[CertificadosSat] = None
) -> Dict[str, Any]: ...
def read_document(data: bytes, *, kind: Optional[Literal["recibo_nomina", "estado_cuenta"]] = None) -> Dict[str, Any]: ...
