//! The figures a report is computed with, read once from a checked calibration document
//! ([`crate::Calibration`]): every decimal the model and the products read, the curves with their
//! breakpoints as filtered doubles, each state's figures, and every credit product's rules
//! (`calibration::reglas`), with the tables of the products whose terms depend only on the term,
//! which the products solve when the calibration is loaded (`products::carga`).
//!
//! The model receives a `&Cifras` and reads nothing else that a calibration can change; the
//! score's weights and formula (model 2.1) and the input's plausibility limits stay in
//! [`crate::params`].

use crate::approx::Approx;
use crate::calibration::documento::{Cifra, Documento};
use crate::calibration::lectura::{PorTipo, curva, entero};
use crate::calibration::producto::Producto;
use crate::calibration::reglas::{Base, ReglasProductos};
use crate::calibration::clave::Clave;
use crate::curve::Curve;
use crate::fast_decimal::{Orden, por};
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// One state's figures, by INEGI code − 1.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct EstadoCifras {
    /// `factor_platform_v2`: cost of living over the national mean.
    pub factor: Decimal,
    /// Housing price per m², MXN.
    pub precio_m2: Decimal,
    /// Transfer tax over the value.
    pub isai: Decimal,
    /// All closing costs over the value: ISAI + notary + registry + appraisal.
    pub gastos_cierre: Decimal,
    /// `clamp(2 − factor, factor_min, factor_max)`: what the realistic value multiplies the
    /// bank value by in this state (worked out once, not at each report).
    pub ajuste_valor: Decimal,
    /// The decent cost of living of a household of the default size in this state
    /// ([`Cifras::costo_vida_digno`]), worked out once: most profiles do not state their size.
    pub costo_vida_hogar_default: Decimal,
}

/// Every figure of one calibration, as the model reads it.
#[derive(Debug, Clone)]
pub(crate) struct Cifras {
    /// The calibration's `id`: every report made with these figures carries it (borrowed from
    /// the embedded one's when it is that, so a report copies no text).
    pub id: std::borrow::Cow<'static, str>,
    /// One monthly general minimum wage, MXN: `salario_minimo_diario × 365 / 12` to the centavo.
    pub salario_minimo_mensual: Decimal,
    /// Monthly contribution-salary ceiling: `tope_sbc_umas × uma_mensual`.
    pub tope_salario_mensual: Decimal,
    pub linea_pobreza_urbana: Decimal,
    /// The core dwelling of a household of the default size ([`Cifras::m2_minimo_nucleo`]).
    pub nucleo_hogar_default: Decimal,
    /// Each household size a profile can state (1 to `PERSONAS_HOGAR_MAX`, at index size − 1):
    /// its core dwelling and its people times the poverty line, worked out once at load (a
    /// frame's rows state their household, and each computed both).
    pub por_personas: Vec<PorPersonas>,
    pub puntos_deudas_no_declaradas: Decimal,
    pub proporcion_deudas_no_declaradas: Decimal,
    pub puntos_tipo: PorTipo<Decimal>,
    pub dti_total_max: Decimal,
    pub rendimiento_renta_anual: Decimal,
    pub aportacion_fondo: Decimal,
    /// Months of contributions counted at most, a whole number.
    pub meses_fondo_max: i128,
    pub proporcion_salario_mixto: Decimal,
    pub m2_nucleo_base: Decimal,
    pub m2_por_dormitorio_extra: Decimal,
    pub factor_muros_circulacion: Decimal,
    pub personas_por_dormitorio: Decimal,
    pub umbral_m2_adecuado: Decimal,
    pub umbral_m2_holgado: Decimal,
    pub umbral_enganche_parcial: Decimal,
    pub umbral_recomendacion: Decimal,
    pub max_recomendaciones_componente: usize,
    pub curva_ingreso: Curve,
    pub curva_antiguedad_asalariado: Curve,
    pub curva_antiguedad_independiente: Curve,
    pub curva_deudas: Curve,
    pub curva_ahorro: Curve,
    pub curva_ahorro_cobertura: Curve,
    pub curva_salud_financiera: Curve,
    /// [`Cifras::puntos_deudas_no_declaradas`] as a filtered double.
    pub puntos_deudas_no_declaradas_approx: Approx,
    /// The 32 states, by INEGI code − 1.
    pub estados: Vec<EstadoCifras>,
    /// Every credit product's rules and the tables solved from them.
    pub productos: ReglasProductos,
    /// The calibration's other bank products, in its order: each as these figures with it as
    /// the bank mortgage (its rules' `claves` and `orden` name it). Empty in the embedded
    /// calibration.
    pub otros_bancos: Vec<Cifras>,
}

impl Cifras {
    /// The figures of a checked document (`validar::documento` accepted it: every key a
    /// product's `tipo` needs is there, curves rise, the 32 states are in order), the fixed
    /// products' tables still empty: the loader has the products solve them
    /// (`products::carga`).
    pub(crate) fn de(d: &Documento) -> Cifras {
        let g = &d.general;
        let v = |c: &Cifra| c.valor.0;
        let dias = v(&g.dias_por_mes);
        let uma_mensual = v(&g.uma_diaria) * dias;
        let gc = &d.gastos_cierre;
        let comunes = v(&gc.notario) + v(&gc.registro) + v(&gc.avaluo);
        let linea_pobreza_urbana = v(&g.linea_pobreza_urbana);
        let personas_hogar_default = v(&g.personas_hogar_default);
        let (factor_min, factor_max) = (v(&g.factor_min), v(&g.factor_max));
        let estados = d
            .estados
            .iter()
            .map(|e| {
                let factor = v(&e.factor);
                EstadoCifras {
                    factor,
                    precio_m2: v(&e.precio_m2),
                    isai: v(&e.isai),
                    gastos_cierre: v(&e.isai) + comunes,
                    ajuste_valor: Orden(Decimal::TWO - factor).clamp(Orden(factor_min), Orden(factor_max)).0,
                    costo_vida_hogar_default: costo_vida_digno(linea_pobreza_urbana, personas_hogar_default, factor),
                }
            })
            .collect();
        let mut cifras = Cifras {
            id: if d.id == crate::calibration::incluida::EMBEDDED_ID { crate::calibration::incluida::EMBEDDED_ID.into() } else { d.id.clone().into() },
            salario_minimo_mensual: salario_minimo_mensual(v(&g.salario_minimo_diario)),
            tope_salario_mensual: v(&g.tope_sbc_umas) * uma_mensual,
            linea_pobreza_urbana,
            nucleo_hogar_default: Decimal::ZERO,
            por_personas: Vec::new(),
            puntos_deudas_no_declaradas: v(&g.puntos_deudas_no_declaradas),
            proporcion_deudas_no_declaradas: v(&g.proporcion_deudas_no_declaradas),
            puntos_tipo: PorTipo {
                asalariado: v(&g.puntos_tipo_asalariado),
                mixto: v(&g.puntos_tipo_mixto),
                pensionado: v(&g.puntos_tipo_pensionado),
                independiente: v(&g.puntos_tipo_independiente),
            },
            dti_total_max: v(&g.dti_total_max),
            rendimiento_renta_anual: v(&g.rendimiento_renta_anual),
            aportacion_fondo: v(&g.aportacion_fondo),
            meses_fondo_max: v(&g.meses_fondo_max).trunc().mantissa(),
            proporcion_salario_mixto: v(&g.proporcion_salario_mixto),
            m2_nucleo_base: v(&g.m2_nucleo_base),
            m2_por_dormitorio_extra: v(&g.m2_por_dormitorio_extra),
            factor_muros_circulacion: v(&g.factor_muros_circulacion),
            personas_por_dormitorio: v(&g.personas_por_dormitorio),
            umbral_m2_adecuado: v(&g.umbral_m2_adecuado),
            umbral_m2_holgado: v(&g.umbral_m2_holgado),
            umbral_enganche_parcial: v(&g.umbral_enganche_parcial),
            umbral_recomendacion: v(&g.umbral_recomendacion),
            max_recomendaciones_componente: entero(v(&g.max_recomendaciones_componente)) as usize,
            curva_ingreso: curva(&d.curvas.ingreso),
            curva_antiguedad_asalariado: curva(&d.curvas.antiguedad_asalariado),
            curva_antiguedad_independiente: curva(&d.curvas.antiguedad_independiente),
            curva_deudas: curva(&d.curvas.deudas),
            curva_ahorro: curva(&d.curvas.ahorro),
            curva_ahorro_cobertura: curva(&d.curvas.ahorro_cobertura),
            curva_salud_financiera: curva(&d.curvas.salud_financiera),
            puntos_deudas_no_declaradas_approx: Approx::of(v(&g.puntos_deudas_no_declaradas)),
            estados,
            productos: ReglasProductos::vacias(),
            otros_bancos: Vec::new(),
        };
        cifras.nucleo_hogar_default = cifras.m2_minimo_nucleo(personas_hogar_default);
        let personas_max = u32::try_from(crate::params::PERSONAS_HOGAR_MAX.mantissa()).unwrap_or(0);
        cifras.por_personas = (1..=personas_max)
            .map(|p| PorPersonas {
                nucleo: cifras.m2_minimo_nucleo(Decimal::from(p)),
                linea_pobreza: por(linea_pobreza_urbana, Decimal::from(p)),
            })
            .collect();
        let gastos_cierre: Vec<Decimal> = cifras.estados.iter().map(|e| e.gastos_cierre).collect();
        let base = Base {
            uma_mensual,
            salario_minimo_mensual: cifras.salario_minimo_mensual,
            gastos_cierre: &gastos_cierre,
        };
        let (productos, otros) = ReglasProductos::de(d, &base);
        let otros_bancos = otros
            .into_iter()
            .map(|productos| Cifras { productos, ..cifras.clone() })
            .collect();
        cifras.productos = productos;
        cifras.otros_bancos = otros_bancos;
        cifras
    }

    /// The figures of another bank product, by its `clave`.
    fn otro_banco(&self, clave: Clave) -> Option<&Cifras> {
        self.otros_bancos.iter().find(|c| c.productos.clave(Producto::HipotecaBancaria) == clave)
    }

    /// The longest term in years of the product `clave`, of kind `tipo` (a bank's own product
    /// is of the bank mortgage's kind, and has its own term).
    pub(crate) fn plazo_max_de(&self, clave: Clave, tipo: Producto) -> u32 {
        let otro = if tipo == Producto::HipotecaBancaria { self.otro_banco(clave) } else { None };
        otro.map_or_else(|| self.productos.plazo_max(tipo), |otro| otro.productos.banco_plazo_max)
    }

    /// One state's figures.
    pub(crate) fn estado(&self, estado: crate::State) -> &EstadoCifras {
        &self.estados[usize::from(estado.inegi() - 1)]
    }

    /// The decent monthly cost of living of a household of `personas` (the default size when
    /// `None`) in `estado`: the urban poverty line per person times the people times the
    /// state's factor.
    pub(crate) fn costo_vida_digno(&self, estado: crate::State, personas: Option<u32>) -> Decimal {
        let e = self.estado(estado);
        match personas {
            None => e.costo_vida_hogar_default,
            Some(p) => match self.de_personas(p) {
                Some(t) => por(t.linea_pobreza, e.factor),
                None => costo_vida_digno(self.linea_pobreza_urbana, Decimal::from(p), e.factor),
            },
        }
    }

    /// The core dwelling of a household of `personas` (the default size when `None`), m²: the
    /// base area plus one more bedroom for each `personas_por_dormitorio` beyond the first,
    /// times the walls and circulation factor.
    pub(crate) fn nucleo(&self, personas: Option<u32>) -> Decimal {
        match personas {
            None => self.nucleo_hogar_default,
            Some(p) => self.de_personas(p).map_or_else(|| self.m2_minimo_nucleo(Decimal::from(p)), |t| t.nucleo),
        }
    }

    /// The figures of a household of `personas` worked out at load (`None` past the sizes a
    /// valid profile states, which are then computed).
    fn de_personas(&self, personas: u32) -> Option<&PorPersonas> {
        self.por_personas.get(usize::try_from(personas).ok()?.checked_sub(1)?)
    }

    fn m2_minimo_nucleo(&self, personas: Decimal) -> Decimal {
        let dormitorios = ceil_ratio(personas, self.personas_por_dormitorio).max(Decimal::ONE);
        por(
            self.m2_nucleo_base + por(self.m2_por_dormitorio_extra, dormitorios - Decimal::ONE),
            self.factor_muros_circulacion,
        )
    }

    /// The seniority curve of an income type.
    pub(crate) fn curva_antiguedad(&self, tipo: IncomeType) -> &Curve {
        match tipo {
            IncomeType::Independiente => &self.curva_antiguedad_independiente,
            _ => &self.curva_antiguedad_asalariado,
        }
    }
}

/// The figures of one household size that do not depend on the state ([`Cifras::por_personas`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PorPersonas {
    /// Its core dwelling, m² ([`Cifras::m2_minimo_nucleo`]).
    pub nucleo: Decimal,
    /// The urban poverty line times its people (the state's factor still to apply).
    pub linea_pobreza: Decimal,
}

/// The decent cost of living of `personas` at the poverty line `linea` in a state of `factor`.
fn costo_vida_digno(linea: Decimal, personas: Decimal, factor: Decimal) -> Decimal {
    por(por(linea, personas), factor)
}

/// `ceil(a / b)` for non-negative `a` and positive `b`: one integer division of the aligned
/// mantissas where they fit 64 bits, instead of a 28-digit decimal quotient.
fn ceil_ratio(a: Decimal, b: Decimal) -> Decimal {
    let widen = |d: Decimal, to: u32| {
        10u64.checked_pow(to - d.scale()).and_then(|f| u64::try_from(d.mantissa()).ok()?.checked_mul(f))
    };
    let scale = a.scale().max(b.scale());
    match (widen(a, scale), widen(b, scale)) {
        (Some(n), Some(d)) if d > 0 => Decimal::from(n.div_ceil(d)),
        _ => (a / b).ceil(),
    }
}

/// One monthly minimum wage from the daily one: `diario × 365 / 12`, to the centavo (CONASAMI's
/// convention: 315.04 a day is 9,582.47 a month; `dias_por_mes`, 30.4, is the UMA's).
pub(crate) fn salario_minimo_mensual(diario: Decimal) -> Decimal {
    crate::money::money(diario * Decimal::from(365) / Decimal::from(12))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::State;

    /// Each state's closing costs are its transfer tax plus the notary, registry and appraisal
    /// of the document, and stay inside the published 4–7% band (6–7% in CDMX; NeoJaus
    /// 2025-11-12).
    #[test]
    fn closing_costs_fall_in_the_published_band() {
        let c = Cifras::incluidas();
        let cal = crate::Calibration::default();
        let d = &cal.documento;
        let comunes = d.gastos_cierre.notario.valor.0 + d.gastos_cierre.registro.valor.0 + d.gastos_cierre.avaluo.valor.0;
        for estado in State::all() {
            let e = c.estado(estado);
            assert_eq!(e.gastos_cierre, e.isai + comunes, "{estado:?}");
            assert!(e.gastos_cierre >= Decimal::new(4, 2) && e.gastos_cierre <= Decimal::new(7, 2), "{estado:?}: {}", e.gastos_cierre);
        }
        let cdmx = c.estado(State::parse("CMX").expect("CMX")).gastos_cierre;
        assert!(cdmx >= Decimal::new(6, 2), "CDMX {cdmx}");
    }

    #[test]
    fn ceil_ratio_is_the_decimal_ceiling() {
        let d = crate::money::tests::d;
        for (a, b) in [("3.35", "2"), ("4", "2"), ("5", "2"), ("0", "2"), ("1", "0.3"), ("20", "2"), ("0.01", "2.5")] {
            assert_eq!(ceil_ratio(d(a), d(b)), (d(a) / d(b)).ceil(), "{a} / {b}");
        }
    }

    /// The figures worked out at load for each household size a profile can state are the
    /// ones computed for it, digit and scale alike, in every state; a size past the table is
    /// computed.
    #[test]
    fn each_household_size_reads_the_figures_it_computes() {
        let c = Cifras::incluidas();
        assert_eq!(c.por_personas.len(), 20);
        for p in 1..=21u32 {
            let personas = Decimal::from(p);
            assert_eq!(format!("{:?}", c.nucleo(Some(p))), format!("{:?}", c.m2_minimo_nucleo(personas)), "{p}");
            for estado in State::all() {
                let dicho = costo_vida_digno(c.linea_pobreza_urbana, personas, c.estado(estado).factor);
                assert_eq!(format!("{:?}", c.costo_vida_digno(estado, Some(p))), format!("{dicho:?}"), "{p} {estado:?}");
            }
        }
    }

    /// The figures worked out once per state and for the default household are the ones a
    /// household that states its size computes, digit and scale alike.
    #[test]
    fn the_default_household_figures_are_the_stated_ones() {
        let c = Cifras::incluidas();
        let cal = crate::Calibration::default();
        let g = &cal.documento.general;
        let personas = g.personas_hogar_default.valor.0;
        assert_eq!(format!("{:?}", c.nucleo(None)), format!("{:?}", c.m2_minimo_nucleo(personas)));
        for estado in State::all() {
            let e = c.estado(estado);
            let a = c.costo_vida_digno(estado, None);
            let dicho = costo_vida_digno(c.linea_pobreza_urbana, personas, e.factor);
            assert_eq!(format!("{a:?}"), format!("{dicho:?}"), "{estado:?}");
            let ajuste = (Decimal::TWO - e.factor).max(g.factor_min.valor.0).min(g.factor_max.valor.0);
            assert_eq!(e.ajuste_valor, ajuste, "{estado:?}");
        }
    }
}
