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
    Calibration,
    ERROR_CODES,
    ERROR_COLUMNS,
    MODEL_VERSION,
    PROFILE_FIELDS,
    Report,
    ScoreError,
    __version__,
    score,
    score_json,
)
from ._batch import score_many
from ._frame import arrow_schema, output_schema, score_frame
from ._core import DOCUMENT_ERROR_CODES, CertificadosSat, profile_from_cfdi, read_cfdi, read_document  # documents (score-docs, score-ocr)
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
# row): isinstance(report, collections.abc.Mapping) holds. The compiled class has the mapping
# protocol (len, iteration, [], in) and what needs the Rust report (to_dict, pickling); the
# rest is Mapping's own mixin methods, which read through that protocol: equal to any mapping
# with equal items (NotImplemented for anything else), and a repr showing the dict.
_Mapping.register(Report)
for _name in ("get", "keys", "values", "items", "__eq__"):
    setattr(Report, _name, getattr(_Mapping, _name))


def _report_repr(self: Report) -> str:
    return f"Report({dict(self.items())!r})"


setattr(Report, "__repr__", _report_repr)

__all__ = [
    "Calibration",
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
__all__ += ["DOCUMENT_ERROR_CODES", "CertificadosSat", "profile_from_cfdi", "read_cfdi", "read_document"]
