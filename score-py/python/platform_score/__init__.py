"""platform_score: the buyer pre-qualification score (model v2.1) of platform-score for Python.

A thin binding of the Rust crate score-core: every surface (Rust, Python, Node, the browser,
the HTTP API) returns the same report for the same profile.

>>> import platform_score
>>> report = platform_score.score({"estado": "CMX", "ingreso_mensual": 30000,
...     "tipo_ingreso": "asalariado", "antiguedad_meses": 36, "ahorro": 100000, "edad": 35})
>>> report["nivel"]
'alto'
"""

from collections.abc import Mapping as _Mapping

from ._core import (
    CORE_VERSION,
    ERROR_CODES,
    ERROR_COLUMNS,
    MODEL_VERSION,
    PROFILE_FIELDS,
    Report,
    ScoreError,
    __version__,
    score,
    score_json,
    score_many,
)
from ._frame import arrow_schema, output_schema, score_frame
from ._core import DOCUMENT_ERROR_CODES, profile_from_cfdi, read_cfdi, read_document  # documents (score-docs, score-ocr)
from ._types import (
    Amount,
    CambioPerfil,
    CapacidadCompra,
    Componente,
    Componentes,
    Dictamen,
    EstadoReporte,
    MotivoDictamen,
    Profile,
    Recomendacion,
    SaludFinanciera,
    ScoreReport,
    OfertaProducto,
    Simulacion,
)

# The lazy report of score_many(..., lazy=True) is a read-only Mapping (like sqlite3.Row is a
# row): isinstance(report, collections.abc.Mapping) holds.
_Mapping.register(Report)

__all__ = [
    "CORE_VERSION",
    "ERROR_CODES",
    "ERROR_COLUMNS",
    "MODEL_VERSION",
    "PROFILE_FIELDS",
    "Amount",
    "CambioPerfil",
    "CapacidadCompra",
    "Componente",
    "Componentes",
    "Dictamen",
    "EstadoReporte",
    "MotivoDictamen",
    "Profile",
    "Recomendacion",
    "Report",
    "SaludFinanciera",
    "ScoreError",
    "ScoreReport",
    "OfertaProducto",
    "Simulacion",
    "__version__",
    "arrow_schema",
    "output_schema",
    "score",
    "score_frame",
    "score_json",
    "score_many",
]
__all__ += ["DOCUMENT_ERROR_CODES", "profile_from_cfdi", "read_cfdi", "read_document"]
