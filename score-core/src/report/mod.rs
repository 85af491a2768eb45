//! The score report: the spec's `platform_score` object (section 2.4) plus additive keys that
//! explain it. Keys are snake_case; amounts are JSON numbers (see [`crate::money`]).
//!
//! This file holds the report's parts, below the products and the model that fill them (they
//! depend on money and the profile's enums only); the files it declares sit higher and are not
//! re-exported here: the whole report, which carries the products' offers
//! ([`score_report`]), the what-ifs ([`simulacion`]), its JSON writer and its schema
//! (`ARCHITECTURE.md`).

use crate::money;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub(crate) mod json;
pub mod schema;
pub(crate) mod score_report;
pub(crate) mod simulacion;

/// Static Spanish text or text read back from JSON.
pub type Text = Cow<'static, str>;

/// A report's list of stable reasons: static when the report is computed, owned when read back
/// from JSON (see [`seleccion`]).
pub type Lista<T> = Cow<'static, [T]>;

/// The items of `todos` whose bits are set in `bits` (bit `i` for `todos[i]`), in order: a
/// slice of `todos` when they are consecutive there (none, or one, as nearly every list of
/// reasons is), so the list allocates nothing; a copy otherwise.
pub(crate) fn seleccion<T: Clone>(todos: &'static [T], bits: u32) -> Lista<T> {
    let desde = bits.trailing_zeros() as usize;
    let hasta = (u32::BITS - bits.leading_zeros()) as usize;
    match todos.get(desde..hasta) {
        Some(consecutivos) if bits.count_ones() as usize == consecutivos.len() => Cow::Borrowed(consecutivos),
        _ if bits == 0 => Cow::Borrowed(&[]),
        _ => Cow::Owned(todos.iter().enumerate().filter(|(i, _)| bits >> i & 1 != 0).map(|(_, t)| t.clone()).collect()),
    }
}

/// Score level of spec 2.5, shown lowercase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nivel {
    /// 0..=400: the profile needs improvement.
    Bajo,
    /// 401..=600: standard approval or rent to own.
    Medio,
    /// 601..=800: high approval probability.
    Alto,
    /// 801..=1000: preferential credit.
    Excelente,
}

impl Nivel {
    /// The level of a score; boundaries belong to the lower level (400 is bajo, 401 medio).
    pub const fn from_score(score: u16) -> Nivel {
        match score {
            0..=400 => Nivel::Bajo,
            401..=600 => Nivel::Medio,
            601..=800 => Nivel::Alto,
            _ => Nivel::Excelente,
        }
    }

    /// Lowercase wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Nivel::Bajo => "bajo",
            Nivel::Medio => "medio",
            Nivel::Alto => "alto",
            Nivel::Excelente => "excelente",
        }
    }
}

/// Assessment of the reachable area against the core dwelling for the household.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EvaluacionM2 {
    /// Below the core dwelling: only progressive or self-built housing.
    Insuficiente,
    /// From the core dwelling up to 1.25 times it.
    NucleoBasico,
    /// From 1.25 up to 1.75 times the core dwelling.
    Adecuado,
    /// 1.75 times the core dwelling or more.
    Holgado,
}

impl EvaluacionM2 {
    /// Wire name (`"NUCLEO_BASICO"`, ...), the same as its JSON form.
    pub const fn as_str(self) -> &'static str {
        match self {
            EvaluacionM2::Insuficiente => "INSUFICIENTE",
            EvaluacionM2::NucleoBasico => "NUCLEO_BASICO",
            EvaluacionM2::Adecuado => "ADECUADO",
            EvaluacionM2::Holgado => "HOLGADO",
        }
    }
}

/// Down-payment status: available funds against the required down payment and closing costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EstatusEnganche {
    /// No credit capacity, so no down payment applies.
    NoAplica,
    /// Nothing available while a down payment is required.
    SinEnganche,
    /// Less than half of the required down payment.
    Insuficiente,
    /// At least half of the down payment, not all of it.
    Parcial,
    /// The down payment is covered, the closing costs are not.
    CubiertoSinGastos,
    /// Down payment and closing costs are covered.
    Cubierto,
}

impl EstatusEnganche {
    /// Wire name (`"CUBIERTO_SIN_GASTOS"`, ...), the same as its JSON form.
    pub const fn as_str(self) -> &'static str {
        match self {
            EstatusEnganche::NoAplica => "NO_APLICA",
            EstatusEnganche::SinEnganche => "SIN_ENGANCHE",
            EstatusEnganche::Insuficiente => "INSUFICIENTE",
            EstatusEnganche::Parcial => "PARCIAL",
            EstatusEnganche::CubiertoSinGastos => "CUBIERTO_SIN_GASTOS",
            EstatusEnganche::Cubierto => "CUBIERTO",
        }
    }
}

/// `capacidad_compra_estimada`: the 14 keys of spec 2.4 plus the inputs that produced them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapacidadCompra {
    /// Home value a bank would finance: credit divided by LTV.
    #[serde(with = "money::number")]
    pub valor_bancario: Decimal,
    /// valor_bancario x clamp(2 - factor_platform_v2, 0.7, 1.3): the value to show the user.
    #[serde(with = "money::number")]
    pub valor_realista: Decimal,
    /// State cost-of-living factor, 0.70..1.30.
    #[serde(with = "money::number")]
    pub factor_platform_v2: Decimal,
    /// Loan-to-value used.
    #[serde(with = "money::number")]
    pub ltv: Decimal,
    /// Monthly mortgage payment the income supports.
    #[serde(with = "money::number")]
    pub pago_mensual_estimado: Decimal,
    /// Largest credit that payment amortises.
    #[serde(with = "money::number")]
    pub credito_max: Decimal,
    /// Square metres valor_bancario buys at the state's price per m².
    #[serde(with = "money::number")]
    pub m2_alcanzables: Decimal,
    /// Core dwelling for the household size, m².
    #[serde(with = "money::number")]
    pub m2_minimo_nucleo: Decimal,
    /// Label of m2_alcanzables against m2_minimo_nucleo.
    pub evaluacion_m2: EvaluacionM2,
    /// Down payment the bank requires: valor_bancario x (1 - ltv).
    #[serde(with = "money::number")]
    pub enganche_requerido: Decimal,
    /// Savings plus the housing-fund sub-account.
    #[serde(with = "money::number")]
    pub enganche_disponible: Decimal,
    /// Housing-fund sub-account: declared, or estimated from income and seniority.
    #[serde(with = "money::number")]
    pub subcuenta_fondo_estimada: Decimal,
    /// Label of enganche_disponible against the down payment and closing costs.
    pub estatus_enganche: EstatusEnganche,
    /// Monthly rent of a home worth valor_bancario at the gross rental yield.
    #[serde(with = "money::number")]
    pub renta_equivalente: Decimal,
    /// Additive: closing costs of a home worth valor_bancario.
    #[serde(with = "money::number")]
    pub gastos_cierre_estimados: Decimal,
    /// Additive: nominal annual rate of the annuity.
    #[serde(with = "money::number")]
    pub tasa_anual: Decimal,
    /// Additive: loan term in years (shortened by age).
    pub plazo_anios: u32,
    /// Additive: price per m² of the state.
    #[serde(with = "money::number")]
    pub precio_m2_estado: Decimal,
}

/// `salud_financiera`: the ISFH block of spec 2.4.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaludFinanciera {
    /// The financial-health component, 0..100.
    #[serde(with = "money::number")]
    pub score: Decimal,
    /// Decent monthly cost of living of the household in its state.
    #[serde(with = "money::number")]
    pub costo_vida_digno: Decimal,
    /// Income left after that cost and declared debts (may be negative).
    #[serde(with = "money::number")]
    pub ingreso_disponible: Decimal,
    /// ingreso_disponible / ingreso_mensual (may be negative).
    #[serde(with = "money::number")]
    pub ratio: Decimal,
}

/// One component of the score: its 0..100 value, its weight and the points it adds
/// (valor x peso x 10). The points of the six components add up to the score before rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Componente {
    /// Value on the 0..100 scale, 2 decimals.
    #[serde(with = "money::number")]
    pub valor: Decimal,
    /// Weight in the score.
    #[serde(with = "money::number")]
    pub peso: Decimal,
    /// Contribution to the 0..1000 score, 2 decimals.
    #[serde(with = "money::number")]
    pub puntos: Decimal,
}

/// The six components of spec 2.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Componentes {
    /// Monthly household income (35%).
    pub ingreso: Componente,
    /// Income type (12%).
    pub tipo_ingreso: Componente,
    /// Seniority (18%).
    pub antiguedad: Componente,
    /// Debt-to-income (15%).
    pub deudas: Componente,
    /// Savings against annual income (10%).
    pub ahorro: Componente,
    /// Financial health, ISFH (10%).
    pub salud_financiera: Componente,
}

/// Which part of the profile a recommendation is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum CodigoRecomendacion {
    /// Income component is weak.
    IngresoBajo,
    /// Income is hard to prove (self-employed, mixed, pensioner).
    IngresoPocoComprobable,
    /// Seniority component is weak.
    AntiguedadCorta,
    /// Debt-to-income is high.
    DeudaAlta,
    /// Savings are low against income.
    AhorroBajo,
    /// Little income left after the cost of living and debts.
    SaludFinancieraAjustada,
    /// Debts were not declared, so they were scored as neutral.
    DeudasNoDeclaradas,
    /// The monthly budget leaves nothing for a mortgage payment.
    SinCapacidadDePago,
    /// Age shortens the loan term.
    PlazoLimitadoPorEdad,
    /// Available funds do not cover the down payment.
    EngancheInsuficiente,
    /// The down payment is covered, the closing costs are not.
    GastosDeCierrePendientes,
    /// The reachable home is below the core dwelling for the household.
    ViviendaBajoNucleo,
    /// Nothing to improve: a solid profile.
    PerfilSolido,
    /// Age leaves no loan term at all.
    SinPlazoPorEdad,
    /// Income below the minimum the housing-credit products accept.
    IngresoMenorAlMinimo,
    /// Declared debts above the products' total debt-to-income limit.
    DeudaMayorAlLimite,
    /// No credit product is available (each product's `motivos` say why).
    SinProductoDisponible,
}

impl CodigoRecomendacion {
    /// Every code, in documentation order.
    pub const ALL: [CodigoRecomendacion; 17] = [
        Self::IngresoBajo,
        Self::IngresoPocoComprobable,
        Self::AntiguedadCorta,
        Self::DeudaAlta,
        Self::AhorroBajo,
        Self::SaludFinancieraAjustada,
        Self::DeudasNoDeclaradas,
        Self::SinCapacidadDePago,
        Self::PlazoLimitadoPorEdad,
        Self::EngancheInsuficiente,
        Self::GastosDeCierrePendientes,
        Self::ViviendaBajoNucleo,
        Self::PerfilSolido,
        Self::SinPlazoPorEdad,
        Self::IngresoMenorAlMinimo,
        Self::DeudaMayorAlLimite,
        Self::SinProductoDisponible,
    ];

    /// Stable wire name (`"DEUDAS_NO_DECLARADAS"`, ...), the same as its JSON form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::IngresoBajo => "INGRESO_BAJO",
            Self::IngresoPocoComprobable => "INGRESO_POCO_COMPROBABLE",
            Self::AntiguedadCorta => "ANTIGUEDAD_CORTA",
            Self::DeudaAlta => "DEUDA_ALTA",
            Self::AhorroBajo => "AHORRO_BAJO",
            Self::SaludFinancieraAjustada => "SALUD_FINANCIERA_AJUSTADA",
            Self::DeudasNoDeclaradas => "DEUDAS_NO_DECLARADAS",
            Self::SinCapacidadDePago => "SIN_CAPACIDAD_DE_PAGO",
            Self::PlazoLimitadoPorEdad => "PLAZO_LIMITADO_POR_EDAD",
            Self::EngancheInsuficiente => "ENGANCHE_INSUFICIENTE",
            Self::GastosDeCierrePendientes => "GASTOS_DE_CIERRE_PENDIENTES",
            Self::ViviendaBajoNucleo => "VIVIENDA_BAJO_NUCLEO",
            Self::PerfilSolido => "PERFIL_SOLIDO",
            Self::SinPlazoPorEdad => "SIN_PLAZO_POR_EDAD",
            Self::IngresoMenorAlMinimo => "INGRESO_MENOR_AL_MINIMO",
            Self::DeudaMayorAlLimite => "DEUDA_MAYOR_AL_LIMITE",
            Self::SinProductoDisponible => "SIN_PRODUCTO_DISPONIBLE",
        }
    }
}

/// A recommendation with a stable code and a Spanish text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recomendacion {
    /// Stable machine code.
    pub codigo: CodigoRecomendacion,
    /// Spanish text for the buyer.
    pub texto: Text,
}

/// The verdict's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Condicion {
    /// No knock-out and no open condition.
    Precalifica,
    /// No knock-out, but a condition is open (debts not declared, funds short of the down
    /// payment plus closing costs).
    Condicionado,
    /// A knock-out applies: no credit under the products' rules.
    NoPrecalifica,
}

impl Condicion {
    /// Every outcome, in declaration order.
    pub const ALL: [Condicion; 3] = [Condicion::Precalifica, Condicion::Condicionado, Condicion::NoPrecalifica];

    /// Wire name (`"NO_PRECALIFICA"`, ...), the same as its JSON form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Condicion::Precalifica => "PRECALIFICA",
            Condicion::Condicionado => "CONDICIONADO",
            Condicion::NoPrecalifica => "NO_PRECALIFICA",
        }
    }
}

/// Why the verdict is what it is: knock-outs first, then conditions, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum CodigoDictamen {
    /// Knock-out: income below one monthly minimum wage, the least the products accept.
    IngresoMenorAlMinimo,
    /// Knock-out: declared debts above the total debt-to-income limit.
    DeudaMayorAlLimite,
    /// Knock-out: age leaves no loan term.
    SinPlazoPorEdad,
    /// Knock-out: the largest credit is 0 (no payment left, as shown to the cent).
    SinCapacidadDePago,
    /// Knock-out: no credit product is available for another reason (seniority, the bank's
    /// smallest credit, the housing fund); each product's `motivos` say which.
    SinProductoDisponible,
    /// Condition: debts were not declared (capacity assumes the typical ratio).
    DeudasNoDeclaradas,
    /// Condition: savings and sub-account do not cover the down payment plus closing costs.
    EngancheYGastosNoCubiertos,
    /// Condition: the credit's payment is more than what is left after the household's decent
    /// cost of living in its state and its debts.
    PagoComprometeCostoDeVida,
}

impl CodigoDictamen {
    /// Every code, in the order the verdict lists them.
    pub const ALL: [CodigoDictamen; 8] = [
        Self::IngresoMenorAlMinimo,
        Self::DeudaMayorAlLimite,
        Self::SinPlazoPorEdad,
        Self::SinCapacidadDePago,
        Self::SinProductoDisponible,
        Self::DeudasNoDeclaradas,
        Self::EngancheYGastosNoCubiertos,
        Self::PagoComprometeCostoDeVida,
    ];

    /// Stable wire name, the same as its JSON form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::IngresoMenorAlMinimo => "INGRESO_MENOR_AL_MINIMO",
            Self::DeudaMayorAlLimite => "DEUDA_MAYOR_AL_LIMITE",
            Self::SinPlazoPorEdad => "SIN_PLAZO_POR_EDAD",
            Self::SinCapacidadDePago => "SIN_CAPACIDAD_DE_PAGO",
            Self::SinProductoDisponible => "SIN_PRODUCTO_DISPONIBLE",
            Self::DeudasNoDeclaradas => "DEUDAS_NO_DECLARADAS",
            Self::EngancheYGastosNoCubiertos => "ENGANCHE_Y_GASTOS_NO_CUBIERTOS",
            Self::PagoComprometeCostoDeVida => "PAGO_COMPROMETE_COSTO_DE_VIDA",
        }
    }

    /// True for a knock-out (the verdict is then `NO_PRECALIFICA`).
    pub const fn excluye(self) -> bool {
        matches!(
            self,
            Self::IngresoMenorAlMinimo
                | Self::DeudaMayorAlLimite
                | Self::SinPlazoPorEdad
                | Self::SinCapacidadDePago
                | Self::SinProductoDisponible
        )
    }
}

/// One reason of the verdict: a stable code and a Spanish sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotivoDictamen {
    /// Stable machine code.
    pub codigo: CodigoDictamen,
    /// Spanish text for the buyer.
    pub texto: Text,
}

/// `dictamen`: does the buyer pre-qualify for a housing credit, separately from the score
/// (which ranks profiles as the spec's formula says, and can be high for a profile that does
/// not qualify, e.g. a high income whose debts leave no payment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dictamen {
    /// True when `condicion` is not `NO_PRECALIFICA`.
    pub precalifica: bool,
    /// The outcome.
    pub condicion: Condicion,
    /// Every knock-out and condition that applies, in [`CodigoDictamen::ALL`] order.
    pub motivos: Lista<MotivoDictamen>,
}

/// Identification of the state the profile was scored for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EstadoReporte {
    /// INEGI key.
    pub clave: Text,
    /// ISO 3166-2:MX code without `MX-`.
    pub codigo: Text,
    /// Official name.
    pub nombre: Text,
}

/// Version of the score model implemented by this crate (spec section 9).
pub const MODEL_VERSION: &str = "2.1";
/// The embedded calibration's `id`, read from its text when the crate is compiled
/// ([`crate::calibration::EMBEDDED_ID`]): the curves, tables and product rules (their values
/// and sources, MODEL.md) that produced a report made with the default figures.
/// `MODEL_VERSION` names the spec's formula and weights and stays "2.1"; the calibration's
/// `id` changes whenever a curve, table or rule does, so a stored report says which set of
/// figures it was computed with.
pub const CALIBRATION: &str = crate::calibration::EMBEDDED_ID;
/// The disclaimer every report carries.
pub const DISCLAIMER: &str = "Este puntaje es indicativo y se calcula con la información declarada; no constituye una aprobación ni una oferta de crédito. La aprobación final depende del análisis de cada institución financiera.";

#[cfg(test)]
mod tests {
    use super::*;

    fn wire<T: Serialize>(value: T) -> String {
        serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }

    /// `as_str` and the serde form are the same names, so bindings can use either.
    #[test]
    fn as_str_matches_the_json_names() {
        for n in [Nivel::Bajo, Nivel::Medio, Nivel::Alto, Nivel::Excelente] {
            assert_eq!(n.as_str(), wire(n));
        }
        for e in [EvaluacionM2::Insuficiente, EvaluacionM2::NucleoBasico, EvaluacionM2::Adecuado, EvaluacionM2::Holgado] {
            assert_eq!(e.as_str(), wire(e));
        }
        use EstatusEnganche::*;
        for e in [NoAplica, SinEnganche, Insuficiente, Parcial, CubiertoSinGastos, Cubierto] {
            assert_eq!(e.as_str(), wire(e));
        }
        for c in CodigoRecomendacion::ALL {
            assert_eq!(c.as_str(), wire(c));
        }
        for c in Condicion::ALL {
            assert_eq!(c.as_str(), wire(c));
        }
        for c in CodigoDictamen::ALL {
            assert_eq!(c.as_str(), wire(c));
        }
    }

    /// Every subset of a list of reasons, as `seleccion` gives it: the items of the set bits in
    /// order, borrowed from the table exactly when they are consecutive in it (or none), and
    /// bits beyond the table ignored. The products' reasons index the table by their enum's
    /// order, which must be `Motivo::ALL`'s.
    #[test]
    fn a_selection_is_its_items_in_order_borrowed_when_consecutive() {
        static TABLA: [u8; 9] = [10, 11, 12, 13, 14, 15, 16, 17, 18];
        for bits in 0u32..(1 << 10) {
            let lista = seleccion(&TABLA, bits);
            let esperada: Vec<u8> = (0..9).filter(|i| bits >> i & 1 != 0).map(|i| TABLA[i]).collect();
            assert_eq!(&lista[..], &esperada[..], "{bits:b}");
            let dentro = bits & 0x1ff;
            let consecutivos = dentro == 0 || (dentro >> dentro.trailing_zeros()).trailing_ones() == dentro.count_ones();
            assert_eq!(matches!(lista, Cow::Borrowed(_)), consecutivos && dentro == bits, "{bits:b}");
        }
        for (i, m) in crate::products::Motivo::ALL.into_iter().enumerate() {
            assert_eq!(m as usize, i, "{m:?}");
        }
    }
}
