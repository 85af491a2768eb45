//! The kinds of credit product a calibration defines ([`Producto`], each written in the report
//! by its `clave`), and the ones whose credit's terms depend only on the term ([`Fijo`]), whose
//! payment per peso and CAT the products solve once per calibration (`products::fijos`). Plain
//! data of the calibration: what a product lends is `products/`'s.

use super::clave::Clave;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A credit product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Producto {
    /// INFONAVIT crédito tradicional en pesos.
    Infonavit,
    /// FOVISSSTE crédito tradicional en pesos.
    Fovissste,
    /// Bank mortgage.
    HipotecaBancaria,
    /// Cuenta Infonavit + Crédito Bancario (70% bank, 30% INFONAVIT).
    InfonavitMasBanco,
    /// Unamos Créditos: two INFONAVIT workers pool their credits.
    UnamosCreditos,
    /// Cofinavit: INFONAVIT's credit and a bank's together, for active payroll workers. The
    /// one kind a calibration may leave out (then it is not listed).
    Cofinavit,
}

impl Producto {
    /// The housing-fund sub-accounts the product applies to the home's price, given the
    /// applicant's and both borrowers' balances: INFONAVIT's and FOVISSSTE's own credits add
    /// the applicant's to the credit, the 70/30 scheme and Cofinavit take it as down payment,
    /// Unamos Créditos
    /// both borrowers'; a bank alone cannot take them (PRODUCTS.md section 2).
    pub fn subcuenta_aplicada(self, titular: Decimal, ambos: Decimal) -> Decimal {
        self.subcuenta_de(titular, ambos, Decimal::ZERO)
    }

    /// [`Producto::subcuenta_aplicada`] in any arithmetic (`cero`: its zero).
    pub(crate) fn subcuenta_de<N>(self, titular: N, ambos: N, cero: N) -> N {
        match self {
            Producto::Infonavit | Producto::Fovissste | Producto::InfonavitMasBanco | Producto::Cofinavit => titular,
            Producto::UnamosCreditos => ambos,
            Producto::HipotecaBancaria => cero,
        }
    }

    /// Every kind, in the order of [`crate::products::Productos::productos`].
    pub const ALL: [Producto; 6] = [
        Producto::Infonavit,
        Producto::Fovissste,
        Producto::HipotecaBancaria,
        Producto::InfonavitMasBanco,
        Producto::UnamosCreditos,
        Producto::Cofinavit,
    ];

    /// The built-in product whose code is `clave`, if any: its wire text is then static.
    pub fn de_clave(clave: &str) -> Option<Producto> {
        Some(match clave {
            "INFONAVIT" => Producto::Infonavit,
            "FOVISSSTE" => Producto::Fovissste,
            "HIPOTECA_BANCARIA" => Producto::HipotecaBancaria,
            "INFONAVIT_MAS_BANCO" => Producto::InfonavitMasBanco,
            "UNAMOS_CREDITOS" => Producto::UnamosCreditos,
            "COFINAVIT" => Producto::Cofinavit,
            _ => return None,
        })
    }

    /// The code as a [`Clave`]: the default calibration's `clave` of the product.
    pub const fn clave(self) -> Clave {
        match Clave::new(self.as_str()) {
            Some(c) => c,
            None => panic!("the built-in codes are short"),
        }
    }

    /// The wire code (`"INFONAVIT"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            Producto::Infonavit => "INFONAVIT",
            Producto::Fovissste => "FOVISSSTE",
            Producto::HipotecaBancaria => "HIPOTECA_BANCARIA",
            Producto::InfonavitMasBanco => "INFONAVIT_MAS_BANCO",
            Producto::UnamosCreditos => "UNAMOS_CREDITOS",
            Producto::Cofinavit => "COFINAVIT",
        }
    }
}

/// How many kinds of product there are: the slots of one evaluation.
pub(crate) const TIPOS: usize = Producto::ALL.len();

/// A product whose credit's terms depend only on the term.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fijo {
    /// FOVISSSTE's crédito tradicional.
    Fovissste,
    /// The bank mortgage (and the bank's part of Cuenta Infonavit + Crédito Bancario).
    Banco,
    /// Cuenta Infonavit + Crédito Bancario: the payment per peso of INFONAVIT's part, and the
    /// CAT of the 70/30 credit.
    Cofi,
    /// INFONAVIT's crédito tradicional for a salary up to the rate table's first band, whose
    /// rate is the lowest whatever the salary.
    InfonavitPiso,
    /// INFONAVIT's crédito tradicional for a salary above the rate table's last band, whose
    /// rate is the top one whatever the salary.
    InfonavitTope,
    /// Cofinavit's INFONAVIT part: its payment per peso (the CAT is of each applicant's mix).
    Cofinavit,
}

impl Fijo {
    pub(crate) const ALL: [Fijo; 6] = [
        Fijo::Fovissste,
        Fijo::Banco,
        Fijo::Cofi,
        Fijo::InfonavitPiso,
        Fijo::InfonavitTope,
        Fijo::Cofinavit,
    ];

}
