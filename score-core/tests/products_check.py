#!/usr/bin/env python3
"""Independent check of score-core's credit products (PRODUCTS.md), in Python's decimal.

Recomputes every figure of the hand-checked examples from the rules as PRODUCTS.md states
them, at 60 significant digits, and writes them to products_expected.json, which the Rust test
tests/products.rs compares digit for digit with `score_core::products::evaluar`. It shares no
code with the crate. Run from the repository root:

    python3 score-core/tests/products_check.py          # rewrite the expected file
    python3 score-core/tests/products_check.py --check  # fail if it would change
"""
import json
import sys
from decimal import ROUND_HALF_UP, Decimal as D, getcontext
from pathlib import Path

getcontext().prec = 60

# ---- Rules (PRODUCTS.md) -------------------------------------------------------------------
SM = (D("315.04") * 365 / 12).quantize(D("0.01"), rounding=ROUND_HALF_UP)  # monthly minimum wage 2026
UMA = D("117.31") * D("30.4")           # monthly UMA 2026
INF_RATES = [("2.7", "0.0369"), ("6.6", "0.1045")]
INF_SHARES = [("2.2433", "0.2022"), ("2.687", "0.2942"), ("3.0", "0.30")]   # payment over salary by UMAs
INF_MAX, INF_TERM, INF_AGE, INF_SEN, INF_LOAD = D(823) * UMA, 30, 70, 6, D("0.00008")
FOV_RATE, FOV_PTI, FOV_TERM, FOV_SEN, FOV_MAX, FOV_AGE = D("0.1054"), D("0.30"), 30, 18, D("2069000"), 75
BANK_RATE, BANK_FEE, BANK_INS, BANK_MIN, BANK_TERM, BANK_AGE = D("0.1154"), D("0.01"), D("0.00103"), D("250000"), 20, 75
PTI, DTI = D("0.30"), D("0.40")
COFI_SHARE, COFI_RATE, COFI_MAX = D("0.30"), D("0.1045"), D("950654")
UNAMOS_MAX = D("5095000")
COFINAVIT_RATE, COFINAVIT_MAX, COFINAVIT_SHARE = D("0.1045"), D(325) * UMA, D("0.30")  # INFONAVIT's part
ISAI = {"CMX": D("0.04"), "YUC": D("0.018")}   # every other state 2%
CLOSING = D("0.015") + D("0.006") + D("0.0025")  # notary + registry + appraisal


ZERO = D("0.00")


def r(x, dp):
    return x.quantize(D(1).scaleb(-dp), rounding=ROUND_HALF_UP)


def salary(kind, income):
    return {"asalariado": income, "mixto": income / 2}.get(kind, D(0))


def infonavit_rate(sal, table=INF_RATES):
    u = sal / UMA
    pts = [(D(a), D(b)) for a, b in table]
    if u <= pts[0][0]:
        y = pts[0][1]
    elif u >= pts[-1][0]:
        y = pts[-1][1]
    else:
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if u <= x1:
                y = y0 + (u - x0) * (y1 - y0) / (x1 - x0)
                break
    return y


def annuity(rate, months):
    j = rate / 12
    return (1 - (1 + j) ** -months) / j


def per_peso(rate, years, load):
    return 1 / annuity(rate, 12 * years) + load if years > 0 else D(0)


def term(longest, limit, age):
    return longest if age is None else max(0, min(longest, limit - age))


def cat(net, flows):
    """Banxico: the annual i with net = sum P (1+i)^(-k/12); solved by bisection on (1+i)^(1/12)."""
    if net <= 0 or sum(p * n for p, n in flows) <= net:
        return None
    def f(j):
        return sum(p * (1 - (1 + j) ** -n) / j for p, n in flows) - net
    lo, hi = D("1e-30"), D(1)
    for _ in range(250):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (1 + lo) ** 12 - 1


def capacity(base, income, debts):
    return max(D(0), min(base, DTI * income - debts))


def fund(person, name):
    return person["tipo"] in ("asalariado", "mixto") and person.get("institucion", "INFONAVIT") == name


def infonavit_one(p):
    sal = salary(p["tipo"], p["ingreso"])
    t = term(INF_TERM, INF_AGE, p.get("edad"))
    pti = infonavit_rate(sal, INF_SHARES)
    pay = capacity(pti * sal, p["ingreso"], p["deudas"])
    reasons = fund_reasons(p, "INFONAVIT", INF_SEN, sal, t, pay)
    rate = infonavit_rate(sal)
    k = per_peso(rate, t, INF_LOAD)
    credit = min(pay / k, INF_MAX) if k else D(0)
    return reasons, rate, t, k, credit, sized(pay, k, credit)


def sized(pay, k, credit):
    """The monthly payment of a credit sized for `pay`: `pay` itself unless a cap cut the credit."""
    return pay if k and credit == pay / k else credit * k


def fund_reasons(p, name, seniority, sal, t, pay):
    if not fund(p, name):
        return ["NO_DERECHOHABIENTE_" + name]
    reasons = []
    if p["antiguedad"] < seniority:
        reasons.append("ANTIGUEDAD_INSUFICIENTE")
    if name == "FOVISSSTE" and sal < SM:   # INFONAVIT lends below the minimum wage
        reasons.append("INGRESO_MENOR_AL_SALARIO_MINIMO")
    no_term_or_payment(reasons, t, pay)
    return reasons


def no_term_or_payment(reasons, t, pay):
    if t == 0:
        reasons.append("SIN_PLAZO_POR_EDAD")
    elif pay == 0:
        reasons.append("SIN_CAPACIDAD_DE_PAGO")


ORDER = ["NO_DERECHOHABIENTE_INFONAVIT", "NO_DERECHOHABIENTE_FOVISSSTE", "CON_RELACION_LABORAL",
         "SIN_RELACION_LABORAL", "SIN_SUBCUENTA_INFONAVIT", "ANTIGUEDAD_INSUFICIENTE",
         "INGRESO_MENOR_AL_SALARIO_MINIMO", "SIN_PLAZO_POR_EDAD", "SIN_CAPACIDAD_DE_PAGO", "CREDITO_MENOR_AL_MINIMO",
         "INGRESO_MENOR_AL_MINIMO_DEL_BANCO", "SIN_COACREDITADO", "COACREDITADO_NO_ELEGIBLE"]


def offer(name, reasons, parts, payment, shape, years, value_rule, state, funds):
    """parts/shape: lists of (credit, rate, per_peso, months, fee share[, its exact payment]);
    payment: the parts' monthly payment. A part sized for a payment pays that payment exactly (its
    credit times its per-peso payment only rounds back to it), as PRODUCTS.md's total paid reads."""
    reasons = sorted(set(reasons), key=ORDER.index)
    credit = sum(c for c, *_ in parts)
    use = parts if not reasons and credit > 0 else shape
    weight = sum(c for c, *_ in use)
    rate = sum(c * rt for c, rt, *_ in use) / weight if weight else use[0][1]
    fee = sum(x[0] * x[4] for x in use)
    flows = [(x[5] if len(x) > 5 else x[0] * x[2], x[3]) for x in use]
    c_at = cat(weight - fee, flows)
    out = dict(producto=name, elegible=False, tasa_anual=r(rate, 4), cat=None if c_at is None else r(c_at, 4),
               plazo_anios=years, pago_mensual=ZERO, credito_max=ZERO, valor_vivienda_max=ZERO,
               enganche_requerido=ZERO, gastos_cierre=ZERO, total_pagado=ZERO, motivos=reasons)
    exact = dict(value=D(0), down=D(0), costs=D(0), funds=funds, cat=c_at)
    if reasons or credit == 0:
        if not reasons:
            out["motivos"] = ["SIN_CAPACIDAD_DE_PAGO"]
        return out, exact
    kind, x = value_rule
    value = credit + x if kind == "fund" else credit / x
    down = D(0) if kind == "fund" else value - credit
    costs = value * (ISAI.get(state, D("0.02")) + CLOSING)
    out.update(elegible=True, pago_mensual=payment, credito_max=credit, valor_vivienda_max=value,
               enganche_requerido=down, gastos_cierre=costs, total_pagado=sum(p * m for p, m in flows) + fee)
    for key in ("pago_mensual", "credito_max", "valor_vivienda_max", "enganche_requerido", "gastos_cierre", "total_pagado"):
        out[key] = r(out[key], 2)
    exact.update(value=value, down=down, costs=costs)
    return out, exact


def bank_reasons(p):
    need = 24 if p["tipo"] == "independiente" else 6
    return ["ANTIGUEDAD_INSUFICIENTE"] if p["antiguedad"] < need else []


def household(p, co):
    if co is None:
        return p["ingreso"], p["deudas"], p.get("edad")
    ages = [a for a in (p.get("edad"), co.get("edad")) if a is not None]
    return p["ingreso"] + co["ingreso"], p["deudas"] + co["deudas"], max(ages) if ages else None


def evaluate(case):
    p, co, state, savings = case["titular"], case.get("coacreditado"), case["estado"], case["ahorro"]
    offers = []
    # INFONAVIT
    reasons, rate, t, k, credit, paid = infonavit_one(p)
    offers.append(offer("INFONAVIT", reasons, [(credit, rate, k, 12 * t, D(0), paid)], paid, [(D(1), rate, k, 12 * t, D(0))],
                        t, ("fund", p["subcuenta"]), state, savings))
    # FOVISSSTE
    sal = salary(p["tipo"], p["ingreso"])
    t = term(FOV_TERM, FOV_AGE, p.get("edad"))
    pay = capacity(FOV_PTI * sal, p["ingreso"], p["deudas"])
    reasons = fund_reasons(p, "FOVISSSTE", FOV_SEN, sal, t, pay)
    k = per_peso(FOV_RATE, t, INF_LOAD)
    credit = min(pay / k, FOV_MAX) if k else D(0)
    offers.append(offer("FOVISSSTE", reasons, [(credit, FOV_RATE, k, 12 * t, D(0), sized(pay, k, credit))], sized(pay, k, credit),
                        [(D(1), FOV_RATE, k, 12 * t, D(0))],
                        t, ("fund", p["subcuenta"]), state, savings))
    # Bank
    income, debts, age = household(p, co)
    ltv = D("0.80") if p["tipo"] == "independiente" else D("0.90")
    t = term(BANK_TERM, BANK_AGE, age)
    k = per_peso(BANK_RATE, t, BANK_INS)
    pay = capacity(PTI * income, income, debts)
    credit = pay / k if k else D(0)
    reasons = bank_reasons(p)
    no_term_or_payment(reasons, t, pay)
    if t > 0 and pay > 0 and credit < BANK_MIN:
        reasons.append("CREDITO_MENOR_AL_MINIMO")
    offers.append(offer("HIPOTECA_BANCARIA", reasons, [(credit, BANK_RATE, k, 12 * t, BANK_FEE, pay)], pay,
                        [(D(1), BANK_RATE, k, 12 * t, BANK_FEE)], t, ("ltv", ltv), state, savings))
    # INFONAVIT + bank 70/30
    t = term(BANK_TERM, min(BANK_AGE, INF_AGE), age)
    kb, ki = per_peso(BANK_RATE, t, BANK_INS), per_peso(COFI_RATE, t, INF_LOAD)
    per = (1 - COFI_SHARE) * kb + COFI_SHARE * ki
    total = pay / per if per else D(0)
    if COFI_SHARE * total <= COFI_MAX:
        cb, ci = (1 - COFI_SHARE) * total, COFI_SHARE * total
    else:
        cb, ci = ((pay - COFI_MAX * ki) / kb if kb else D(0)), COFI_MAX
    # Only without an employer relation (active workers use Cofinavit), with an INFONAVIT balance.
    if p["tipo"] in ("asalariado", "mixto"):
        reasons = ["CON_RELACION_LABORAL"]
    elif (p.get("institucion") or "INFONAVIT") != "INFONAVIT" or p["subcuenta"] <= 0:
        reasons = ["SIN_SUBCUENTA_INFONAVIT"]
    else:
        reasons = bank_reasons(p)
        no_term_or_payment(reasons, t, pay)
        if t > 0 and pay > 0 and cb < BANK_MIN:
            reasons.append("CREDITO_MENOR_AL_MINIMO")
    parts = [(cb, BANK_RATE, kb, 12 * t, BANK_FEE), (ci, COFI_RATE, ki, 12 * t, D(0))]
    shape = [(1 - COFI_SHARE, BANK_RATE, kb, 12 * t, BANK_FEE), (COFI_SHARE, COFI_RATE, ki, 12 * t, D(0))]
    offers.append(offer("INFONAVIT_MAS_BANCO", reasons, parts, pay, shape, t, ("ltv", ltv), state,
                        savings + p["subcuenta"]))
    # Unamos Créditos
    reasons, rate, t, k, credit, paid = infonavit_one(p)
    if co is None:
        reasons.append("SIN_COACREDITADO")
        offers.append(offer("UNAMOS_CREDITOS", reasons, [], D(0), [(D(1), rate, k, 12 * t, D(0))], t, ("fund", D(0)),
                            state, savings))
    else:
        r2, rate2, t2, k2, credit2, paid2 = infonavit_one(co)
        if r2:
            reasons.append("COACREDITADO_NO_ELEGIBLE")
        total = credit + credit2
        scale = UNAMOS_MAX / total if total > UNAMOS_MAX else D(1)
        if scale == 1:
            parts = [(credit, rate, k, 12 * t, D(0), paid), (credit2, rate2, k2, 12 * t2, D(0), paid2)]
        else:
            parts = [(credit * scale, rate, k, 12 * t, D(0)), (credit2 * scale, rate2, k2, 12 * t2, D(0))]
        payment = paid + paid2 if scale == 1 else credit * scale * k + credit2 * scale * k2
        offers.append(offer("UNAMOS_CREDITOS", reasons, parts, payment, [(D(1), rate, k, 12 * t, D(0))], max(t, t2),
                            ("fund", p["subcuenta"] + co["subcuenta"]), state, savings))
    # Cofinavit: for active payroll workers of INFONAVIT. INFONAVIT's part from its 30% payroll
    # discount at 10.45%, capped at 325 UMAs; the bank's from its 30% of the household income
    # within the 40% debt limit less INFONAVIT's payment; both over the bank's term.
    t = term(BANK_TERM, min(BANK_AGE, INF_AGE), age)
    kb, ki = per_peso(BANK_RATE, t, BANK_INS), per_peso(COFINAVIT_RATE, t, INF_LOAD)
    cb = ci = fpaid = bpay = D(0)
    if p["tipo"] not in ("asalariado", "mixto"):
        reasons = ["SIN_RELACION_LABORAL"]
    elif not fund(p, "INFONAVIT"):
        reasons = ["NO_DERECHOHABIENTE_INFONAVIT"]
    else:
        fpay = capacity(COFINAVIT_SHARE * salary(p["tipo"], p["ingreso"]), p["ingreso"], p["deudas"])
        ci = min(fpay / ki, COFINAVIT_MAX) if ki else D(0)
        fpaid = sized(fpay, ki, ci)
        bpay = max(D(0), min(PTI * income, DTI * income - debts - fpaid))
        cb = bpay / kb if kb else D(0)
        reasons = bank_reasons(p)
        if p["antiguedad"] < INF_SEN:
            reasons.append("ANTIGUEDAD_INSUFICIENTE")
        no_term_or_payment(reasons, t, fpaid + bpay)
        if t > 0 and fpaid + bpay > 0 and cb < BANK_MIN:
            reasons.append("CREDITO_MENOR_AL_MINIMO")
    parts = [(cb, BANK_RATE, kb, 12 * t, BANK_FEE, bpay), (ci, COFINAVIT_RATE, ki, 12 * t, D(0), fpaid)]
    offers.append(offer("COFINAVIT", reasons, parts, bpay + fpaid, [(D(1), BANK_RATE, kb, 12 * t, BANK_FEE)], t,
                        ("ltv", ltv), state, savings + p["subcuenta"]))
    # Recommendation: covered first, then highest value, lower CAT, product order.
    eligible = [(i, o, e) for i, (o, e) in enumerate(offers) if o["elegible"]]
    best = None
    if eligible:
        best = min(eligible, key=lambda t: (not (t[2]["funds"] >= t[2]["down"] + t[2]["costs"]), -t[2]["value"],
                                            t[2]["cat"], t[0]))[1]["producto"]
    return dict(productos=[o for o, _ in offers], producto_recomendado=best)


def person(ingreso, tipo, antiguedad, edad=None, deudas="0", subcuenta="0", institucion=None):
    p = dict(ingreso=D(ingreso), tipo=tipo, antiguedad=antiguedad, edad=edad, deudas=D(deudas), subcuenta=D(subcuenta))
    if institucion:
        p["institucion"] = institucion
    return p


CASES = {
    "cdmx_asalariado_30000": dict(estado="CMX", ahorro=D("100000"),
                                  titular=person("30000", "asalariado", 36, 35, "0", "54000")),
    "jal_fovissste_22000": dict(estado="JAL", ahorro=D("50000"),
                                titular=person("22000", "asalariado", 48, 40, "2000", "80000", "FOVISSSTE")),
    "nle_unamos_18000_15000": dict(estado="NLE", ahorro=D("30000"),
                                   titular=person("18000", "asalariado", 24, 30, "0", "40000"),
                                   coacreditado=person("15000", "asalariado", 12, 28, "500", "20000")),
    "cmx_independiente_60000": dict(estado="CMX", ahorro=D("600000"),
                                    titular=person("60000", "independiente", 36, 45, "5000")),
    "chp_ingreso_47": dict(estado="CHP", ahorro=D("329924"), titular=person("47", "asalariado", 111)),
    "yuc_edad_72": dict(estado="YUC", ahorro=D("200000"), titular=person("40000", "asalariado", 120, 72, "0", "300000")),
    "mex_mixto_200000": dict(estado="MEX", ahorro=D("1000000"),
                             titular=person("200000", "mixto", 60, None, "10000", "500000")),
    "pue_unamos_tope": dict(estado="PUE", ahorro=D("0"),
                            titular=person("150000", "asalariado", 60, 30, "0", "100000"),
                            coacreditado=person("150000", "asalariado", 60, 30, "0", "100000")),
    "son_antiguedad_3": dict(estado="SON", ahorro=D("20000"), titular=person("12000", "asalariado", 3, 25)),
    # Self-employed with the balance of a past INFONAVIT account: the 70/30 scheme is for them.
    # A salaried worker whose INFONAVIT part reaches Cofinavit's cap (325 UMAs).
    "jal_cofinavit_tope": dict(estado="JAL", ahorro=D("900000"),
                               titular=person("60000", "asalariado", 48, 38, "0", "150000")),
    "qro_independiente_subcuenta": dict(estado="QUE", ahorro=D("150000"),
                                        titular=person("45000", "independiente", 36, 40, "0", "250000")),
}


def as_json(value):
    if isinstance(value, D):
        return str(value)
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return value


def case_json(case):
    def p_json(p):
        out = dict(ingreso_mensual=str(p["ingreso"]), tipo_ingreso=p["tipo"], antiguedad_meses=p["antiguedad"],
                   edad=p["edad"], deudas_mensuales=str(p["deudas"]), subcuenta_fondo=str(p["subcuenta"]))
        out["institucion"] = p.get("institucion")
        return out
    out = dict(estado=case["estado"], ahorro=str(case["ahorro"]), titular=p_json(case["titular"]))
    out["coacreditado"] = p_json(case["coacreditado"]) if case.get("coacreditado") else None
    return out


def main():
    data = {name: dict(entrada=case_json(c), esperado=as_json(evaluate(c))) for name, c in CASES.items()}
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    path = Path(__file__).with_name("products_expected.json")
    if "--check" in sys.argv:
        if path.read_text(encoding="utf-8") != text:
            sys.exit(f"{path} is out of date: run {sys.argv[0]}")
        return
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
