//! Why a credit product is not available: stable UPPER_SNAKE_CASE codes (PRODUCTS.md section 5)
//! and their Spanish sentences.

use serde::{Deserialize, Serialize};

/// Why a product is not available, with a stable UPPER_SNAKE_CASE code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Motivo {
    /// Not a payroll worker contributing to INFONAVIT.
    NoDerechohabienteInfonavit,
    /// Not a payroll worker contributing to FOVISSSTE.
    NoDerechohabienteFovissste,
    /// An active payroll worker: the scheme is for people without an employer relation
    /// (Cuenta Infonavit + Crédito Bancario).
    ConRelacionLaboral,
    /// No active employer relation: Cofinavit is for payroll workers (without one, the scheme
    /// is Cuenta Infonavit + Crédito Bancario).
    SinRelacionLaboral,
    /// No INFONAVIT sub-account balance to pay the down payment with (Cuenta Infonavit +
    /// Crédito Bancario).
    SinSubcuentaInfonavit,
    /// Fewer months of contribution or activity than the product asks.
    AntiguedadInsuficiente,
    /// Salary below one monthly minimum wage.
    IngresoMenorAlSalarioMinimo,
    /// Age leaves no term under the product's age-plus-term limit.
    SinPlazoPorEdad,
    /// Debts use up the payment the product allows.
    SinCapacidadDePago,
    /// The credit the income supports is below the bank's smallest mortgage.
    CreditoMenorAlMinimo,
    /// The income is below the smallest one the bank's product accepts (its `ingreso_min`).
    IngresoMenorAlMinimoDelBanco,
    /// Unamos Créditos needs a co-borrower.
    SinCoacreditado,
    /// The co-borrower does not qualify for INFONAVIT.
    CoacreditadoNoElegible,
}

impl Motivo {
    /// Every reason, in the order `motivos` lists them.
    pub const ALL: [Motivo; 13] = [
        Motivo::NoDerechohabienteInfonavit,
        Motivo::NoDerechohabienteFovissste,
        Motivo::ConRelacionLaboral,
        Motivo::SinRelacionLaboral,
        Motivo::SinSubcuentaInfonavit,
        Motivo::AntiguedadInsuficiente,
        Motivo::IngresoMenorAlSalarioMinimo,
        Motivo::SinPlazoPorEdad,
        Motivo::SinCapacidadDePago,
        Motivo::CreditoMenorAlMinimo,
        Motivo::IngresoMenorAlMinimoDelBanco,
        Motivo::SinCoacreditado,
        Motivo::CoacreditadoNoElegible,
    ];

    /// The stable code, as written in JSON.
    pub const fn as_str(self) -> &'static str {
        match self {
            Motivo::NoDerechohabienteInfonavit => "NO_DERECHOHABIENTE_INFONAVIT",
            Motivo::NoDerechohabienteFovissste => "NO_DERECHOHABIENTE_FOVISSSTE",
            Motivo::ConRelacionLaboral => "CON_RELACION_LABORAL",
            Motivo::SinRelacionLaboral => "SIN_RELACION_LABORAL",
            Motivo::SinSubcuentaInfonavit => "SIN_SUBCUENTA_INFONAVIT",
            Motivo::AntiguedadInsuficiente => "ANTIGUEDAD_INSUFICIENTE",
            Motivo::IngresoMenorAlSalarioMinimo => "INGRESO_MENOR_AL_SALARIO_MINIMO",
            Motivo::SinPlazoPorEdad => "SIN_PLAZO_POR_EDAD",
            Motivo::SinCapacidadDePago => "SIN_CAPACIDAD_DE_PAGO",
            Motivo::CreditoMenorAlMinimo => "CREDITO_MENOR_AL_MINIMO",
            Motivo::IngresoMenorAlMinimoDelBanco => "INGRESO_MENOR_AL_MINIMO_DEL_BANCO",
            Motivo::SinCoacreditado => "SIN_COACREDITADO",
            Motivo::CoacreditadoNoElegible => "COACREDITADO_NO_ELEGIBLE",
        }
    }

    /// A Spanish sentence for the buyer.
    pub const fn texto(self) -> &'static str {
        match self {
            Motivo::NoDerechohabienteInfonavit => "Este crédito es para personas asalariadas que cotizan al INFONAVIT.",
            Motivo::NoDerechohabienteFovissste => {
                "Este crédito es para trabajadores del Estado que cotizan al FOVISSSTE."
            }
            Motivo::ConRelacionLaboral => {
                "Este esquema es para quien no tiene hoy un patrón; con empleo formal, el crédito que une al INFONAVIT y al banco es Cofinavit."
            }
            Motivo::SinRelacionLaboral => {
                "Cofinavit es para quien trabaja hoy con un patrón y cotiza al INFONAVIT; sin patrón, el esquema que une al INFONAVIT y al banco es Cuenta Infonavit + Crédito Bancario."
            }
            Motivo::SinSubcuentaInfonavit => {
                "Este esquema usa como enganche el saldo de tu subcuenta de vivienda del INFONAVIT, y no registras saldo."
            }
            Motivo::AntiguedadInsuficiente => "Aún no cumples la antigüedad mínima que pide este crédito.",
            Motivo::IngresoMenorAlSalarioMinimo => "El salario es menor a un salario mínimo mensual.",
            Motivo::SinPlazoPorEdad => "Por la edad, no queda plazo dentro del límite de edad más plazo del crédito.",
            Motivo::SinCapacidadDePago => "Tus deudas actuales ocupan todo el pago que este crédito permite.",
            Motivo::CreditoMenorAlMinimo => "El crédito que permite tu ingreso es menor al monto mínimo de los bancos.",
            Motivo::IngresoMenorAlMinimoDelBanco => "Tu ingreso es menor al mínimo que pide este crédito.",
            Motivo::SinCoacreditado => "Para unir créditos necesitas registrar a otra persona que cotice al INFONAVIT.",
            Motivo::CoacreditadoNoElegible => {
                "La persona con quien unirías el crédito no califica para un crédito INFONAVIT."
            }
        }
    }
}
