//! The income of the self-employed (`independiente`) from their bank statements, and the
//! recurring payments in them that look like debts (see README.md, "Bank statements").
//!
//! The rule is the one lenders apply to bank-statement income: the deposits of the period,
//! less those that are not income (transfers between the holder's own accounts, loans
//! received, refunds, reversals), averaged over the months given, less an expense factor,
//! because deposits into a self-employed person's account are gross receipts that also pay
//! the business' costs.

use crate::date::Date;
use crate::statement::EstadoCuenta;
use crate::text;
use rust_decimal::Decimal;
use score_core::money;
use serde::Serialize;

/// Fewest verified monthly statements an income is derived from (banks ask for 3 to 6).
pub const MIN_MONTHS: usize = 3;

/// The expense factor applied when none is given: 50%, the standard factor of
/// bank-statement income for business and commingled accounts.
pub const DEFAULT_EXPENSE_FACTOR: Decimal = Decimal::from_parts(5, 0, 0, false, 1);

/// Words of a deposit that is not income, folded (lower case, no accents).
pub const NOT_INCOME: [&str; 9] = [
    "cuentas propias",
    "cuenta propia",
    "traspaso propio",
    "prestamo",
    "disposicion de credito",
    "devolucion",
    "reembolso",
    "reverso",
    "cancelacion",
];

/// Words of a withdrawal that pays a debt, folded.
pub const DEBT_WORDS: [&str; 10] =
    ["credito", "prestamo", "hipoteca", "tarjeta", "tdc", "financiamiento", "mensualidad", "infonavit", "fonacot", "abono a"];

/// One statement's month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mes {
    /// First day of the statement's period.
    pub desde: Date,
    /// Last day.
    pub hasta: Date,
    /// Bank.
    pub banco: String,
    /// All deposits.
    #[serde(with = "money::number")]
    pub depositos: Decimal,
    /// Deposits that count as income.
    #[serde(with = "money::number")]
    pub depositos_elegibles: Decimal,
    /// All withdrawals.
    #[serde(with = "money::number")]
    pub retiros: Decimal,
    /// Opening balance.
    #[serde(with = "money::number")]
    pub saldo_inicial: Decimal,
    /// Closing balance.
    #[serde(with = "money::number")]
    pub saldo_final: Decimal,
    /// Average day-end balance.
    #[serde(with = "money::number")]
    pub saldo_promedio: Decimal,
}

/// A deposit left out of income.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DepositoExcluido {
    /// Date.
    pub fecha: Date,
    /// Description.
    pub concepto: String,
    /// Amount.
    #[serde(with = "money::number")]
    pub importe: Decimal,
}

/// A payment that repeats every month and looks like a debt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PagoRecurrente {
    /// The description, without its reference numbers.
    pub concepto: String,
    /// Average monthly amount.
    #[serde(with = "money::number")]
    pub mensual: Decimal,
    /// In how many of the statements it appears.
    pub meses: usize,
}

/// What the statements prove.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IngresoIndependiente {
    /// Monthly income by the rule (`None` when fewer than [`MIN_MONTHS`] verified statements).
    #[serde(with = "money::option_number")]
    pub ingreso_mensual: Option<Decimal>,
    /// Sum of the recurring debt-like payments per month (`None` when there are none: the
    /// statements prove a floor of the debts, not their absence).
    #[serde(with = "money::option_number")]
    pub deudas_mensuales: Option<Decimal>,
    /// Average eligible deposits per month, before the expense factor.
    #[serde(with = "money::number")]
    pub depositos_elegibles_mensuales: Decimal,
    /// The expense factor applied.
    #[serde(with = "money::number")]
    pub factor_gastos: Decimal,
    /// Each verified statement, in period order.
    pub meses: Vec<Mes>,
    /// Deposits left out of income.
    pub depositos_excluidos: Vec<DepositoExcluido>,
    /// Recurring debt-like payments.
    pub pagos_recurrentes: Vec<PagoRecurrente>,
    /// Statements not used because a check failed (bank and period).
    pub estados_no_verificados: Vec<String>,
    /// Why a figure is not given, or was lowered, in Spanish.
    pub notas: Vec<String>,
}

impl IngresoIndependiente {
    /// As JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The description without digits and punctuation (reference numbers, dates), folded.
fn payee(concepto: &str) -> String {
    let kept: String = text::fold(concepto).chars().map(|c| if c.is_alphabetic() { c } else { ' ' }).collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_income(concepto: &str) -> bool {
    let f = text::fold(concepto);
    !NOT_INCOME.iter().any(|w| f.contains(w))
}

/// Recurring debt-like withdrawals: same payee (description without numbers) with a debt
/// word, in at least two statements and in at least half of them, each month's amount within
/// 10% of the first month's.
fn recurring_debts(statements: &[&EstadoCuenta]) -> Vec<PagoRecurrente> {
    let mut by_payee: Vec<(String, Vec<Decimal>)> = Vec::new();
    for s in statements {
        let mut this_month: Vec<(String, Decimal)> = Vec::new();
        for m in s.movimientos.iter().filter(|m| m.importe < Decimal::ZERO) {
            let name = payee(&m.concepto);
            if !DEBT_WORDS.iter().any(|w| name.contains(w)) {
                continue;
            }
            match this_month.iter_mut().find(|(p, _)| *p == name) {
                Some((_, total)) => *total -= m.importe,
                None => this_month.push((name, -m.importe)),
            }
        }
        for (name, amount) in this_month {
            match by_payee.iter_mut().find(|(p, _)| *p == name) {
                Some((_, amounts)) => amounts.push(amount),
                None => by_payee.push((name, vec![amount])),
            }
        }
    }
    let tolerance = Decimal::new(1, 1);
    by_payee
        .into_iter()
        .filter(|(_, amounts)| amounts.len() >= 2 && amounts.len() * 2 >= statements.len())
        .filter(|(_, amounts)| amounts.iter().all(|a| (*a - amounts[0]).abs() <= amounts[0] * tolerance))
        .map(|(concepto, amounts)| PagoRecurrente {
            mensual: money::round(amounts.iter().sum::<Decimal>() / Decimal::from(amounts.len()), money::MONEY_DP),
            meses: amounts.len(),
            concepto,
        })
        .collect()
}

/// The self-employed income and the debt-like payments of `statements` (one account
/// holder's monthly statements), with `factor_gastos` (0–1; [`DEFAULT_EXPENSE_FACTOR`]
/// when unsure).
///
/// ingreso_mensual = (Σ eligible deposits / months) × (1 − factor_gastos), rounded half
/// away from zero to cents, over the verified statements only; when there are six or more
/// and the last three average 25% or more below the whole period, the last three are used
/// instead (income falling off), with a note.
pub fn ingreso_independiente(statements: &[EstadoCuenta], factor_gastos: Decimal) -> IngresoIndependiente {
    let factor = factor_gastos.clamp(Decimal::ZERO, Decimal::ONE);
    let mut verified: Vec<&EstadoCuenta> = statements.iter().filter(|s| s.verificado).collect();
    verified.sort_by_key(|s| (s.desde, s.hasta));
    verified.dedup_by(|a, b| a.desde == b.desde && a.hasta == b.hasta && a.banco_clave == b.banco_clave);
    let estados_no_verificados: Vec<String> =
        statements.iter().filter(|s| !s.verificado).map(|s| format!("{} {} a {}", s.banco, s.desde, s.hasta)).collect();
    let mut notas = Vec::new();
    if !estados_no_verificados.is_empty() {
        notas.push(format!(
            "{} estado(s) de cuenta no cuadran (saldos o movimientos) y no se usan: {}.",
            estados_no_verificados.len(),
            estados_no_verificados.join("; ")
        ));
    }
    let mut depositos_excluidos = Vec::new();
    let meses: Vec<Mes> = verified
        .iter()
        .map(|s| {
            let mut elegibles = Decimal::ZERO;
            for m in s.movimientos.iter().filter(|m| m.importe > Decimal::ZERO) {
                if is_income(&m.concepto) {
                    elegibles += m.importe;
                } else {
                    depositos_excluidos.push(DepositoExcluido { fecha: m.fecha, concepto: m.concepto.clone(), importe: m.importe });
                }
            }
            Mes {
                desde: s.desde,
                hasta: s.hasta,
                banco: s.banco.clone(),
                depositos: s.depositos,
                depositos_elegibles: elegibles,
                retiros: s.retiros,
                saldo_inicial: s.saldo_inicial,
                saldo_final: s.saldo_final,
                saldo_promedio: s.saldo_promedio,
            }
        })
        .collect();
    let average = |months: &[Mes]| -> Decimal {
        if months.is_empty() {
            Decimal::ZERO
        } else {
            months.iter().map(|m| m.depositos_elegibles).sum::<Decimal>() / Decimal::from(months.len())
        }
    };
    let mut base = average(&meses);
    if meses.len() >= 6 {
        let recent = average(&meses[meses.len() - 3..]);
        if recent < base * Decimal::new(75, 2) {
            notas.push(format!(
                "Los depósitos de los últimos tres meses ({}) están 25 % o más por debajo del promedio del periodo ({}): se usan los últimos tres meses.",
                money::round(recent, money::MONEY_DP),
                money::round(base, money::MONEY_DP)
            ));
            base = recent;
        }
    }
    let ingreso_mensual = if meses.len() >= MIN_MONTHS {
        Some(money::round(base * (Decimal::ONE - factor), money::MONEY_DP))
    } else {
        notas.push(format!(
            "Se necesitan al menos {MIN_MONTHS} estados de cuenta mensuales verificados para estimar el ingreso; hay {}.",
            meses.len()
        ));
        None
    };
    let pagos_recurrentes = recurring_debts(&verified);
    let deudas_mensuales = (!pagos_recurrentes.is_empty())
        .then(|| money::round(pagos_recurrentes.iter().map(|p| p.mensual).sum::<Decimal>(), money::MONEY_DP));
    IngresoIndependiente {
        ingreso_mensual,
        deudas_mensuales,
        depositos_elegibles_mensuales: money::round(base, money::MONEY_DP),
        factor_gastos: factor,
        meses,
        depositos_excluidos,
        pagos_recurrentes,
        estados_no_verificados,
        notas,
    }
}
