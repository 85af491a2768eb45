"""TypedDicts of the profile (the input) and of the report (the output) of platform_score.

Field names and meanings are score-core's (see score-core/MODEL.md). Report amounts are
``float``, or ``int`` when integral, exactly as in score-core's JSON; ``score(profile,
decimals=True)`` returns the same keys with ``decimal.Decimal`` amounts instead.
"""

from __future__ import annotations

import decimal
from typing import List, Optional, TypedDict, Union

Amount = Union[int, float, decimal.Decimal]
"""A money amount in the profile: MXN as int, float or decimal.Decimal."""


class _CoacreditadoRequired(TypedDict):
    ingreso_mensual: Amount
    """The co-borrower's own monthly net income, MXN: part of the household's, and less."""
    tipo_ingreso: str
    """asalariado | independiente | mixto | pensionado (case-insensitive)."""
    antiguedad_meses: int
    """Months in the co-borrower's current job or activity."""


class Coacreditado(_CoacreditadoRequired, total=False):
    """A co-borrower: the part of the household that is a second borrower (Profile.coacreditado)."""

    edad: Optional[int]
    """Age in years (18..100); shortens the co-borrower's term."""
    deudas_mensuales: Optional[Amount]
    """The part of the household's declared deudas_mensuales that is the co-borrower's."""
    subcuenta_fondo: Optional[Amount]
    """The co-borrower's housing-fund sub-account balance, MXN; estimated when absent."""
    institucion: Optional[str]
    """INFONAVIT | FOVISSSTE | NINGUNA: the co-borrower's housing fund."""


class _ProfileRequired(TypedDict):
    estado: str
    """Federal entity: ISO code ("CMX", "MX-JAL"), INEGI key ("09") or name ("Nuevo León")."""
    ingreso_mensual: Amount
    """Monthly household net income, MXN (> 0)."""
    tipo_ingreso: str
    """asalariado | independiente | mixto | pensionado (case-insensitive)."""
    antiguedad_meses: int
    """Months in the current job or activity."""


class Profile(_ProfileRequired, total=False):
    """A buyer profile. Unknown keys are rejected (UNKNOWN_FIELD); None means "not given"."""

    deudas_mensuales: Optional[Amount]
    """Non-mortgage monthly debt payments, MXN; absent means not declared (scored neutral)."""
    ahorro: Optional[Amount]
    """Liquid savings, MXN (default 0)."""
    edad: Optional[int]
    """Age in years (18..100); shortens the loan term."""
    personas_hogar: Optional[int]
    """Persons in the household (1..20)."""
    subcuenta_fondo: Optional[Amount]
    """Housing-fund sub-account balance, MXN; estimated when absent."""
    institucion: Optional[str]
    """INFONAVIT | FOVISSSTE | NINGUNA (case-insensitive): the housing fund the buyer contributes
    to; absent: INFONAVIT for asalariado and mixto, none otherwise. Only the products read it."""
    coacreditado: Optional[Coacreditado]
    """A second borrower whose income (and debts) are part of the household's: the credit
    products pool both incomes; the score, which reads the household, does not change."""


class CapacidadCompra(TypedDict):
    valor_bancario: float
    valor_realista: float
    factor_platform_v2: float
    ltv: float
    pago_mensual_estimado: float
    credito_max: float
    m2_alcanzables: float
    m2_minimo_nucleo: float
    evaluacion_m2: str
    enganche_requerido: float
    enganche_disponible: float
    subcuenta_fondo_estimada: float
    estatus_enganche: str
    renta_equivalente: float
    gastos_cierre_estimados: float
    tasa_anual: float
    plazo_anios: int
    precio_m2_estado: float


class SaludFinanciera(TypedDict):
    score: float
    costo_vida_digno: float
    ingreso_disponible: float
    ratio: float


class Componente(TypedDict):
    valor: float
    peso: float
    puntos: float


class Componentes(TypedDict):
    ingreso: Componente
    tipo_ingreso: Componente
    antiguedad: Componente
    deudas: Componente
    ahorro: Componente
    salud_financiera: Componente


class EstadoReporte(TypedDict):
    clave: str
    codigo: str
    nombre: str


class Recomendacion(TypedDict):
    codigo: str
    texto: str


class MotivoDictamen(TypedDict):
    codigo: str
    texto: str


class Dictamen(TypedDict):
    precalifica: bool
    condicion: str
    motivos: List[MotivoDictamen]


class CambioPerfil(TypedDict):
    campo: str
    """The profile key the simulation changes (ahorro, deudas_mensuales, antiguedad_meses, or a
    co-borrower's field by its path: coacreditado.deudas_mensuales, coacreditado.ingreso_mensual,
    coacreditado.tipo_ingreso, coacreditado.antiguedad_meses, coacreditado.edad)."""
    antes: Optional[Union[float, str]]
    """Its value in the profile scored (None: absent); a number, or an income type's name."""
    despues: Optional[Union[float, str]]
    """Its value in the simulated profile (None removes it); a number, or an income type's name
    (a simulated co-borrower's tipo_ingreso)."""


class Simulacion(TypedDict):
    accion: str
    """AHORRAR_ENGANCHE | PAGAR_DEUDAS | DECLARAR_DEUDAS | SUMAR_ANTIGUEDAD | SUMAR_COACREDITADO."""
    descripcion: str
    cambios: List[CambioPerfil]
    score: int
    """The score of the profile with ``cambios`` applied (exactly its report's)."""
    nivel: str
    credito_max: float
    meses_para_siguiente_nivel: Optional[int]
    """SUMAR_ANTIGUEDAD: the months that reach the next level, when time alone does."""


class OfertaProducto(TypedDict):
    producto: str
    """The product's ``clave`` in the calibration: INFONAVIT | FOVISSSTE | HIPOTECA_BANCARIA |
    INFONAVIT_MAS_BANCO | UNAMOS_CREDITOS | COFINAVIT in the embedded one, and a bank's own
    products' codes."""
    elegible: bool
    tasa_anual: float
    cat: Optional[float]
    """Banxico's CAT as a ratio (0.1414 is 14.14%); None when age leaves no term."""
    plazo_anios: int
    pago_mensual: float
    credito_max: float
    valor_vivienda_max: float
    enganche_requerido: float
    gastos_cierre: float
    total_pagado: float
    motivos: List[str]
    """Why the product is not available (stable codes); empty when ``elegible``."""


class ScoreReport(TypedDict):
    """The full report: the same keys and values as score-core's JSON."""

    score: int
    nivel: str
    capacidad_compra_estimada: CapacidadCompra
    salud_financiera: SaludFinanciera
    recomendaciones: List[str]
    disclaimer: str
    valor_vivienda_max: float
    credito_max: float
    enganche_min: float
    pago_mensual_estimado: float
    renta_estimada: float
    modelo_version: str
    calibracion: str
    estado: EstadoReporte
    componentes: Componentes
    recomendaciones_detalle: List[Recomendacion]
    dictamen: Dictamen
    simulaciones: List[Simulacion]
    """Up to four what-ifs, most score gained first (empty when a batch turns them off)."""
    productos: List[OfertaProducto]
    """The five credit products, each under its own rules (score-core's PRODUCTS.md)."""
    producto_recomendado: Optional[str]
    """The recommended product among the available ones; None when none is."""
