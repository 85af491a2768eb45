//! Invariants of score model v2.1, checked on random valid profiles (proptest), and a
//! fuzz-style check that no JSON input, however malformed, makes the model panic.

use proptest::prelude::*;
use rust_decimal::Decimal;
mod incluida;
use incluida::cifra;
use score_core::{CodigoDictamen, Condicion, Nivel, Profile, ScoreReport, State};
use serde_json::{Value, json};

/// Money with cents, from 0.01 to about 10 million.
fn amount(max_cents: i64) -> impl Strategy<Value = Decimal> {
    (1i64..max_cents).prop_map(|c| Decimal::new(c, 2))
}

fn income_type() -> impl Strategy<Value = score_core::IncomeType> {
    prop::sample::select(score_core::IncomeType::ALL.to_vec())
}

prop_compose! {
    fn profile()(
        estado in 1u8..=32,
        ingreso_mensual in amount(50_000_000),
        tipo_ingreso in income_type(),
        antiguedad_meses in 0u32..=720,
        deudas_mensuales in prop::option::of(amount(5_000_000).prop_map(|d| d - Decimal::new(1, 2))),
        ahorro in amount(500_000_000).prop_map(|a| a - Decimal::new(1, 2)),
        edad in prop::option::of(18u32..=100),
        personas_hogar in prop::option::of(1u32..=20),
        subcuenta_fondo in prop::option::of(amount(100_000_000)),
        institucion in prop::option::of(prop::sample::select(score_core::Institucion::ALL.to_vec())),
        coacreditado in prop::option::weighted(0.3, coacreditado()),
    ) -> Profile {
        let mut p = Profile {
            estado: State::from_inegi(estado).expect("1..=32"),
            ingreso_mensual, tipo_ingreso, antiguedad_meses, deudas_mensuales, ahorro,
            edad, personas_hogar, subcuenta_fondo, institucion, coacreditado: None,
        };
        p.coacreditado = coacreditado.and_then(|draw| co_of(&p, draw));
        p
    }
}

/// A co-borrower's draw: shares of the household's income and declared debts, the rest as is.
type CoDraw = (u32, score_core::IncomeType, u32, Option<u32>, Option<u32>, Option<Decimal>, Option<score_core::Institucion>);

fn coacreditado() -> impl Strategy<Value = CoDraw> {
    (
        1u32..100,
        income_type(),
        0u32..=720,
        prop::option::of(18u32..=100),
        prop::option::of(0u32..=100),
        prop::option::of(amount(100_000_000)),
        prop::option::of(prop::sample::select(score_core::Institucion::ALL.to_vec())),
    )
}

/// The co-borrower of a draw for household `p` (none when its share rounds to nothing, or to
/// the whole income).
fn co_of(p: &Profile, draw: CoDraw) -> Option<score_core::Coacreditado> {
    let (share, tipo_ingreso, antiguedad_meses, edad, debt_share, subcuenta_fondo, institucion) = draw;
    let part = |total: Decimal, share: u32| (total * Decimal::from(share) / Decimal::ONE_HUNDRED).round_dp(2);
    let ingreso_mensual = part(p.ingreso_mensual, share);
    (ingreso_mensual > Decimal::ZERO && ingreso_mensual < p.ingreso_mensual).then(|| score_core::Coacreditado {
        ingreso_mensual,
        tipo_ingreso,
        antiguedad_meses,
        edad,
        deudas_mensuales: p.deudas_mensuales.zip(debt_share).map(|(d, s)| part(d, s)),
        subcuenta_fondo,
        institucion,
    })
}

fn report(p: &Profile) -> ScoreReport {
    score_core::score(p).expect("generated profiles are valid")
}

fn components(r: &ScoreReport) -> [Decimal; 6] {
    let c = &r.componentes;
    [c.ingreso.valor, c.tipo_ingreso.valor, c.antiguedad.valor, c.deudas.valor, c.ahorro.valor, c.salud_financiera.valor]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn score_and_components_stay_in_range(p in profile()) {
        let r = report(&p);
        prop_assert!(r.score <= 1000);
        for v in components(&r) {
            prop_assert!(v >= Decimal::ZERO && v <= Decimal::ONE_HUNDRED, "component {v}");
        }
        prop_assert!(r.salud_financiera.score >= Decimal::ZERO && r.salud_financiera.score <= Decimal::ONE_HUNDRED);
    }

    #[test]
    fn level_matches_the_score_range(p in profile()) {
        let r = report(&p);
        let expected = match r.score { 0..=400 => Nivel::Bajo, 401..=600 => Nivel::Medio, 601..=800 => Nivel::Alto, _ => Nivel::Excelente };
        prop_assert_eq!(r.nivel, expected);
    }

    #[test]
    fn valor_realista_follows_the_formula(p in profile()) {
        let c = report(&p).capacidad_compra_estimada;
        let ajuste = (Decimal::TWO - c.factor_platform_v2).clamp(Decimal::new(7, 1), Decimal::new(13, 1));
        // Exactly, on the shown figures, rounded half away from zero to cents.
        let from_shown = score_core::money::money(c.valor_bancario * ajuste);
        prop_assert_eq!(c.valor_realista, from_shown);
        prop_assert!(c.factor_platform_v2 >= Decimal::new(7, 1) && c.factor_platform_v2 <= Decimal::new(13, 1));
    }

    #[test]
    fn more_income_never_lowers_the_score(p in profile(), extra in amount(5_000_000)) {
        let mut richer = p.clone();
        richer.ingreso_mensual = (p.ingreso_mensual + extra).min(Decimal::from(100_000_000));
        prop_assert!(report(&richer).score >= report(&p).score);
    }

    #[test]
    fn more_seniority_never_lowers_the_score(p in profile(), extra in 0u32..200) {
        let mut senior = p.clone();
        senior.antiguedad_meses = (p.antiguedad_meses + extra).min(720);
        prop_assert!(report(&senior).score >= report(&p).score);
    }

    #[test]
    fn more_savings_never_lowers_the_score(p in profile(), extra in amount(100_000_000)) {
        let mut saver = p.clone();
        saver.ahorro = p.ahorro + extra;
        prop_assert!(report(&saver).score >= report(&p).score);
    }

    #[test]
    fn more_declared_debt_never_raises_the_score(p in profile(), extra in amount(2_000_000)) {
        let base = Profile { deudas_mensuales: Some(p.deudas_mensuales.unwrap_or(Decimal::ZERO)), ..p.clone() };
        let indebted = Profile { deudas_mensuales: base.deudas_mensuales.map(|d| d + extra), ..p };
        prop_assert!(report(&indebted).score <= report(&base).score);
    }

    #[test]
    fn scoring_is_deterministic_and_json_round_trips(p in profile()) {
        let r = report(&p);
        prop_assert_eq!(&r, &report(&p));
        let text = r.to_json_string();
        // The direct JSON writer writes what the derived `Serialize` defines, byte for byte.
        prop_assert_eq!(&serde_json::to_string(&r).expect("a report serializes"), &text);
        let back: ScoreReport = serde_json::from_str(&text).expect("the report reads back");
        prop_assert_eq!(&back, &r);
        prop_assert_eq!(back.to_json_string(), text);
        // The profile's canonical JSON reads back to the same profile.
        let again = Profile::from_json_value(&p.to_json_value()).expect("canonical profile is valid");
        prop_assert_eq!(again, p);
    }

    /// An income below the household's decent cost of living in its state never scores above
    /// 600 (`medio`), however strong the rest (issue 17); at most half of it, savings add nothing.
    #[test]
    fn income_below_the_cost_of_living_scores_at_most_600(p in profile(), share in 1u32..100) {
        let costo = report(&p).salud_financiera.costo_vida_digno;
        let mut poor = Profile { coacreditado: None, ..p.clone() };
        // A share of the household's cost of living, at least one centavo.
        poor.ingreso_mensual = (costo * rust_decimal::Decimal::from(share) / rust_decimal::Decimal::ONE_HUNDRED)
            .round_dp(2)
            .max(rust_decimal::Decimal::new(1, 2));
        prop_assume!(poor.ingreso_mensual < costo);
        let r = report(&poor);
        prop_assert!(r.score <= 600, "{:?} scores {}", poor, r.score);
        if poor.ingreso_mensual * rust_decimal::Decimal::TWO <= costo {
            prop_assert!(r.componentes.ahorro.valor.is_zero());
        }
    }

    /// A report with no credit never pre-qualifies (issue 17).
    #[test]
    fn no_credit_never_prequalifies(p in profile()) {
        let r = report(&p);
        if r.capacidad_compra_estimada.credito_max.is_zero() {
            prop_assert!(!r.dictamen.precalifica);
            prop_assert_eq!(r.dictamen.condicion, Condicion::NoPrecalifica);
        }
        prop_assert_eq!(r.dictamen.precalifica, r.dictamen.condicion != Condicion::NoPrecalifica);
        let knocked_out = r.dictamen.motivos.iter().any(|m| m.codigo.excluye());
        prop_assert_eq!(knocked_out, r.dictamen.condicion == Condicion::NoPrecalifica);
        prop_assert_eq!(r.dictamen.motivos.is_empty(), r.dictamen.condicion == Condicion::Precalifica);
    }

    /// Leaving debts out equals declaring the typical ratio for capacity and financial health
    /// (the Debts component stays neutral, and the verdict is conditioned).
    #[test]
    fn undeclared_debts_give_the_capacity_of_the_typical_ratio(p in profile()) {
        // The co-borrower's part of the debts needs the household's declared.
        let mut p = p;
        if let Some(co) = p.coacreditado.as_mut() {
            co.deudas_mensuales = None;
        }
        let mut hidden = p.clone();
        hidden.deudas_mensuales = None;
        let mut typical = p.clone();
        typical.deudas_mensuales = Some(cifra("general.proporcion_deudas_no_declaradas") * p.ingreso_mensual);
        let (h, t) = (report(&hidden), report(&typical));
        prop_assert_eq!(&h.capacidad_compra_estimada, &t.capacidad_compra_estimada);
        prop_assert_eq!(&h.salud_financiera, &t.salud_financiera);
        prop_assert_eq!(&h.productos, &t.productos);
        prop_assert_eq!(h.componentes.deudas.valor, cifra("general.puntos_deudas_no_declaradas"));
        prop_assert!(h.dictamen.condicion != Condicion::Precalifica);
        prop_assert!(h.dictamen.motivos.iter().any(|m| m.codigo == CodigoDictamen::DeudasNoDeclaradas));
    }

    /// When the verdict is not PRECALIFICA, the first recommendation is about its first reason.
    #[test]
    fn the_first_recommendation_explains_the_verdict(p in profile()) {
        let r = report(&p);
        if let Some(first) = r.dictamen.motivos.first() {
            let rec = r.recomendaciones_detalle[0].codigo.as_str();
            let expected: &[&str] = match first.codigo.as_str() {
                "ENGANCHE_Y_GASTOS_NO_CUBIERTOS" => &["ENGANCHE_INSUFICIENTE", "GASTOS_DE_CIERRE_PENDIENTES"],
                "PAGO_COMPROMETE_COSTO_DE_VIDA" => &["SALUD_FINANCIERA_AJUSTADA"],
                same => &[same][..],
            };
            prop_assert!(expected.contains(&rec), "{} first for {}", rec, first.codigo.as_str());
        }
    }

    /// Every report lists the five credit products in their order, and recommends an available
    /// one exactly when there is one.
    #[test]
    fn the_recommended_product_is_available(p in profile()) {
        let r = report(&p);
        let order: Vec<_> = r.productos.iter().map(|o| o.producto).collect();
        prop_assert_eq!(order, score_core::products::Producto::ALL.map(score_core::products::Producto::clave).to_vec());
        match r.producto_recomendado {
            Some(best) => prop_assert!(r.productos.iter().any(|o| o.producto == best && o.elegible)),
            None => prop_assert!(r.productos.iter().all(|o| !o.elegible)),
        }
    }

    #[test]
    fn legacy_keys_mirror_the_capacity_block(p in profile()) {
        let r = report(&p);
        let c = &r.capacidad_compra_estimada;
        prop_assert_eq!(r.valor_vivienda_max, c.valor_bancario);
        prop_assert_eq!(r.credito_max, c.credito_max);
        prop_assert_eq!(r.enganche_min, c.enganche_requerido);
        prop_assert_eq!(r.pago_mensual_estimado, c.pago_mensual_estimado);
        prop_assert_eq!(r.renta_estimada, c.renta_equivalente);
        prop_assert_eq!(r.recomendaciones.len(), r.recomendaciones_detalle.len());
    }

    /// Every simulation is exactly the report of the profile with its changes applied, gains
    /// score or credit, and they come most score gained first; simulations off leave the rest
    /// of the report unchanged.
    #[test]
    fn every_simulation_equals_rescoring_the_changed_profile(p in profile()) {
        let r = report(&p);
        prop_assert!(r.simulaciones.len() <= 4);
        for s in &r.simulaciones {
            // The changes applied as a user applies them: to the profile's JSON, each field by
            // its path (a co-borrower's inside `coacreditado`, made when the change adds one),
            // each `antes` the field's value in the profile scored.
            let mut changed = p.to_json_value();
            for c in &s.cambios {
                let (object, key) = match c.campo.as_str().split_once('.') {
                    Some((parent, key)) => {
                        let inner = changed.as_object_mut().expect("a profile is an object").entry(parent).or_insert_with(|| json!({}));
                        (inner.as_object_mut().expect("an object"), key)
                    }
                    None => (changed.as_object_mut().expect("a profile is an object"), c.campo.as_str()),
                };
                prop_assert_eq!(object.get(key).cloned().unwrap_or(Value::Null), serde_json::to_value(c.antes).expect("a value"), "{:?}", c.campo);
                match c.despues {
                    Some(despues) => object.insert(key.to_owned(), serde_json::to_value(despues).expect("a value")),
                    None => object.remove(key),
                };
            }
            let changed = Profile::from_json_value(&changed).expect("a simulated profile is valid");
            let again = score_core::score(&changed).expect("a simulated profile is valid");
            prop_assert_eq!(s.score, again.score, "{:?}", s.accion);
            prop_assert_eq!(s.nivel, again.nivel);
            prop_assert_eq!(s.credito_max, again.capacidad_compra_estimada.credito_max);
            prop_assert!(s.score > r.score || s.credito_max > r.credito_max, "{:?} gains nothing", s.accion);
            if s.accion == score_core::AccionSimulacion::SumarCoacreditado {
                // The credit gained is the pooled one.
                prop_assert_eq!(again.producto_recomendado, Some(score_core::products::Producto::UnamosCreditos.clave()));
            }
            if let Some(meses) = s.meses_para_siguiente_nivel {
                // The fewest months: one less does not reach the next level.
                prop_assert!(again.nivel > r.nivel);
                let mut one_less = p.clone();
                one_less.antiguedad_meses = p.antiguedad_meses + meses - 1;
                prop_assert_eq!(report(&one_less).nivel, r.nivel);
            }
        }
        prop_assert!(r.simulaciones.windows(2).all(|w| w[0].score >= w[1].score));
        let off = score_core::score_with(&p, score_core::Opciones { simulaciones: false, ..score_core::Opciones::default() }).expect("valid");
        prop_assert!(off.simulaciones.is_empty());
        prop_assert_eq!(ScoreReport { simulaciones: Vec::new(), ..r.clone() }, off);
        // A frame's report (neither the list nor the what-ifs) is the rest of the full one.
        let bare = score_core::score_with(&p, score_core::Opciones { simulaciones: false, productos: false }).expect("valid");
        prop_assert_eq!(ScoreReport { simulaciones: Vec::new(), productos: Vec::new(), producto_recomendado: None, ..r }, bare);
    }
}

/// Arbitrary JSON values, biased towards the profile's own field names so that the fuzzing
/// reaches deep into validation rather than stopping at UNKNOWN_FIELD.
fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map(Value::Number).unwrap_or(Value::Null)),
        "[a-zA-Z0-9 áéíóúñ-]{0,12}".prop_map(Value::String),
        prop::sample::select(vec!["CMX", "09", "Nuevo León", "asalariado", "mixto", "MX-JAL", "33", ""]).prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(3, 24, 9, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    prop::sample::select(score_core::FIELDS.to_vec()).prop_map(str::to_owned),
                    "[a-z_]{1,10}",
                ],
                inner,
                0..10,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Profiles whose fields are mostly valid, each sometimes absent, null, out of range, of the
/// wrong type or fractional where a count belongs, sometimes with an extra key.
fn near_valid_json() -> impl Strategy<Value = Value> {
    let amount = prop_oneof![
        4 => (0u64..20_000_000).prop_map(|c| json!(c as f64 / 100.0)),
        2 => (0i64..200_000).prop_map(|i| json!(i)),
        1 => Just(json!(-5)),
        1 => Just(json!(1e30)),
        1 => Just(json!("1000")),
        1 => Just(Value::Null),
        1 => Just(json!(true)),
    ];
    let count = prop_oneof![
        4 => (0i64..130).prop_map(|i| json!(i)),
        1 => (0i64..130).prop_map(|i| json!(i as f64)),
        1 => Just(json!(36.5)),
        1 => Just(json!(-1)),
        1 => Just(json!(5_000_000_000i64)),
        1 => Just(json!([1])),
        1 => Just(Value::Null),
    ];
    let text = |valid: Vec<&'static str>| {
        prop_oneof![
            4 => prop::sample::select(valid).prop_map(|s| json!(s)),
            1 => Just(json!("XX")),
            1 => Just(json!(9)),
            1 => Just(Value::Null),
        ]
    };
    (
        text(vec!["CMX", "09", "Jalisco", " nle ", "MX-YUC"]),
        amount.clone(),
        text(vec!["asalariado", "Mixto", "independiente", "pensionado"]),
        count.clone(),
        prop::option::of(amount.clone()),
        prop::option::of(amount.clone()),
        prop::option::of(count.clone()),
        prop::option::of(count),
        prop::option::of(amount),
        prop::option::of(prop::sample::select(vec!["extra", "Estado", "ahorros"])),
    )
        .prop_map(|(estado, ingreso, tipo, antiguedad, deudas, ahorro, edad, personas, subcuenta, extra)| {
            let mut m = serde_json::Map::new();
            m.insert("estado".into(), estado);
            m.insert("ingreso_mensual".into(), ingreso);
            m.insert("tipo_ingreso".into(), tipo);
            m.insert("antiguedad_meses".into(), antiguedad);
            let optional = [("deudas_mensuales", deudas), ("ahorro", ahorro), ("edad", edad), ("personas_hogar", personas), ("subcuenta_fondo", subcuenta)];
            for (k, v) in optional {
                if let Some(v) = v {
                    m.insert(k.into(), v);
                }
            }
            if let Some(k) = extra {
                m.insert(k.into(), json!(1));
            }
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5_000, ..ProptestConfig::default() })]

    #[test]
    fn any_json_value_gives_a_report_or_a_coded_error(v in arbitrary_json()) {
        match score_core::score_value(&v) {
            Ok(r) => prop_assert!(r.score <= 1000),
            Err(e) => {
                prop_assert!(!e.message.is_empty());
                prop_assert!(score_core::ErrorCode::ALL.contains(&e.code));
            }
        }
    }

    /// The JSON text reader (which takes a fast path for plain profiles) and the JSON value
    /// reader give the same profile or the same error.
    #[test]
    fn text_and_value_readers_agree(v in prop_oneof![arbitrary_json(), near_valid_json()]) {
        prop_assert_eq!(score_core::Profile::from_json_str(&v.to_string()), score_core::Profile::from_json_value(&v));
    }

    #[test]
    fn any_text_gives_a_report_or_a_coded_error(s in "\\PC{0,64}") {
        let _ = score_core::score_json(&s);
    }
}
