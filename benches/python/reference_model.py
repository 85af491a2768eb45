"""Independent pure-Python reference of score model v2.1, written from score-core/MODEL.md.

It reads its constants from MODEL.md itself (the *checked* tables: curves, states, parameters)
and its Spanish texts from the reviewed snapshots in score-core/tests/snapshots/ (both through
reference_doc.py), and the credit products from PRODUCTS.md's independent computation
(score-core/tests/products_check.py), and computes with the `decimal` module at 60 digits, so it
shares no code with the Rust crate. It is the differential oracle of score-py's tests
(tests/test_reference.py) and the pure-Python baseline of bench_py.py.

    >>> from reference_model import score
    >>> score({"estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado",
    ...        "antiguedad_meses": 36, "ahorro": 100000, "edad": 35})["nivel"]
    'alto'

The report has score-core's keys, with amounts as decimal.Decimal, except `disclaimer`, whose
text MODEL.md does not give (None here).
"""

from __future__ import annotations

import decimal
import re
import unicodedata
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Dict, List, Optional
import sys

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "score-core" / "tests"))
import products_check  # noqa: E402  (PRODUCTS.md's independent computation)
from reference_doc import (  # noqa: E402  (MODEL.md's constants and the reviewed texts)
    CALIBRATION, CONDITIONS, CURVES, KNOCK_OUTS, MAX_SIMULACIONES, MESES_SIMULADOS, MODEL_VERSION, NIVELES, P,
    PLAZO_MAX, SIMULATION_TEXTS, STATES, TEXTS, VERDICT_TEXTS,
)

CTX = decimal.Context(prec=60, rounding=decimal.ROUND_HALF_EVEN)
decimal.setcontext(CTX)


class ReferenceError(ValueError):
    def __init__(self, code: str, field: Optional[str]) -> None:
        super().__init__(f"{code}: {field}")
        self.code, self.field = code, field


# ---- input (MODEL.md section 1) ----------------------------------------------------------

FIELDS = ["estado", "ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "deudas_mensuales",
          "ahorro", "edad", "personas_hogar", "subcuenta_fondo", "institucion", "coacreditado"]
CO_FIELDS = ["ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "edad", "deudas_mensuales",
             "subcuenta_fondo", "institucion"]
TYPES = ["asalariado", "independiente", "mixto", "pensionado"]
FUNDS = ["INFONAVIT", "FOVISSSTE", "NINGUNA"]
ALIASES = {"cdmx": "CMX", "ciudad de mexico": "CMX", "distrito federal": "CMX", "mexico city": "CMX",
           "estado de mexico": "MEX", "edomex": "MEX", "coahuila de zaragoza": "COA",
           "veracruz de ignacio de la llave": "VER"}


def _plain(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def _state(text: str) -> Dict[str, Any]:
    key = _plain(text)
    key = key[3:] if key.startswith("mx ") else key
    for s in STATES:
        if key in (s["clave"], s["iso"].lower(), _plain(s["nombre"])) or ALIASES.get(key) == s["iso"]:
            return s
    raise ReferenceError("UNKNOWN_STATE", "estado")


def _number(value: Any, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        raise ReferenceError("INVALID_TYPE", field)
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def _amount(profile: Dict[str, Any], field: str, ceiling: Decimal) -> Optional[Decimal]:
    if profile.get(field) is None:
        return None
    v = _number(profile[field], field)
    if v < 0:
        raise ReferenceError("NEGATIVE_AMOUNT", field)
    if v > ceiling:
        raise ReferenceError("AMOUNT_TOO_LARGE", field)
    if 0 < v < P["MONTO_MINIMO"]:
        raise ReferenceError("VALUE_OUT_OF_RANGE", field)
    return v


def _count(profile: Dict[str, Any], field: str, low: Decimal, high: Decimal) -> Optional[int]:
    if profile.get(field) is None:
        return None
    v = _number(profile[field], field)
    if v != v.to_integral_value():
        raise ReferenceError("NOT_AN_INTEGER", field)
    if not low <= v <= high:
        raise ReferenceError("VALUE_OUT_OF_RANGE", field)
    return int(v)


def _read(profile: Any) -> Dict[str, Any]:
    if not isinstance(profile, dict):
        raise ReferenceError("INVALID_TYPE", None)
    unknown = sorted(k for k in profile if k not in FIELDS)
    if unknown:
        raise ReferenceError("UNKNOWN_FIELD", unknown[0])
    for field in FIELDS[:4]:
        if profile.get(field) is None:
            raise ReferenceError("MISSING_FIELD", field)
    if not isinstance(profile["estado"], str):
        raise ReferenceError("INVALID_TYPE", "estado")
    estado = _state(profile["estado"])
    ingreso = _amount(profile, "ingreso_mensual", P["MONTO_MENSUAL_MAX"])
    if not isinstance(profile["tipo_ingreso"], str):
        raise ReferenceError("INVALID_TYPE", "tipo_ingreso")
    tipo = profile["tipo_ingreso"].strip().lower()
    if tipo not in TYPES:
        raise ReferenceError("UNKNOWN_INCOME_TYPE", "tipo_ingreso")
    antiguedad = _count(profile, "antiguedad_meses", Decimal(0), P["ANTIGUEDAD_MAX_MESES"])
    if ingreso == 0:
        raise ReferenceError("VALUE_OUT_OF_RANGE", "ingreso_mensual")
    deudas = _amount(profile, "deudas_mensuales", P["MONTO_MENSUAL_MAX"])
    p = {
        "estado": estado,
        "ingreso": ingreso,
        "tipo": tipo,
        "antiguedad": antiguedad,
        "deudas": deudas,
        "ahorro": _amount(profile, "ahorro", P["SALDO_MAX"]) or Decimal(0),
        "edad": _count(profile, "edad", P["EDAD_MIN"], P["EDAD_MAX"]),
        "personas": _count(profile, "personas_hogar", Decimal(1), P["PERSONAS_HOGAR_MAX"]),
        "subcuenta": _amount(profile, "subcuenta_fondo", P["SALDO_MAX"]),
        "institucion": _fund(profile, "institucion", "institucion"),
        "co": None,
    }
    if profile.get("coacreditado") is not None:
        p["co"] = _read_co(profile["coacreditado"], p)
    return p


def _fund(obj: Dict[str, Any], key: str, field: str) -> Optional[str]:
    fund = obj.get(key)
    if fund is None:
        return None
    if not isinstance(fund, str):
        raise ReferenceError("INVALID_TYPE", field)
    if fund.strip().upper() not in FUNDS:
        raise ReferenceError("UNKNOWN_INSTITUTION", field)
    return fund.strip().upper()


def _read_co(co: Any, p: Dict[str, Any]) -> Dict[str, Any]:
    """MODEL.md section 1, `coacreditado`: the co-borrower's part of the household."""
    if not isinstance(co, dict):
        raise ReferenceError("INVALID_TYPE", "coacreditado")
    unknown = sorted(k for k in co if k not in CO_FIELDS)
    if unknown:
        raise ReferenceError("UNKNOWN_FIELD", "coacreditado." + unknown[0])
    for field in CO_FIELDS[:3]:
        if co.get(field) is None:
            raise ReferenceError("MISSING_FIELD", "coacreditado." + field)
    named = {k: v for k, v in co.items()}
    path = {k: "coacreditado." + k for k in CO_FIELDS}

    def amount(key: str, ceiling: Decimal) -> Optional[Decimal]:
        try:
            return _amount(named, key, ceiling)
        except ReferenceError as e:
            raise ReferenceError(e.code, path[key]) from None

    def count(key: str, low: Decimal, high: Decimal) -> Optional[int]:
        try:
            return _count(named, key, low, high)
        except ReferenceError as e:
            raise ReferenceError(e.code, path[key]) from None

    ingreso = amount("ingreso_mensual", P["MONTO_MENSUAL_MAX"])
    if not isinstance(co["tipo_ingreso"], str):
        raise ReferenceError("INVALID_TYPE", path["tipo_ingreso"])
    tipo = co["tipo_ingreso"].strip().lower()
    if tipo not in TYPES:
        raise ReferenceError("UNKNOWN_INCOME_TYPE", path["tipo_ingreso"])
    antiguedad = count("antiguedad_meses", Decimal(0), P["ANTIGUEDAD_MAX_MESES"])
    if ingreso == 0 or ingreso >= p["ingreso"]:
        raise ReferenceError("VALUE_OUT_OF_RANGE", path["ingreso_mensual"])
    deudas = amount("deudas_mensuales", P["MONTO_MENSUAL_MAX"])
    if deudas is not None and p["deudas"] is None:
        raise ReferenceError("MISSING_FIELD", "deudas_mensuales")
    if deudas is not None and deudas > p["deudas"]:
        raise ReferenceError("VALUE_OUT_OF_RANGE", path["deudas_mensuales"])
    return {
        "ingreso": ingreso,
        "tipo": tipo,
        "antiguedad": antiguedad,
        "edad": count("edad", P["EDAD_MIN"], P["EDAD_MAX"]),
        "deudas": deudas,
        "subcuenta": amount("subcuenta_fondo", P["SALDO_MAX"]),
        "institucion": _fund(co, "institucion", path["institucion"]),
    }


# ---- the model (MODEL.md sections 2-9) ---------------------------------------------------


def curve(name: str, x: Decimal) -> Decimal:
    points = CURVES[name]
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x < x1:
            return y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    return points[-1][1]


def curve_ratio(name: str, num: Decimal, den: Decimal) -> Decimal:
    """The curve at the exact fraction num / den (MODEL.md section 3: one division)."""
    points = CURVES[name]
    if num <= points[0][0] * den:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if num < x1 * den:
            return y0 + (num - x0 * den) * (y1 - y0) / ((x1 - x0) * den)
    return points[-1][1]


def rnd(value: Decimal, places: int) -> Decimal:
    """Half away from zero ("redondeo comercial")."""
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def score(profile: Any, simulations: bool = True) -> Dict[str, Any]:
    """The report of ``profile``; ``simulations=False`` leaves ``simulaciones`` empty."""
    report = _report(profile)
    report["simulaciones"] = _simulaciones(profile, report) if simulations else []
    productos = report.pop("_productos")
    report["productos"], report["producto_recomendado"] = productos["productos"], productos["producto_recomendado"]
    return report


def _productos(profile: Any) -> Dict[str, Any]:
    """MODEL.md section 15: the credit products, by the independent computation of PRODUCTS.md
    (score-core/tests/products_check.py, also written from the documents alone). The borrowers
    are the profile's: the applicant has the household's income and debts (not declared: the
    typical ratio) less the co-borrower's part, and each borrower's own sub-account."""
    p = _read(profile)
    co = p["co"]
    deudas = P["PROPORCION_DEUDAS_NO_DECLARADAS"] * p["ingreso"] if p["deudas"] is None else p["deudas"]
    titular = {"ingreso": p["ingreso"] - (co["ingreso"] if co else 0), "tipo": p["tipo"],
               "antiguedad": p["antiguedad"], "edad": p["edad"],
               "deudas": deudas - ((co["deudas"] or 0) if co else 0), "subcuenta": _subcuentas(p)[0]}
    if p["institucion"] is not None:
        titular["institucion"] = p["institucion"]
    case = {"estado": p["estado"]["iso"], "ahorro": p["ahorro"], "titular": titular}
    if co:
        case["coacreditado"] = {"ingreso": co["ingreso"], "tipo": co["tipo"], "antiguedad": co["antiguedad"],
                                "edad": co["edad"], "deudas": co["deudas"] or Decimal(0),
                                "subcuenta": _subcuentas(p)[1]}
        if co["institucion"] is not None:
            case["coacreditado"]["institucion"] = co["institucion"]
    ofertas = products_check.evaluate(case)
    return {"productos": ofertas["productos"], "producto_recomendado": ofertas["producto_recomendado"]}


def _subcuenta_de(tipo: str, ingreso: Decimal, antiguedad: int, declarada: Optional[Decimal]) -> Decimal:
    """MODEL.md section 8: one borrower's housing-fund sub-account, declared or estimated."""
    if declarada is not None:
        return declarada
    if tipo in ("asalariado", "mixto"):
        salario = ingreso if tipo == "asalariado" else P["PROPORCION_SALARIO_MIXTO"] * ingreso
        tope = P["TOPE_SBC_UMAS"] * P["UMA_DIARIA"] * P["DIAS_POR_MES"]
        return P["APORTACION_FONDO"] * min(salario, tope) * min(Decimal(antiguedad), P["MESES_FONDO_MAX"])
    return Decimal(0)


def _subcuentas(p: Dict[str, Any]) -> List[Decimal]:
    """The applicant's sub-account (on the household's income less the co-borrower's) and the
    co-borrower's (0 without one)."""
    co = p["co"]
    propio = p["ingreso"] - (co["ingreso"] if co else 0)
    return [_subcuenta_de(p["tipo"], propio, p["antiguedad"], p["subcuenta"]),
            _subcuenta_de(co["tipo"], co["ingreso"], co["antiguedad"], co["subcuenta"]) if co else Decimal(0)]


def _simulaciones(profile: Dict[str, Any], base: Dict[str, Any]) -> List[Dict[str, Any]]:
    """MODEL.md section 14: each action applied to the profile and scored again."""
    p = _read(profile)
    found: List[Dict[str, Any]] = []

    def cambio(campo: str, antes: Any, despues: Any) -> Dict[str, Any]:
        return {"campo": campo, "antes": antes, "despues": despues}

    def offer(accion: str, cambios: List[Dict[str, Any]], meses: Optional[int] = None) -> None:
        # Each change applied by its path: a co-borrower's field inside `coacreditado` (made
        # when the change adds one).
        changed = dict(profile)
        for c in cambios:
            *parents, key = c["campo"].split(".")
            target = changed
            for parent in parents:
                target[parent] = dict(target.get(parent) or {})
                target = target[parent]
            target[key] = c["despues"]
        r = _report(changed)
        # A co-borrower's credit counts only when it is the pooled one (Unamos Créditos).
        propio = accion != "SUMAR_COACREDITADO" or r["_productos"]["producto_recomendado"] == "UNAMOS_CREDITOS"
        if r["score"] > base["score"] or (r["credito_max"] > base["credito_max"] and propio):
            found.append({
                "accion": accion,
                "descripcion": SIMULATION_TEXTS[accion],
                "cambios": cambios,
                "score": r["score"],
                "nivel": r["nivel"],
                "credito_max": r["credito_max"],
                "meses_para_siguiente_nivel": meses,
            })

    c = base["capacidad_compra_estimada"]
    faltante = c["enganche_requerido"] + c["gastos_cierre_estimados"] - c["enganche_disponible"]
    if c["credito_max"] > 0 and faltante > 0 and p["ahorro"] < P["SALDO_MAX"]:
        offer("AHORRAR_ENGANCHE", [cambio("ahorro", p["ahorro"], min(p["ahorro"] + faltante, P["SALDO_MAX"]))])
    deudas = p["deudas"]
    if deudas is None:
        offer("DECLARAR_DEUDAS", [cambio("deudas_mensuales", None, Decimal(0))])
    elif deudas > 0:
        # The co-borrower's part of the debts is halved too.
        cambios = [cambio("deudas_mensuales", deudas, rnd(deudas / 2, 2))]
        suyas = p["co"]["deudas"] if p["co"] else None
        if suyas:
            cambios.append(cambio("coacreditado.deudas_mensuales", suyas, rnd(suyas / 2, 2)))
        offer("PAGAR_DEUDAS", cambios)
    antiguedad = p["antiguedad"]
    most = int(P["ANTIGUEDAD_MAX_MESES"]) - antiguedad
    if most > 0:
        def reaches(meses: int) -> bool:
            changed = dict(profile, antiguedad_meses=antiguedad + meses)
            return NIVELES.index(_report(changed, solo_score=True)["nivel"]) > NIVELES.index(base["nivel"])

        meses: Optional[int] = None
        if base["nivel"] != "excelente" and reaches(most):
            low, high = 0, most
            while high - low > 1:
                mid = low + (high - low) // 2
                low, high = (low, mid) if reaches(mid) else (mid, high)
            meses = high
        added = meses if meses is not None else min(MESES_SIMULADOS, most)
        offer("SUMAR_ANTIGUEDAD", [cambio("antiguedad_meses", Decimal(antiguedad), Decimal(antiguedad + added))], meses)
    # A second earner of the household as co-borrower, for an applicant who contributes to
    # INFONAVIT: half of the income, the applicant's type, seniority and age.
    mitad = rnd(p["ingreso"] / 2, 2)
    de_infonavit = p["tipo"] in ("asalariado", "mixto") and (p["institucion"] or "INFONAVIT") == "INFONAVIT"
    if p["co"] is None and p["personas"] != 1 and de_infonavit and mitad < p["ingreso"]:
        cambios = [
            cambio("coacreditado.ingreso_mensual", None, mitad),
            cambio("coacreditado.tipo_ingreso", None, p["tipo"]),
            cambio("coacreditado.antiguedad_meses", None, Decimal(antiguedad)),
        ]
        if p["edad"] is not None:
            cambios.append(cambio("coacreditado.edad", None, Decimal(p["edad"])))
        offer("SUMAR_COACREDITADO", cambios)
    found.sort(key=lambda s: (-s["score"], -s["credito_max"]))
    return found[:MAX_SIMULACIONES]


def _report(profile: Any, solo_score: bool = False) -> Dict[str, Any]:
    """The report without simulations (``solo_score``: only ``score`` and ``nivel``, for the
    seniority search, which reads the level alone)."""
    p = _read(profile)
    I, tipo, estado = p["ingreso"], p["tipo"], p["estado"]
    factor, deudas = estado["factor"], p["deudas"]
    personas = Decimal(p["personas"]) if p["personas"] is not None else P["PERSONAS_HOGAR_DEFAULT"]

    # 5. Financial health
    costo = P["LINEA_POBREZA_URBANA"] * personas * factor
    supuestas = P["PROPORCION_DEUDAS_NO_DECLARADAS"] * I if deudas is None else deudas
    disponible_ingreso = I - costo - supuestas
    ratio = disponible_ingreso / I

    # 3-4. Components
    ingreso_x = CURVES["CURVA_INGRESO"]
    ref = min(max(I, ingreso_x[0][0] * costo), ingreso_x[-1][0] * costo)
    values = {
        "ingreso": curve_ratio("CURVA_INGRESO", I, costo),
        "tipo_ingreso": P["PUNTOS_TIPO_" + tipo.upper()],
        "antiguedad": curve("CURVA_ANTIGUEDAD_INDEPENDIENTE" if tipo == "independiente" else "CURVA_ANTIGUEDAD_ASALARIADO",
                            Decimal(p["antiguedad"])),
        "deudas": P["PUNTOS_DEUDAS_NO_DECLARADAS"] if deudas is None else curve_ratio("CURVA_DEUDAS", deudas, I),
        "ahorro": min(curve_ratio("CURVA_AHORRO", p["ahorro"], ref * 12), curve_ratio("CURVA_AHORRO_COBERTURA", I, costo)),
        "salud_financiera": curve_ratio("CURVA_SALUD_FINANCIERA", disponible_ingreso, I),
    }
    weights = {k: P["PESO_" + k.upper()] for k in values}
    # 2. Each component rounded once to 2 decimals: the shown value is what the score adds
    shown = {k: rnd(v, 2) for k, v in values.items()}
    total = int(rnd(sum(shown[k] * weights[k] for k in shown) * P["ESCALA_SCORE"], 0))
    nivel = "bajo" if total <= 400 else "medio" if total <= 600 else "alto" if total <= 800 else "excelente"
    if solo_score:
        return {"score": total, "nivel": nivel}

    # 6. Purchasing capacity: the recommended product's terms (section 15), else the bank's
    productos = _productos(profile)
    recomendado = productos["producto_recomendado"] or "HIPOTECA_BANCARIA"
    oferta = next(o for o in productos["productos"] if o["producto"] == recomendado)
    banco = next(o for o in productos["productos"] if o["producto"] == "HIPOTECA_BANCARIA")
    valor, credito = oferta["valor_vivienda_max"], oferta["credito_max"]
    gastos, pago, plazo = oferta["gastos_cierre"], oferta["pago_mensual"], oferta["plazo_anios"]
    requerido = valor - credito  # the part of the value the credit does not cover
    ajuste = min(max(2 - factor, P["FACTOR_MIN"]), P["FACTOR_MAX"])
    valor_realista = rnd(valor * ajuste, 2)
    ltv = rnd(credito / valor, 4) if valor else Decimal(0)
    # 8. Housing-fund sub-accounts; own funds: savings plus those the product applies to the price
    subcuentas = _subcuentas(p)
    subcuenta = sum(subcuentas)
    aplicadas = {"INFONAVIT": subcuentas[0], "FOVISSSTE": subcuentas[0], "INFONAVIT_MAS_BANCO": subcuentas[0],
                 "COFINAVIT": subcuentas[0], "UNAMOS_CREDITOS": subcuenta}.get(recomendado, Decimal(0))
    enganche_disponible = rnd(p["ahorro"] + aplicadas, 2)
    # 9. Core dwelling
    dormitorios = max(Decimal(1), (personas / P["PERSONAS_POR_DORMITORIO"]).to_integral_value(ROUND_CEILING))
    nucleo = (P["M2_NUCLEO_BASE"] + P["M2_POR_DORMITORIO_EXTRA"] * (dormitorios - 1)) * P["FACTOR_MUROS_CIRCULACION"]
    # 7. Labels (from the shown value: valor / precio_m2 against the thresholds)
    m2 = valor / estado["precio_m2"]
    if m2 < nucleo:
        evaluacion = "INSUFICIENTE"
    elif m2 < P["UMBRAL_M2_ADECUADO"] * nucleo:
        evaluacion = "NUCLEO_BASICO"
    elif m2 < P["UMBRAL_M2_HOLGADO"] * nucleo:
        evaluacion = "ADECUADO"
    else:
        evaluacion = "HOLGADO"
    if valor == 0:
        estatus = "NO_APLICA"
    elif requerido > 0 and enganche_disponible == 0:
        estatus = "SIN_ENGANCHE"
    elif enganche_disponible < P["UMBRAL_ENGANCHE_PARCIAL"] * requerido:
        estatus = "INSUFICIENTE"
    elif enganche_disponible < requerido:
        estatus = "PARCIAL"
    elif enganche_disponible < requerido + gastos:
        estatus = "CUBIERTO_SIN_GASTOS"
    else:
        estatus = "CUBIERTO"

    # 9.1 The verdict
    applies = {
        # Below the minimum wage INFONAVIT still lends: a knock-out only where nothing does.
        "INGRESO_MENOR_AL_MINIMO": plazo > 0 and credito == 0 and I < P["INGRESO_MINIMO"],
        "DEUDA_MAYOR_AL_LIMITE": deudas is not None and deudas > P["DTI_TOTAL_MAX"] * I,
        "SIN_PLAZO_POR_EDAD": plazo == 0,
        "SIN_CAPACIDAD_DE_PAGO": plazo > 0 and credito == 0 and "SIN_CAPACIDAD_DE_PAGO" in banco["motivos"],
        "SIN_PRODUCTO_DISPONIBLE": plazo > 0 and credito == 0 and "SIN_CAPACIDAD_DE_PAGO" not in banco["motivos"],
        "DEUDAS_NO_DECLARADAS": deudas is None,
        "ENGANCHE_Y_GASTOS_NO_CUBIERTOS": estatus not in ("NO_APLICA", "CUBIERTO"),
        "PAGO_COMPROMETE_COSTO_DE_VIDA": credito > 0 and rnd(disponible_ingreso, 2) < pago,
    }
    motivos = [c for c in KNOCK_OUTS + CONDITIONS if applies[c]]
    condicion = ("NO_PRECALIFICA" if any(c in KNOCK_OUTS for c in motivos)
                 else "CONDICIONADO" if motivos else "PRECALIFICA")

    # 9. Recommendations
    codes_by_component = {
        "ingreso": "INGRESO_BAJO",
        "tipo_ingreso": None if tipo == "asalariado" else "INGRESO_POCO_COMPROBABLE",
        "antiguedad": "ANTIGUEDAD_CORTA",
        "deudas": None if deudas is None else "DEUDA_ALTA",
        "ahorro": "AHORRO_BAJO",
        "salud_financiera": "SALUD_FINANCIERA_AJUSTADA",
    }
    weak = [((100 - shown[k]) * weights[k], order, code)
            for order, (k, code) in enumerate(codes_by_component.items())
            if code is not None and shown[k] < P["UMBRAL_RECOMENDACION"]]
    weak.sort(key=lambda w: (-w[0], w[1]))
    codes = [w[2] for w in weak[: int(P["MAX_RECOMENDACIONES_COMPONENTE"])]]
    if deudas is None:
        codes.append("DEUDAS_NO_DECLARADAS")
    codes += [c for c in ("INGRESO_MENOR_AL_MINIMO", "DEUDA_MAYOR_AL_LIMITE") if applies[c]]
    if applies["PAGO_COMPROMETE_COSTO_DE_VIDA"] and "SALUD_FINANCIERA_AJUSTADA" not in codes:
        codes.append("SALUD_FINANCIERA_AJUSTADA")
    sin_credito = credito == 0
    if plazo == 0:
        codes.append("SIN_PLAZO_POR_EDAD")
    elif applies["SIN_PRODUCTO_DISPONIBLE"]:
        codes.append("SIN_PRODUCTO_DISPONIBLE")
    elif sin_credito:
        codes.append("SIN_CAPACIDAD_DE_PAGO")
    if 0 < plazo < PLAZO_MAX[recomendado]:
        codes.append("PLAZO_LIMITADO_POR_EDAD")
    if estatus in ("SIN_ENGANCHE", "INSUFICIENTE", "PARCIAL"):
        codes.append("ENGANCHE_INSUFICIENTE")
    if estatus == "CUBIERTO_SIN_GASTOS":
        codes.append("GASTOS_DE_CIERRE_PENDIENTES")
    if evaluacion == "INSUFICIENTE" and not sin_credito:
        codes.append("VIVIENDA_BAJO_NUCLEO")
    if not codes:
        codes.append("PERFIL_SOLIDO")
    if condicion != "PRECALIFICA":
        first = motivos[0]
        if first == "ENGANCHE_Y_GASTOS_NO_CUBIERTOS":
            first = "GASTOS_DE_CIERRE_PENDIENTES" if estatus == "CUBIERTO_SIN_GASTOS" else "ENGANCHE_INSUFICIENTE"
        elif first == "PAGO_COMPROMETE_COSTO_DE_VIDA":
            first = "SALUD_FINANCIERA_AJUSTADA"
        codes.remove(first)
        codes.insert(0, first)

    capacidad = {
        "valor_bancario": valor,
        "valor_realista": valor_realista,
        "factor_platform_v2": factor,
        "ltv": ltv,
        "pago_mensual_estimado": pago,
        "credito_max": credito,
        "m2_alcanzables": rnd(m2, 2),
        "m2_minimo_nucleo": rnd(nucleo, 2),
        "evaluacion_m2": evaluacion,
        "enganche_requerido": requerido,
        "enganche_disponible": enganche_disponible,
        "subcuenta_fondo_estimada": rnd(subcuenta, 2),
        "estatus_enganche": estatus,
        "renta_equivalente": rnd(valor * P["RENDIMIENTO_RENTA_ANUAL"] / 12, 2),
        "gastos_cierre_estimados": gastos,
        "tasa_anual": oferta["tasa_anual"],
        "plazo_anios": plazo,
        "precio_m2_estado": estado["precio_m2"],
    }
    return {
        "score": total,
        "nivel": nivel,
        "capacidad_compra_estimada": capacidad,
        "salud_financiera": {
            "score": shown["salud_financiera"],
            "costo_vida_digno": rnd(costo, 2),
            "ingreso_disponible": rnd(disponible_ingreso, 2),
            "ratio": rnd(ratio, 4),
        },
        "recomendaciones": [TEXTS[c] for c in codes],
        "disclaimer": None,
        "valor_vivienda_max": capacidad["valor_bancario"],
        "credito_max": capacidad["credito_max"],
        "enganche_min": capacidad["enganche_requerido"],
        "pago_mensual_estimado": capacidad["pago_mensual_estimado"],
        "renta_estimada": capacidad["renta_equivalente"],
        "modelo_version": MODEL_VERSION,
        "calibracion": CALIBRATION,
        "estado": {"clave": estado["clave"], "codigo": estado["iso"], "nombre": estado["nombre"]},
        "componentes": {
            k: {"valor": shown[k], "peso": weights[k], "puntos": rnd(shown[k] * weights[k] * P["ESCALA_SCORE"], 2)}
            for k in values
        },
        "recomendaciones_detalle": [{"codigo": c, "texto": TEXTS[c]} for c in codes],
        "dictamen": {
            "precalifica": condicion != "NO_PRECALIFICA",
            "condicion": condicion,
            "motivos": [{"codigo": c, "texto": VERDICT_TEXTS[c]} for c in motivos],
        },
        "_productos": productos,
    }
