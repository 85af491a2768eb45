//! The verified partial profile: what several payroll receipts of one worker prove about the
//! fields of score-core's profile, and how (see README.md, "From receipts to a profile").

use crate::date::Date;
use crate::error::{DocError, DocErrorCode};
use crate::facts::{CfdiFacts, MotivoNoVerificado, MotivoSello};
use rust_decimal::Decimal;
use score_core::{IncomeType, State, money};
use serde::Serialize;

/// Most receipts read into one profile (ten years of weekly pay).
pub const MAX_RECEIPTS: usize = 520;

/// Deduction codes (SAT `c_TipoDeduccion`) that are payments of a debt or a court-ordered
/// obligation, with the name the profile shows.
pub const DEBT_DEDUCTIONS: [(&str, &str); 4] = [
    ("007", "Pensión alimenticia"),
    ("009", "Préstamo del Fondo Nacional de la Vivienda (INFONAVIT)"),
    ("010", "Pago por crédito de vivienda (INFONAVIT)"),
    ("011", "Pago de abonos INFONACOT (FONACOT)"),
];

/// Days a pay frequency pays per month, as (numerator, denominator): weekly and
/// every-14-days pay 7 × 52 = 14 × 26 = 364 days a year; fortnightly, monthly, bimonthly
/// and ten-day payrolls pay 360 (15 × 24, 30 × 12); daily and irregular payrolls use the
/// SAT's 30.4 days per month. Sources in README.md.
fn paid_days_per_month(periodicidad: &str) -> (i64, i64) {
    match periodicidad {
        "02" | "03" => (364, 12),
        "04" | "05" | "06" | "10" => (30, 1),
        _ => (304, 10),
    }
}

/// The partial profile: score-core field names, only the fields the receipts prove.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PerfilVerificado {
    /// State where the work is done (`ClaveEntFed`), as score-core's ISO code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estado: Option<State>,
    /// Monthly net income of the current employer's ordinary payroll (see README.md).
    #[serde(with = "money::option_number", skip_serializing_if = "Option::is_none")]
    pub ingreso_mensual: Option<Decimal>,
    /// `asalariado` (regime 02) or `pensionado` (03, 04, 12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_ingreso: Option<IncomeType>,
    /// Whole months from `FechaInicioRelLaboral` to the reference date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub antiguedad_meses: Option<u32>,
    /// Monthly debt payments deducted from payroll (sum of [`DeudaNomina::mensual`]); a
    /// floor of the buyer's debts, absent when the receipts show none.
    #[serde(with = "money::option_number", skip_serializing_if = "Option::is_none")]
    pub deudas_mensuales: Option<Decimal>,
}

/// One payroll debt found in the deductions, normalised to a month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeudaNomina {
    /// SAT deduction code.
    pub tipo: String,
    /// What the code means.
    pub concepto: &'static str,
    /// Monthly amount, MXN.
    #[serde(with = "money::number")]
    pub mensual: Decimal,
}

/// A span of dates (`desde`..=`hasta`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Periodo {
    /// First day.
    pub desde: String,
    /// Last day.
    pub hasta: String,
}

/// Days between two pay periods that no receipt covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hueco {
    /// Last day covered before the gap.
    pub despues_de: String,
    /// First day covered after the gap.
    pub antes_de: String,
}

/// The employer changed between two consecutive pay periods.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CambioPatron {
    /// First day paid by the new employer.
    pub fecha: String,
    /// RFC of the previous employer.
    pub anterior: String,
    /// RFC of the new employer.
    pub nuevo: String,
}

/// The checks made across the receipts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Comprobaciones {
    /// Every receipt names the same worker (RFC and CURP); otherwise the batch is refused.
    pub un_solo_trabajador: bool,
    /// No UUID appears twice (duplicates are counted once and listed).
    pub uuids_sin_duplicar: bool,
    /// UUIDs that appeared more than once.
    pub uuids_duplicados: Vec<String>,
    /// Receipts without a SAT stamp (no UUID): read, but not proven stamped.
    pub recibos_sin_timbre: usize,
    /// The ordinary pay periods follow each other without uncovered days.
    pub periodos_sin_huecos: bool,
    /// The uncovered spans.
    pub huecos: Vec<Hueco>,
    /// One employer across all receipts.
    pub patron_constante: bool,
    /// Each change of employer.
    pub cambios_de_patron: Vec<CambioPatron>,
    /// Each receipt's deduction lines add up to its `TotalDeducciones`.
    pub totales_cuadran: bool,
    /// Receipts (UUID, or `recibo N`) whose deduction lines do not add up.
    pub totales_no_cuadran: Vec<String>,
    /// Every XML receipt proves its facts ([`crate::Sello::prueba`]): its seal is valid and
    /// its certificate was issued by a SAT CA (printed copies, which carry no seal, are not
    /// counted here).
    pub sellos_validos: bool,
    /// The receipts that do not, and why: the fields they prove are not verified.
    pub sellos_invalidos: Vec<SelloInvalido>,
}

/// A receipt whose seal does not verify it: a broken seal, or a valid seal by a certificate no
/// SAT CA issued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SelloInvalido {
    /// The receipt's UUID, or `recibo N` (its place in the batch).
    pub recibo: String,
    /// Why: the seal's code (`SELLO_INVALIDO`, `SIN_TIMBRE`, ...) when it does not verify,
    /// otherwise the chain's (`AC_DESCONOCIDA`, `FIRMA_AC_INVALIDA`, ...).
    pub motivo: MotivoNoVerificado,
}

/// A printed receipt (PDF, scan, photo, or its QR code) some profile fields were read from:
/// paper carries no seal, so what it says is to be confirmed by the receipt's XML or by the
/// SAT's verification service with its UUID.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PorConfirmar {
    /// The receipt's UUID, or `recibo N` (its place in the batch).
    pub recibo: String,
    /// The UUID to look up in the SAT's service.
    pub uuid: Option<String>,
    /// The employer's RFC as read (the service asks for it).
    pub emisor_rfc: String,
    /// The worker's RFC as read (the service asks for it).
    pub receptor_rfc: String,
    /// The profile fields read from this receipt, in score-core's field order.
    pub campos: Vec<&'static str>,
    /// How to confirm them, in Spanish.
    pub nota: String,
}

/// The SAT's service that says whether a CFDI with a given UUID and RFCs was stamped.
pub const SAT_VERIFICATION_SERVICE: &str = "https://verificacfdi.facturaelectronica.sat.gob.mx/";

/// Which profile fields are verified, from which receipts, over which period.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verificacion {
    /// The profile fields the receipts prove, in score-core's field order: every receipt
    /// proving them is an XML whose seal is valid and whose certificate a SAT CA issued.
    pub campos: Vec<&'static str>,
    /// The fields read from paper (in `perfil_impreso`, never in `perfil`): a printed receipt
    /// is among those proving them. Never verified; [`Verificacion::por_confirmar`] says how
    /// to confirm them.
    pub campos_impresos: Vec<&'static str>,
    /// The printed receipts those fields were read from, each with its UUID.
    pub por_confirmar: Vec<PorConfirmar>,
    /// UUIDs of the receipts read (each once, in period order).
    pub uuids: Vec<String>,
    /// From the first period's start to the last period's end.
    pub periodo: Periodo,
    /// Receipts read (after removing duplicates).
    pub recibos: usize,
    /// Ordinary receipts of the current employer, the ones the income comes from.
    pub recibos_ingreso: usize,
    /// The worker's RFC.
    pub receptor_rfc: String,
    /// The worker's CURP.
    pub receptor_curp: String,
    /// The current employer (of the latest pay period).
    pub emisor_rfc: String,
    /// The reference date seniority is counted to.
    pub fecha_referencia: Date,
    /// The checks.
    pub comprobaciones: Comprobaciones,
    /// Why a field could not be verified, in Spanish.
    pub notas: Vec<String>,
}

/// The verified partial profile of several receipts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifiedProfile {
    /// The verified profile fields: proven by sealed XML receipts only.
    pub perfil: PerfilVerificado,
    /// The fields read from paper (a printed receipt is among those proving them): what the
    /// print says, to be confirmed by the XML or by the SAT's service with the UUID; never
    /// verified, never in `perfil`.
    pub perfil_impreso: PerfilVerificado,
    /// Payroll debts by deduction code.
    pub deudas_nomina: Vec<DeudaNomina>,
    /// How the fields were verified.
    pub verificacion: Verificacion,
}

impl VerifiedProfile {
    /// The profile as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

fn receipt_label(f: &CfdiFacts, index: usize) -> String {
    f.uuid.clone().unwrap_or_else(|| format!("recibo {}", index + 1))
}

/// Checks that every receipt is of the first receipt's worker.
fn same_worker(receipts: &[CfdiFacts]) -> Result<(), DocError> {
    let Some(first) = receipts.first() else { return Ok(()) };
    for (i, r) in receipts.iter().enumerate().skip(1) {
        if r.receptor_rfc != first.receptor_rfc || r.receptor_curp != first.receptor_curp {
            return Err(DocError::new(
                DocErrorCode::DocumentMixedWorkers,
                Some(&format!("receipts[{i}]")),
                format!(
                    "Los recibos son de trabajadores distintos: el recibo 1 es de {} ({}) y el recibo {} de {} ({}). Sube solo los recibos de una persona.",
                    first.receptor_rfc, first.receptor_curp, i + 1, r.receptor_rfc, r.receptor_curp
                ),
            ));
        }
    }
    Ok(())
}

fn state_of(clave: &str) -> Option<State> {
    // Until 2016 the SAT catalogue called Mexico City `DIF`; today it is `CMX`, as in ISO.
    let iso = if clave.eq_ignore_ascii_case("DIF") { "CMX" } else { clave };
    if iso.len() != 3 {
        return None;
    }
    State::all().find(|s| s.info().iso.eq_ignore_ascii_case(iso))
}

fn income_type_of(regimen: &str) -> Option<IncomeType> {
    match regimen {
        "02" => Some(IncomeType::Asalariado),
        "03" | "04" | "12" => Some(IncomeType::Pensionado),
        _ => None,
    }
}

/// Builds the verified partial profile of `receipts` (one worker's), with seniority counted
/// to `reference`. Errors: an empty batch (`DOCUMENT_NOT_PAYROLL`), more than
/// [`MAX_RECEIPTS`] (`DOCUMENT_TOO_LARGE`), receipts of different workers
/// (`DOCUMENT_MIXED_WORKERS`).
pub fn profile_from_cfdi(receipts: &[CfdiFacts], reference: Date) -> Result<VerifiedProfile, DocError> {
    if receipts.is_empty() {
        return Err(DocError::new(DocErrorCode::DocumentNotPayroll, None, "No se recibió ningún recibo de nómina."));
    }
    if receipts.len() > MAX_RECEIPTS {
        return Err(DocError::new(
            DocErrorCode::DocumentTooLarge,
            None,
            format!("Se recibieron {} recibos; el máximo por perfil es {MAX_RECEIPTS}.", receipts.len()),
        ));
    }
    same_worker(receipts)?;

    // Each UUID once (the first copy), then in period order.
    let mut uuids_duplicados: Vec<String> = Vec::new();
    let mut unique: Vec<(usize, &CfdiFacts)> = Vec::with_capacity(receipts.len());
    for (i, r) in receipts.iter().enumerate() {
        let dup = r.uuid.is_some() && unique.iter().any(|(_, u)| u.uuid == r.uuid);
        if dup {
            let uuid = r.uuid.clone().unwrap_or_default();
            if !uuids_duplicados.contains(&uuid) {
                uuids_duplicados.push(uuid);
            }
        } else {
            unique.push((i, r));
        }
    }
    unique.sort_by(|(_, a), (_, b)| {
        (&a.fecha_inicial_pago, &a.fecha_final_pago, &a.fecha_pago).cmp(&(&b.fecha_inicial_pago, &b.fecha_final_pago, &b.fecha_pago))
    });
    // Dates are ISO text checked by the reader, so text order is date order.
    let latest = unique
        .iter()
        .map(|(_, r)| *r)
        .max_by(|a, b| (&a.fecha_final_pago, &a.fecha_pago).cmp(&(&b.fecha_final_pago, &b.fecha_pago)))
        .unwrap_or(&receipts[0]);
    let ordinary: Vec<&CfdiFacts> = unique.iter().map(|(_, r)| *r).filter(|r| r.tipo_nomina == "O").collect();
    let periods: Vec<&CfdiFacts> = if ordinary.is_empty() { unique.iter().map(|(_, r)| *r).collect() } else { ordinary.clone() };

    let mut huecos = Vec::new();
    let mut covered_to: Option<(i64, &str)> = None;
    for r in &periods {
        let (Some(start), Some(end)) = (Date::parse(&r.fecha_inicial_pago), Date::parse(&r.fecha_final_pago)) else { continue };
        if let Some((to, to_text)) = covered_to {
            if start.days() > to + 1 {
                huecos.push(Hueco { despues_de: to_text.to_owned(), antes_de: r.fecha_inicial_pago.clone() });
            }
        }
        if covered_to.is_none_or(|(to, _)| end.days() > to) {
            covered_to = Some((end.days(), &r.fecha_final_pago));
        }
    }

    let mut cambios_de_patron = Vec::new();
    for pair in periods.windows(2) {
        if pair[0].emisor_rfc != pair[1].emisor_rfc {
            cambios_de_patron.push(CambioPatron {
                fecha: pair[1].fecha_inicial_pago.clone(),
                anterior: pair[0].emisor_rfc.clone(),
                nuevo: pair[1].emisor_rfc.clone(),
            });
        }
    }

    let totales_no_cuadran: Vec<String> = unique
        .iter()
        .filter(|(_, r)| r.deducciones.iter().map(|d| d.importe).sum::<Decimal>() != r.total_deducciones)
        .map(|(i, r)| receipt_label(r, *i))
        .collect();

    let sellos_invalidos: Vec<SelloInvalido> = unique
        .iter()
        .filter(|(_, r)| !is_printed(r))
        .filter_map(|(i, r)| r.sello.motivo_no_verificado().map(|motivo| SelloInvalido { recibo: receipt_label(r, *i), motivo }))
        .collect();
    let label_of = |r: &CfdiFacts| unique.iter().find(|(_, u)| std::ptr::eq(*u, r)).map(|(i, u)| receipt_label(u, *i)).unwrap_or_default();
    // A field is verified only when every receipt proving it is an XML with a valid seal by a
    // certificate a SAT CA issued. A broken seal or an unchained certificate leaves it out,
    // with a note naming the receipt and why; a printed receipt among the proof (paper has no
    // seal) puts it in `perfil_impreso`, to be confirmed.
    let mut por_confirmar: Vec<PorConfirmar> = Vec::new();
    let mut judge = |proof: &[&CfdiFacts], fields: &[&'static str], names: &str, notas: &mut Vec<String>| -> Prueba {
        let failed: Vec<String> = proof
            .iter()
            .filter(|r| !is_printed(r))
            .filter_map(|r| r.sello.motivo_no_verificado().map(|m| format!("{} ({})", label_of(r), m.as_str())))
            .collect();
        if !failed.is_empty() {
            notas.push(format!(
                "{names} no se verifican: el sello de {} no es válido o su certificado no lo emitió el SAT.",
                failed.join(", ")
            ));
            return Prueba::Rechazada;
        }
        let paper: Vec<String> = proof.iter().filter(|r| is_printed(r)).map(|r| label_of(r)).collect();
        if paper.is_empty() {
            return Prueba::Sellada;
        }
        for r in proof.iter().filter(|r| is_printed(r)) {
            let recibo = label_of(r);
            match por_confirmar.iter_mut().find(|p| p.recibo == recibo) {
                Some(p) => p.campos.extend_from_slice(fields),
                None => por_confirmar.push(PorConfirmar {
                    nota: confirm_note(r),
                    recibo,
                    uuid: r.uuid.clone(),
                    emisor_rfc: r.emisor_rfc.clone(),
                    receptor_rfc: r.receptor_rfc.clone(),
                    campos: fields.to_vec(),
                }),
            }
        }
        notas.push(format!(
            "{names} se leyeron de papel ({}), que no trae sello: no se verifican hasta confirmarlos con el XML o con el servicio del SAT y el UUID.",
            paper.join(", ")
        ));
        Prueba::Papel
    };

    let mut notas = Vec::new();
    let (mut campos, mut campos_impresos) = (Vec::new(), Vec::new());
    // State, income type and seniority come from the latest receipt.
    let latest_proof = judge(
        &[latest],
        &["estado", "tipo_ingreso", "antiguedad_meses"],
        "estado, tipo_ingreso y antiguedad_meses",
        &mut notas,
    );
    let estado = state_of(&latest.clave_ent_fed);
    if estado.is_none() && latest_proof != Prueba::Rechazada {
        notas.push(format!("ClaveEntFed \"{}\" no es un estado de México: estado no se verifica.", latest.clave_ent_fed));
    }
    let estado = latest_proof.place(estado, "estado", &mut campos, &mut campos_impresos);

    // Income and debts: the current employer's ordinary receipts.
    let income: Vec<&CfdiFacts> = ordinary.iter().copied().filter(|r| r.emisor_rfc == latest.emisor_rfc).collect();
    let days: Decimal = income.iter().map(|r| r.num_dias_pagados).sum();
    let per_month = |amount_of: &dyn Fn(&CfdiFacts) -> Decimal| -> Decimal {
        let scaled: Decimal = income
            .iter()
            .map(|r| {
                let (num, den) = paid_days_per_month(&r.periodicidad_pago);
                amount_of(r) * Decimal::from(num) / Decimal::from(den)
            })
            .sum();
        money::round(scaled / days, money::MONEY_DP)
    };
    let debt_of = |r: &CfdiFacts, code: &str| -> Decimal { r.deducciones.iter().filter(|d| d.tipo == code).map(|d| d.importe).sum() };
    let mut deudas_nomina = Vec::new();
    let income_proof = if income.is_empty() || days <= Decimal::ZERO {
        notas.push("Ningún recibo ordinario del patrón actual con días pagados: ingreso_mensual y deudas_mensuales no se verifican.".to_owned());
        Prueba::Rechazada
    } else {
        judge(&income, &["ingreso_mensual", "deudas_mensuales"], "ingreso_mensual y deudas_mensuales", &mut notas)
    };
    let (ingreso_mensual, deudas_mensuales) = if income_proof == Prueba::Rechazada {
        (None, None)
    } else {
        for (code, concepto) in DEBT_DEDUCTIONS {
            if income.iter().any(|r| r.deducciones.iter().any(|d| d.tipo == code)) {
                deudas_nomina.push(DeudaNomina { tipo: code.to_owned(), concepto, mensual: per_month(&|r| debt_of(r, code)) });
            }
        }
        // Net of taxes and social security but before the debt payments, which the profile
        // carries in deudas_mensuales: each debt is counted once.
        let ingreso = per_month(&|r| r.neto + DEBT_DEDUCTIONS.iter().map(|(c, _)| debt_of(r, c)).sum::<Decimal>());
        // Receipts prove the debts paid through payroll, a floor of all debts: without any,
        // deudas_mensuales stays unverified rather than a "verified" zero.
        let deudas = (!deudas_nomina.is_empty())
            .then(|| money::round(deudas_nomina.iter().map(|d| d.mensual).sum::<Decimal>(), money::MONEY_DP));
        (Some(ingreso), deudas)
    };
    if income_proof != Prueba::Sellada {
        // Debts read from paper are in perfil_impreso's sum only.
        deudas_nomina.clear();
    }
    let ingreso_mensual = income_proof.place(ingreso_mensual, "ingreso_mensual", &mut campos, &mut campos_impresos);

    let tipo_ingreso = income_type_of(&latest.tipo_regimen);
    if tipo_ingreso.is_none() && latest_proof != Prueba::Rechazada {
        notas.push(format!(
            "TipoRegimen \"{}\" no es de sueldos (02) ni de jubilados o pensionados (03, 04, 12): tipo_ingreso no se verifica.",
            latest.tipo_regimen
        ));
    }
    let tipo_ingreso = latest_proof.place(tipo_ingreso, "tipo_ingreso", &mut campos, &mut campos_impresos);
    let start = latest.fecha_inicio_rel_laboral.as_deref().and_then(Date::parse);
    let antiguedad_meses = start.map(|s| s.whole_months_until(reference));
    if antiguedad_meses.is_none() && latest_proof != Prueba::Rechazada {
        notas.push("El recibo más reciente no trae FechaInicioRelLaboral: antiguedad_meses no se verifica.".to_owned());
    }
    let antiguedad_meses = latest_proof.place(antiguedad_meses, "antiguedad_meses", &mut campos, &mut campos_impresos);
    let deudas_mensuales = income_proof.place(deudas_mensuales, "deudas_mensuales", &mut campos, &mut campos_impresos);
    // In period order; a receipt's fields are those it gave a value (a pensioner's has no
    // seniority).
    let labels: Vec<String> = unique.iter().map(|(i, r)| receipt_label(r, *i)).collect();
    por_confirmar.sort_by_key(|p| labels.iter().position(|l| *l == p.recibo));
    for p in &mut por_confirmar {
        p.campos.retain(|c| campos_impresos.contains(c));
        p.campos.sort_by_key(|c| FIELD_ORDER.iter().position(|f| f == c));
    }

    let all = unique.iter().map(|(_, r)| *r);
    let desde = all.clone().map(|r| r.fecha_inicial_pago.as_str()).min().unwrap_or_default().to_owned();
    let hasta = all.clone().map(|r| r.fecha_final_pago.as_str()).max().unwrap_or_default().to_owned();
    Ok(VerifiedProfile {
        perfil: PerfilVerificado {
            estado: estado.0,
            ingreso_mensual: ingreso_mensual.0,
            tipo_ingreso: tipo_ingreso.0,
            antiguedad_meses: antiguedad_meses.0,
            deudas_mensuales: deudas_mensuales.0,
        },
        perfil_impreso: PerfilVerificado {
            estado: estado.1,
            ingreso_mensual: ingreso_mensual.1,
            tipo_ingreso: tipo_ingreso.1,
            antiguedad_meses: antiguedad_meses.1,
            deudas_mensuales: deudas_mensuales.1,
        },
        deudas_nomina,
        verificacion: Verificacion {
            campos,
            campos_impresos,
            por_confirmar,
            uuids: all.clone().filter_map(|r| r.uuid.clone()).collect(),
            periodo: Periodo { desde, hasta },
            recibos: unique.len(),
            recibos_ingreso: income.len(),
            receptor_rfc: receipts[0].receptor_rfc.clone(),
            receptor_curp: receipts[0].receptor_curp.clone(),
            emisor_rfc: latest.emisor_rfc.clone(),
            fecha_referencia: reference,
            comprobaciones: Comprobaciones {
                un_solo_trabajador: true,
                uuids_sin_duplicar: uuids_duplicados.is_empty(),
                uuids_duplicados,
                recibos_sin_timbre: all.filter(|r| r.uuid.is_none()).count(),
                periodos_sin_huecos: huecos.is_empty(),
                huecos,
                patron_constante: cambios_de_patron.is_empty(),
                cambios_de_patron,
                totales_cuadran: totales_no_cuadran.is_empty(),
                totales_no_cuadran,
                sellos_validos: sellos_invalidos.is_empty(),
                sellos_invalidos,
            },
            notas,
        },
    })
}

/// The profile fields receipts prove, in score-core's field order.
const FIELD_ORDER: [&str; 5] = ["estado", "ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "deudas_mensuales"];

/// A receipt read from its print (PDF text, OCR or QR code): paper carries no seal.
fn is_printed(r: &CfdiFacts) -> bool {
    r.sello.motivo == Some(MotivoSello::Impreso)
}

/// How to confirm what a printed receipt says: its XML, or the SAT's service with its UUID.
fn confirm_note(r: &CfdiFacts) -> String {
    let uuid = r.uuid.as_deref().unwrap_or("(sin UUID legible)");
    format!(
        "Leído de papel, que no trae sello digital: por confirmar con el XML del recibo o en el servicio del SAT ({SAT_VERIFICATION_SERVICE}) con el UUID {uuid}, el RFC emisor {} y el RFC receptor {}.",
        r.emisor_rfc, r.receptor_rfc
    )
}

/// What proves a group of fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prueba {
    /// Sealed XML receipts only, every seal valid and chained to a SAT CA: verified.
    Sellada,
    /// A printed receipt among them (the rest sealed): read from paper, to be confirmed.
    Papel,
    /// A receipt whose seal does not verify, or whose certificate no SAT CA issued: neither.
    Rechazada,
}

impl Prueba {
    /// Splits `value` into (verified, read from paper) and lists `campo` where it went.
    fn place<T>(self, value: Option<T>, campo: &'static str, campos: &mut Vec<&'static str>, impresos: &mut Vec<&'static str>) -> (Option<T>, Option<T>) {
        match (self, value) {
            (Prueba::Sellada, Some(v)) => {
                campos.push(campo);
                (Some(v), None)
            }
            (Prueba::Papel, Some(v)) => {
                impresos.push(campo);
                (None, Some(v))
            }
            _ => (None, None),
        }
    }
}
