//! Credit products (issue 17, item 4): hand-checked examples of every product, Banxico's CAT,
//! and the invariants the verdict will rely on.
//!
//! The expected figures of `products_expected.json` are computed independently, from the rules
//! in PRODUCTS.md, by `products_check.py` (Python's `decimal` at 60 digits, no shared code);
//! `python3 score-core/tests/products_check.py` rewrites the file. Two of them are derived by
//! hand below.

mod incluida;

use incluida::{cifra, producto, puntos, salario_minimo_mensual, uma_mensual};
use proptest::prelude::*;
use rust_decimal::Decimal;
use score_core::products::{
    Coacreditado, Flujo, Institucion, Motivo, OfertaProducto, Producto, Solicitud, cat, cuota_por_peso, evaluar,
    evaluar_exacto, evaluar_filtrado,
};
use score_core::{IncomeType, State};
use serde_json::Value;
use std::str::FromStr;

fn d(text: &str) -> Decimal {
    Decimal::from_str(text).expect("decimal")
}

fn text(v: &Value) -> &str {
    v.as_str().expect("a text")
}

fn edad(v: &Value) -> Option<u32> {
    v.as_u64().map(|e| u32::try_from(e).expect("age"))
}

fn institucion(v: &Value) -> Option<Institucion> {
    v.as_str().map(|t| Institucion::parse(t).expect("institution"))
}

/// A borrower's fields (the applicant's are the same as a co-borrower's).
fn persona(v: &Value) -> Coacreditado {
    Coacreditado {
        ingreso_mensual: d(text(&v["ingreso_mensual"])),
        tipo_ingreso: IncomeType::parse(text(&v["tipo_ingreso"])).expect("type"),
        antiguedad_meses: u32::try_from(v["antiguedad_meses"].as_u64().expect("months")).expect("months"),
        edad: edad(&v["edad"]),
        deudas_mensuales: Some(d(text(&v["deudas_mensuales"]))),
        subcuenta_fondo: Some(d(text(&v["subcuenta_fondo"]))),
        institucion: institucion(&v["institucion"]),
    }
}

fn solicitud(entrada: &Value) -> Solicitud {
    let t = persona(&entrada["titular"]);
    Solicitud {
        estado: State::parse(text(&entrada["estado"])).expect("state"),
        ingreso_mensual: t.ingreso_mensual,
        tipo_ingreso: t.tipo_ingreso,
        antiguedad_meses: t.antiguedad_meses,
        edad: t.edad,
        deudas_mensuales: t.deudas_mensuales.expect("declared"),
        ahorro: d(text(&entrada["ahorro"])),
        subcuenta_fondo: t.subcuenta_fondo.expect("declared"),
        institucion: t.institucion,
        coacreditado: entrada["coacreditado"].as_object().map(|_| persona(&entrada["coacreditado"])),
    }
}

/// An offer written as the Python check writes it: decimals as their exact digits.
fn as_expected(o: &OfertaProducto) -> Value {
    let money = |x: Decimal| Value::String(x.to_string());
    serde_json::json!({
        "producto": o.producto.as_str(),
        "elegible": o.elegible,
        "tasa_anual": money(o.tasa_anual),
        "cat": o.cat.map_or(Value::Null, money),
        "plazo_anios": o.plazo_anios,
        "pago_mensual": money(o.pago_mensual),
        "credito_max": money(o.credito_max),
        "valor_vivienda_max": money(o.valor_vivienda_max),
        "enganche_requerido": money(o.enganche_requerido),
        "gastos_cierre": money(o.gastos_cierre),
        "total_pagado": money(o.total_pagado),
        "motivos": o.motivos.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
    })
}

fn expected() -> serde_json::Map<String, Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/products_expected.json");
    let text = std::fs::read_to_string(path).expect("products_expected.json");
    serde_json::from_str::<Value>(&text).expect("JSON").as_object().expect("an object").clone()
}

/// Every figure of every product of every example equals the independent Python computation,
/// digit for digit, and so does the recommendation.
#[test]
fn every_product_matches_the_independent_computation() {
    let cases = expected();
    assert!(cases.len() >= 9);
    let mut seen = std::collections::BTreeSet::new();
    for (name, case) in &cases {
        let got = evaluar(&solicitud(&case["entrada"]));
        let want = &case["esperado"];
        let productos: Vec<Value> = got.productos.iter().map(as_expected).collect();
        for (g, w) in productos.iter().zip(want["productos"].as_array().expect("products")) {
            assert_eq!(g, w, "{name}");
        }
        assert_eq!(productos.len(), 6, "{name}");
        let recomendado = got.producto_recomendado;
        let recomendado = recomendado.as_ref().map(|p| p.as_str());
        assert_eq!(recomendado, want["producto_recomendado"].as_str(), "{name}");
        for o in got.productos.iter().filter(|o| o.elegible) {
            seen.insert(o.producto);
        }
    }
    // Each product is available in at least one example.
    assert_eq!(seen.len(), Producto::ALL.len(), "{seen:?}");
}

/// Derived by hand: CDMX, salaried, 30,000 a month, 36 months, age 35, sub-account 54,000.
///
/// - INFONAVIT: 30,000 ÷ (117.31 × 30.4) = 8.41 UMAs ≥ 6.6, so 10.45%. Salary ≥ 3 UMAs:
///   payment limit 30% = 9,000 (the 40% debt limit, 12,000, does not bind). Term
///   min(30, 70 − 35) = 30 years. a(10.45%/12, 360) = 109.769094153...; per peso
///   1/a + 0.00008 = 0.009190032361...; credit 9,000 ÷ that = 979,321.905... → 979,321.91,
///   under the 2,935,002.35 cap. Value 979,321.91 + 54,000 = 1,033,321.91; closing costs at
///   4% ISAI + 1.5% + 0.6% + 0.25% = 6.35%: 65,615.94; total paid 9,000 × 360 = 3,240,000.
/// - Bank: 11.54% over min(20, 75 − 35) = 20 years: a = 93.528999674...; per peso
///   1/a + 0.00103 = 0.011721871007...; credit 9,000 ÷ that = 767,795.516... → 767,795.52;
///   value ÷ 0.90 = 853,106.13; down payment 85,310.61; total 9,000 × 240 + 1% fee 7,677.96
///   = 2,167,677.96.
#[test]
fn hand_checked_cdmx_example() {
    let case = &expected()["cdmx_asalariado_30000"];
    let got = evaluar(&solicitud(&case["entrada"]));
    let infonavit = &got.productos[0];
    assert_eq!((infonavit.tasa_anual, infonavit.plazo_anios), (d("0.1045"), 30));
    assert_eq!(infonavit.pago_mensual, d("9000.00"));
    assert_eq!(infonavit.credito_max.to_string(), "979321.91");
    assert_eq!(infonavit.valor_vivienda_max.to_string(), "1033321.91");
    assert_eq!(infonavit.gastos_cierre.to_string(), "65615.94");
    assert_eq!(infonavit.total_pagado.to_string(), "3240000.00");
    let banco = &got.productos[2];
    assert_eq!(banco.credito_max.to_string(), "767795.52");
    assert_eq!(banco.valor_vivienda_max.to_string(), "853106.13");
    assert_eq!(banco.enganche_requerido.to_string(), "85310.61");
    assert_eq!(banco.total_pagado.to_string(), "2167677.96");
    assert_eq!(got.producto_recomendado, Some(Producto::Infonavit.clave()));
}

/// The CAT constants reproduce their published anchors: INFONAVIT's simulator (3.5%, 30 years,
/// CAT 3.7% to one decimal; Informador 2025-08-30) and the market average (11.54%, 20 years,
/// CAT 14.0%, Banco de México December 2025 via El Universal 2026-02-22, with the 0.103%
/// monthly insurance).
#[test]
fn cat_reproduces_its_published_anchors() {
    let (infonavit, banco) = (producto("infonavit"), producto("bancario"));
    let infonavit_cargo = cifra(&format!("productos[{infonavit}].cargo_mensual"));
    let seguros = cifra(&format!("productos[{banco}].seguro_vida_mensual")) + cifra(&format!("productos[{banco}].seguro_danos_mensual"));
    let comision = cifra(&format!("productos[{banco}].comision_apertura"));
    let percent = |c: Decimal| score_core::money::round(c * Decimal::ONE_HUNDRED, 1);
    let credito = d("364582.34");
    let pago = credito * cuota_por_peso(d("0.035"), 360, infonavit_cargo);
    assert_eq!(percent(cat(credito, &[Flujo { pago, meses: 360 }]).expect("CAT")), d("3.7"));
    let pago = cuota_por_peso(d("0.1154"), 240, seguros);
    let c = cat(Decimal::ONE - comision, &[Flujo { pago, meses: 240 }]).expect("CAT");
    assert_eq!(percent(c), d("14.0"));
}

fn tipo() -> impl Strategy<Value = IncomeType> {
    prop::sample::select(IncomeType::ALL.to_vec())
}

fn fondo() -> impl Strategy<Value = Option<Institucion>> {
    prop::option::of(prop::sample::select(Institucion::ALL.to_vec()))
}

/// Money in cents, from 0 to `max` pesos.
fn pesos(max: i64) -> impl Strategy<Value = Decimal> {
    (0..=max * 100).prop_map(|c| Decimal::new(c, 2))
}

prop_compose! {
    fn coacreditado()(ingreso in pesos(300_000), tipo in tipo(), antiguedad in 0u32..120,
                      edad in prop::option::of(18u32..80), deudas in pesos(20_000),
                      subcuenta in pesos(500_000), institucion in fondo()) -> Coacreditado {
        Coacreditado { ingreso_mensual: ingreso, tipo_ingreso: tipo, antiguedad_meses: antiguedad, edad,
                       deudas_mensuales: Some(deudas), subcuenta_fondo: Some(subcuenta), institucion }
    }
}

prop_compose! {
    fn solicitud_cualquiera()(estado in 1u8..=32, ingreso in pesos(400_000), tipo in tipo(),
                              antiguedad in 0u32..240, edad in prop::option::of(18u32..90),
                              deudas in pesos(60_000), ahorro in pesos(3_000_000),
                              subcuenta in pesos(1_000_000), institucion in fondo(),
                              co in prop::option::of(coacreditado())) -> Solicitud {
        Solicitud { estado: State::from_inegi(estado).expect("state"), ingreso_mensual: ingreso,
                    tipo_ingreso: tipo, antiguedad_meses: antiguedad, edad, deudas_mensuales: deudas,
                    ahorro, subcuenta_fondo: subcuenta, institucion, coacreditado: co }
    }
}

/// INFONAVIT's rate for the applicant of `s` alone.
fn tasa_infonavit(s: &Solicitud) -> Decimal {
    let solo = Solicitud { coacreditado: None, ..s.clone() };
    let o = evaluar(&solo).productos.into_iter().find(|o| o.producto == Producto::Infonavit.clave());
    o.expect("INFONAVIT is always evaluated").tasa_anual
}

/// The co-borrower `co` of `s` applying alone, in the same state.
fn solo(s: &Solicitud, co: &Coacreditado) -> Solicitud {
    Solicitud {
        estado: s.estado,
        ingreso_mensual: co.ingreso_mensual,
        tipo_ingreso: co.tipo_ingreso,
        antiguedad_meses: co.antiguedad_meses,
        edad: co.edad,
        deudas_mensuales: co.deudas_mensuales.unwrap_or_default(),
        ahorro: Decimal::ZERO,
        subcuenta_fondo: co.subcuenta_fondo.unwrap_or_default(),
        institucion: co.institucion,
        coacreditado: None,
    }
}

/// The payment each product allows for this applicant: its payment-to-income limit (30% of
/// the household income for banks, at most 30% of each salary for the funds) within the 40%
/// total-debt limit.
fn limite_pago(s: &Solicitud, producto: Producto) -> Decimal {
    let co = s.coacreditado.as_ref();
    let dti = |ingreso: Decimal, deudas: Decimal| d("0.40") * ingreso - deudas;
    match producto {
        Producto::HipotecaBancaria | Producto::InfonavitMasBanco => {
            let ingreso = s.ingreso_mensual + co.map_or(Decimal::ZERO, |c| c.ingreso_mensual);
            let deudas = s.deudas_mensuales + co.map_or(Decimal::ZERO, |c| c.deudas_mensuales.unwrap_or_default());
            (d("0.30") * ingreso).min(dti(ingreso, deudas))
        }
        Producto::Infonavit | Producto::Fovissste => {
            (d("0.30") * s.ingreso_mensual).min(dti(s.ingreso_mensual, s.deudas_mensuales))
        }
        // INFONAVIT's payroll discount and the bank's payment together, within the household's
        // total-debt limit.
        Producto::Cofinavit => {
            let ingreso = s.ingreso_mensual + co.map_or(Decimal::ZERO, |c| c.ingreso_mensual);
            let deudas = s.deudas_mensuales + co.map_or(Decimal::ZERO, |c| c.deudas_mensuales.unwrap_or_default());
            dti(ingreso, deudas)
        }
        Producto::UnamosCreditos => {
            let c = co.expect("Unamos needs a co-borrower");
            (d("0.30") * s.ingreso_mensual).min(dti(s.ingreso_mensual, s.deudas_mensuales))
                + (d("0.30") * c.ingreso_mensual).min(dti(c.ingreso_mensual, c.deudas_mensuales.unwrap_or_default()))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Availability and figures agree: a product is available exactly when it says why not
    /// nothing, lends something and has a CAT; an unavailable one shows no money figures.
    #[test]
    fn eligibility_and_figures_agree(s in solicitud_cualquiera()) {
        let r = evaluar(&s);
        prop_assert_eq!(r.productos.len(), 6);
        for (o, p) in r.productos.iter().zip(Producto::ALL) {
            prop_assert_eq!(o.producto, p.clave());
            prop_assert_eq!(o.elegible, o.motivos.is_empty());
            if o.credito_max.is_zero() {
                prop_assert!(!o.elegible, "{:?} lends 0 but is available", p);
            }
            if o.elegible {
                prop_assert!(o.credito_max > Decimal::ZERO && o.plazo_anios > 0 && o.cat.is_some());
                prop_assert!(o.valor_vivienda_max >= o.credito_max);
                prop_assert!(o.total_pagado >= o.credito_max);
            } else {
                for figura in [o.pago_mensual, o.credito_max, o.valor_vivienda_max, o.enganche_requerido,
                               o.gastos_cierre, o.total_pagado] {
                    prop_assert!(figura.is_zero());
                }
            }
        }
        if let Some(p) = r.producto_recomendado {
            prop_assert!(r.productos.iter().any(|o| o.producto == p && o.elegible));
        } else {
            prop_assert!(r.productos.iter().all(|o| !o.elegible));
        }
    }

    /// The monthly payment stays within the product's limit.
    #[test]
    fn payment_within_the_products_limit(s in solicitud_cualquiera()) {
        for o in evaluar(&s).productos.iter().filter(|o| o.elegible) {
            let producto = Producto::de_clave(o.producto.as_str()).expect("a built-in product");
            let limite = score_core::money::money(limite_pago(&s, producto));
            prop_assert!(o.pago_mensual <= limite, "{:?}: {} > {}", o.producto, o.pago_mensual, limite);
        }
    }

    /// The CAT includes the interest, so it is never below the nominal rate. Unamos Créditos is
    /// two INFONAVIT credits, each at its borrower's rate and over its own term, and shows their
    /// rate weighted by credit; one CAT over both streams weighs the longer credit's rate more,
    /// so it may fall below that average (a short credit at a high rate beside a long one at a
    /// low rate), never below the lower of the two borrowers' own rates.
    #[test]
    fn cat_at_least_the_rate(s in solicitud_cualquiera()) {
        for o in evaluar(&s).productos {
            let Some(c) = o.cat else { continue };
            let piso = match &s.coacreditado {
                Some(co) if o.producto == Producto::UnamosCreditos.clave() => {
                    tasa_infonavit(&s).min(tasa_infonavit(&solo(&s, co)))
                }
                _ => o.tasa_anual,
            };
            prop_assert!(c >= piso, "{:?}: CAT {} < rate {} (shown {})", o.producto, c, piso, o.tasa_anual);
        }
    }

    /// More income never lends less, nor makes a product unavailable. Small raises too: a rate
    /// that rose in steps once lent less to a salary a few pesos higher.
    #[test]
    fn monotone_in_income(s in solicitud_cualquiera(), extra in prop_oneof![pesos(20), pesos(100_000)]) {
        let mut rico = s.clone();
        rico.ingreso_mensual += extra;
        let (antes, despues) = (evaluar(&s), evaluar(&rico));
        for (a, b) in antes.productos.iter().zip(&despues.productos) {
            prop_assert!(b.credito_max >= a.credito_max, "{:?}: {} then {}", a.producto, a.credito_max, b.credito_max);
            prop_assert!(b.elegible || !a.elegible, "{:?} lost with more income: {:?}", a.producto, b.motivos);
        }
    }

    /// Deterministic: the same input gives the same offers.
    #[test]
    fn deterministic(s in solicitud_cualquiera()) {
        prop_assert_eq!(evaluar(&s), evaluar(&s));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// The fast path (filtered doubles) shows exactly the offers of decimal arithmetic.
    #[test]
    fn filtered_equals_decimal(s in solicitud_cualquiera()) {
        prop_assert_eq!(evaluar(&s), evaluar_exacto(&s));
    }
}

/// The calibrations of `fixtures/calibraciones/dos-bancos.json`: two bank products each.
fn dos_bancos() -> Vec<score_core::Calibration> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/calibraciones/dos-bancos.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("dos-bancos.json")).expect("JSON");
    let embedded = score_core::calibration::EMBEDDED_TOML;
    doc["casos"]
        .as_array()
        .expect("casos")
        .iter()
        .map(|c| {
            let (from, to) = (text(&c["reemplazar"]), text(&c["por"]));
            score_core::Calibration::from_toml(&embedded.replacen(from, to, 1)).expect("valid")
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Under a calibration with two bank products, the fast path shows exactly the offers of
    /// decimal arithmetic (the other bank's offer included, from its own table of terms); both
    /// bank products are listed beside the funds' and the schemes', the bank mortgage third, and
    /// the recommended one is available.
    #[test]
    fn two_bank_products_filtered_equals_decimal(s in solicitud_cualquiera()) {
        for cal in dos_bancos() {
            let r = score_core::products::evaluar_calibrado(&s, &cal);
            prop_assert_eq!(&r, &score_core::products::evaluar_exacto_calibrado(&s, &cal));
            prop_assert_eq!(r.productos.len(), 7);
            prop_assert_eq!(r.productos[2].producto, Producto::HipotecaBancaria.clave());
            match r.producto_recomendado {
                Some(p) => prop_assert!(r.productos.iter().any(|o| o.producto == p && o.elegible)),
                None => prop_assert!(r.productos.iter().all(|o| !o.elegible)),
            }
        }
    }
}

/// Incomes on and a centavo around every point where a rule changes (the minimum wage, the
/// end of INFONAVIT's payment ramp, each edge of its rate table, a payment used up exactly by
/// debts, a cap equal to the capacity, the bank's smallest credit), and a plain sweep: the
/// filtered path either shows the decimal offers exactly or declines, and on the sweep it
/// declines for at most 0.5% of applicants (2 of 2,000 on 2026-11-25).
#[test]
fn filtered_path_agrees_on_ties_and_answers_almost_always() {
    let infonavit = producto("infonavit");
    let salario_minimo = salario_minimo_mensual();
    let mut ingresos = vec![salario_minimo, salario_minimo * Decimal::TWO];
    let tasas = puntos(&format!("productos[{infonavit}].tasa_por_umas"));
    let pagos = puntos(&format!("productos[{infonavit}].pago_por_umas"));
    ingresos.extend(tasas.iter().chain(&pagos).map(|&(umas, _)| umas * uma_mensual()));
    // The bank's smallest credit is 250,000: about 8,400 of income at 30% over 20 years.
    ingresos.extend((0..200).map(|i| Decimal::from(8_300 + i)));
    ingresos.push(cifra(&format!("productos[{}].credito_min", producto("bancario"))) / Decimal::from(30));
    let centavo = d("0.01");
    let mut casos = 0;
    let mut declinados = 0;
    for base in ingresos {
        for ingreso in [base - centavo, base, base + centavo, base * d("0.5"), base * d("2")] {
            for (tipo, deudas, co) in [
                (IncomeType::Asalariado, Decimal::ZERO, false),
                (IncomeType::Mixto, ingreso * d("0.4"), false),
                (IncomeType::Asalariado, ingreso * d("0.1"), true),
                (IncomeType::Independiente, d("1234.56"), false),
            ] {
                let s = Solicitud {
                    estado: State::parse("JAL").expect("JAL"),
                    ingreso_mensual: ingreso,
                    tipo_ingreso: tipo,
                    antiguedad_meses: 36,
                    edad: Some(40),
                    deudas_mensuales: deudas,
                    ahorro: d("150000"),
                    subcuenta_fondo: d("80000"),
                    institucion: None,
                    coacreditado: co.then(|| Coacreditado {
                        ingreso_mensual: ingreso,
                        tipo_ingreso: IncomeType::Asalariado,
                        antiguedad_meses: 36,
                        edad: Some(40),
                        deudas_mensuales: Some(Decimal::ZERO),
                        subcuenta_fondo: Some(d("80000")),
                        institucion: None,
                    }),
                };
                let exacto = evaluar_exacto(&s);
                casos += 1;
                match evaluar_filtrado(&s) {
                    Some(rapido) => assert_eq!(rapido, exacto, "{ingreso} {tipo:?}"),
                    None => declinados += 1,
                }
                assert_eq!(evaluar(&s), exacto);
            }
        }
    }
    // Capacities are exact decimals, so even built ties are decided; a figure within the
    // doubles' error of a rounding boundary still declines.
    assert!(declinados * 100 < casos, "{declinados} of {casos} declined");
    let (mut barridos, mut declinados) = (0, 0);
    for i in 0..2_000u64 {
        let entero = |x: u64| u32::try_from(x).expect("small");
        let s = Solicitud {
            estado: State::from_inegi(u8::try_from(i % 32 + 1).expect("state")).expect("state"),
            ingreso_mensual: Decimal::new(i64::try_from(500_000 + i * 9_973_117 % 20_000_000).expect("cents"), 2),
            tipo_ingreso: IncomeType::ALL[usize::try_from(i % 4).expect("index")],
            antiguedad_meses: entero(i * 7 % 100),
            edad: Some(entero(20 + i * 11 % 60)),
            deudas_mensuales: Decimal::new(i64::try_from(i * 31_337 % 1_500_000).expect("cents"), 2),
            ahorro: Decimal::from(i * 997 % 800_000),
            subcuenta_fondo: Decimal::from(i * 661 % 300_000),
            institucion: None,
            coacreditado: None,
        };
        barridos += 1;
        match evaluar_filtrado(&s) {
            Some(rapido) => assert_eq!(rapido, evaluar_exacto(&s)),
            None => declinados += 1,
        }
    }
    assert!(declinados * 200 <= barridos, "{declinados} of {barridos} declined");
}

/// Up to INFONAVIT's first salary band and above its last, the filtered path reads the
/// credit's terms and CAT from a table by term (`fijos`): at every age, so every term from 30
/// years down to none, on and around each band's edge, for a salaried buyer and for the
/// self-employed (payroll salary 0, refused with the terms shown), it shows the decimal offers
/// exactly.
#[test]
fn infonavit_outside_its_rate_table_reads_every_term_alike() {
    // The rate table's first and last bands, in pesos.
    let tasas = puntos(&format!("productos[{}].tasa_por_umas", producto("infonavit")));
    let (piso, tope) = (tasas[0].0 * uma_mensual(), tasas[tasas.len() - 1].0 * uma_mensual());
    let ingresos = [piso, piso - d("0.01"), piso + d("0.0000000001"), tope, tope + d("0.0000000001"), tope + d("0.01"), d("30000"), d("185000.55")];
    for (ingreso, tipo) in ingresos.iter().map(|&i| (i, IncomeType::Asalariado)).chain([(d("30000"), IncomeType::Independiente)]) {
        for edad in 18..=72 {
            let s = Solicitud {
                estado: State::parse("CMX").expect("CMX"),
                ingreso_mensual: ingreso,
                tipo_ingreso: tipo,
                antiguedad_meses: 36,
                edad: Some(edad),
                deudas_mensuales: Decimal::ZERO,
                ahorro: d("100000"),
                subcuenta_fondo: d("54000"),
                institucion: None,
                coacreditado: None,
            };
            let exacto = evaluar_exacto(&s);
            assert_eq!(evaluar_filtrado(&s).as_ref(), Some(&exacto), "{ingreso} at {edad}");
        }
    }
}

/// Inputs beyond validation (negative or huge amounts, age 100) give a result, never a panic.
#[test]
fn total_on_extreme_inputs() {
    for (ingreso, deudas, edad) in
        [("-5", "0", Some(30)), ("100000000", "0", Some(18)), ("0", "-3", None), ("1", "100000000", Some(100))]
    {
        let s = Solicitud {
            estado: State::parse("CMX").expect("CMX"),
            ingreso_mensual: d(ingreso),
            tipo_ingreso: IncomeType::Asalariado,
            antiguedad_meses: 720,
            edad,
            deudas_mensuales: d(deudas),
            ahorro: d("10000000000"),
            subcuenta_fondo: d("10000000000"),
            institucion: None,
            coacreditado: None,
        };
        let r = evaluar(&s);
        assert_eq!(r.productos.len(), 6);
    }
    assert_eq!(Motivo::SinCoacreditado.as_str(), "SIN_COACREDITADO");
}
