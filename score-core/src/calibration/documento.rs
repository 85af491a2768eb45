//! The calibration document's shape: what a TOML calibration may say, key by key. Reading it
//! (`leer`) refuses any key it does not name, so a typo never silently keeps a default figure.

use super::valor::Valor;
use serde::Serialize;
use std::collections::BTreeMap;

/// `campos()` and `campos_mut()` of a shape whose fields are all of one type, by key, in
/// document order: the one list of its keys that reading, checking and listing figures share.
macro_rules! campos {
    ($tipo:ty, $campo:ty, $n:literal: $($f:ident),+ $(,)?) => {
        impl $tipo {
            /// Every field, by its key, in document order.
            pub(crate) fn campos(&self) -> [(&'static str, &$campo); $n] {
                [$((stringify!($f), &self.$f)),+]
            }

            /// Every field, by its key, to fill in.
            pub(crate) fn campos_mut(&mut self) -> [(&'static str, &mut $campo); $n] {
                [$((stringify!($f), &mut self.$f)),+]
            }
        }
    };
}

/// The whole document (`score-core/calibration/mx-2026.toml` is the embedded one).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Documento {
    /// Names this set of figures; every report made with it carries it as `calibracion`.
    pub id: String,
    /// The date from which these figures apply, `AAAA-MM-DD`.
    pub vigente_desde: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub descripcion: Option<String>,
    pub general: General,
    pub curvas: Curvas,
    pub gastos_cierre: GastosCierre,
    pub productos: Vec<ProductoCalibrado>,
    pub estados: Vec<EstadoCalibrado>,
    /// Every source the figures name, by the key they name it with.
    pub fuentes: BTreeMap<String, Fuente>,
}

/// A published source: who published what, when and where.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Fuente {
    pub editor: String,
    pub titulo: String,
    /// `AAAA-MM-DD`.
    pub fecha: String,
    pub direccion: String,
}

/// One figure with where it comes from: a source (`fuente`, a key of `fuentes`) or, for an
/// estimate, the reason (`estimacion`), never both. Figures that differ by income type give the
/// other types' values beside `valor` (which is then the salaried buyer's and the default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Cifra {
    pub valor: Valor,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub independiente: Option<Valor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mixto: Option<Valor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pensionado: Option<Valor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuente: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimacion: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nota: Option<String>,
}

/// A piecewise-linear curve: `(x, y)` points joined by straight lines, with its origin.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Curva {
    pub puntos: Vec<(Valor, Valor)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuente: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimacion: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nota: Option<String>,
}

/// The figures every product and the score share (MODEL.md section 11).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct General {
    pub salario_minimo_diario: Cifra,
    pub dias_por_mes: Cifra,
    pub uma_diaria: Cifra,
    /// `AAAA-MM-DD`: the UMA changes every February.
    pub uma_vigente_desde: String,
    pub linea_pobreza_urbana: Cifra,
    pub personas_hogar_default: Cifra,
    pub factor_min: Cifra,
    pub factor_max: Cifra,
    pub puntos_deudas_no_declaradas: Cifra,
    pub proporcion_deudas_no_declaradas: Cifra,
    pub puntos_tipo_asalariado: Cifra,
    pub puntos_tipo_mixto: Cifra,
    pub puntos_tipo_pensionado: Cifra,
    pub puntos_tipo_independiente: Cifra,
    pub pti_max: Cifra,
    pub dti_total_max: Cifra,
    pub rendimiento_renta_anual: Cifra,
    pub aportacion_fondo: Cifra,
    pub tope_sbc_umas: Cifra,
    pub meses_fondo_max: Cifra,
    pub proporcion_salario_mixto: Cifra,
    pub m2_nucleo_base: Cifra,
    pub m2_por_dormitorio_extra: Cifra,
    pub factor_muros_circulacion: Cifra,
    pub personas_por_dormitorio: Cifra,
    pub umbral_m2_adecuado: Cifra,
    pub umbral_m2_holgado: Cifra,
    pub umbral_enganche_parcial: Cifra,
    pub umbral_recomendacion: Cifra,
    pub max_recomendaciones_componente: Cifra,
}

campos!(General, Cifra, 29:
    salario_minimo_diario, dias_por_mes, uma_diaria, linea_pobreza_urbana, personas_hogar_default,
    factor_min, factor_max, puntos_deudas_no_declaradas, proporcion_deudas_no_declaradas,
    puntos_tipo_asalariado, puntos_tipo_mixto, puntos_tipo_pensionado, puntos_tipo_independiente,
    pti_max, dti_total_max, rendimiento_renta_anual, aportacion_fondo, tope_sbc_umas,
    meses_fondo_max, proporcion_salario_mixto, m2_nucleo_base, m2_por_dormitorio_extra,
    factor_muros_circulacion, personas_por_dormitorio, umbral_m2_adecuado, umbral_m2_holgado,
    umbral_enganche_parcial, umbral_recomendacion, max_recomendaciones_componente,
);

/// The score's curves (MODEL.md section 3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Curvas {
    pub ingreso: Curva,
    pub antiguedad_asalariado: Curva,
    pub antiguedad_independiente: Curva,
    pub deudas: Curva,
    pub ahorro: Curva,
    pub ahorro_cobertura: Curva,
    pub salud_financiera: Curva,
}

campos!(Curvas, Curva, 7:
    ingreso, antiguedad_asalariado, antiguedad_independiente, deudas, ahorro, ahorro_cobertura,
    salud_financiera,
);

/// Closing costs besides each state's transfer tax, over the home's value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct GastosCierre {
    pub notario: Cifra,
    pub registro: Cifra,
    pub avaluo: Cifra,
}

/// What kind of credit a product is: which rules of PRODUCTS.md section 2 it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TipoProducto {
    /// INFONAVIT's crédito tradicional (2.1).
    Infonavit,
    /// FOVISSSTE's crédito tradicional (2.2).
    Fovissste,
    /// A bank mortgage (2.3).
    Bancario,
    /// Cuenta Infonavit + Crédito Bancario (2.4).
    InfonavitMasBanco,
    /// Unamos Créditos (2.5).
    UnamosCreditos,
    /// Cofinavit (2.6): optional, at most one.
    Cofinavit,
}

impl TipoProducto {
    /// Every kind, in the order of PRODUCTS.md section 2.
    pub(crate) const TODOS: [TipoProducto; 6] = [
        TipoProducto::Infonavit,
        TipoProducto::Fovissste,
        TipoProducto::Bancario,
        TipoProducto::InfonavitMasBanco,
        TipoProducto::UnamosCreditos,
        TipoProducto::Cofinavit,
    ];

    /// As written in the document.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            TipoProducto::Infonavit => "infonavit",
            TipoProducto::Fovissste => "fovissste",
            TipoProducto::Bancario => "bancario",
            TipoProducto::InfonavitMasBanco => "infonavit_mas_banco",
            TipoProducto::UnamosCreditos => "unamos_creditos",
            TipoProducto::Cofinavit => "cofinavit",
        }
    }
}

/// One credit product. Which keys it must and may have depends on its `tipo`
/// (`validar::campos_de`): a bank's own mortgage is `tipo = "bancario"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct ProductoCalibrado {
    pub clave: String,
    pub nombre: String,
    pub tipo: TipoProducto,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasa_anual: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasa_por_umas: Option<Curva>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cargo_mensual: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comision_apertura: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seguro_vida_mensual: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seguro_danos_mensual: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ltv_max: Option<Cifra>,
    /// INFONAVIT's payment over salary by salary in monthly UMAs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pago_por_umas: Option<Curva>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pago_max_sobre_ingreso: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plazo_max_anios: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edad_mas_plazo_max: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub antiguedad_min_meses: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credito_max: Option<Cifra>,
    /// A cap the law sets in monthly UMAs, converted with the calibration's UMA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credito_max_umas: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credito_min: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ingreso_min: Option<Cifra>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parte_infonavit: Option<Cifra>,
    /// The bank product (its `clave`) that lends the bank's part of a 70/30 or Cofinavit credit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banco: Option<String>,
}

impl ProductoCalibrado {
    /// A product with no figures: what the rules read of a kind the document does not have.
    pub(crate) const SIN_CIFRAS: ProductoCalibrado = ProductoCalibrado {
        clave: String::new(),
        nombre: String::new(),
        tipo: TipoProducto::Bancario,
        tasa_anual: None,
        tasa_por_umas: None,
        cargo_mensual: None,
        comision_apertura: None,
        seguro_vida_mensual: None,
        seguro_danos_mensual: None,
        ltv_max: None,
        pago_por_umas: None,
        pago_max_sobre_ingreso: None,
        plazo_max_anios: None,
        edad_mas_plazo_max: None,
        antiguedad_min_meses: None,
        credito_max: None,
        credito_max_umas: None,
        credito_min: None,
        ingreso_min: None,
        parte_infonavit: None,
        banco: None,
    };
}

campos!(ProductoCalibrado, Option<Cifra>, 15:
    tasa_anual, cargo_mensual, comision_apertura, seguro_vida_mensual, seguro_danos_mensual,
    ltv_max, pago_max_sobre_ingreso, plazo_max_anios, edad_mas_plazo_max, antiguedad_min_meses,
    credito_max, credito_max_umas, credito_min, ingreso_min, parte_infonavit,
);

/// One state's figures (MODEL.md section 10, PRODUCTS.md section 4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct EstadoCalibrado {
    /// INEGI key, `"01"`..`"32"`, in that order.
    pub clave: String,
    pub factor: Cifra,
    pub precio_m2: Cifra,
    pub isai: Cifra,
}
