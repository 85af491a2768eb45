//! The facts of one payroll receipt: the one definition of their shape. The JSON every
//! surface returns (`read_cfdi`), the fixtures' expected facts and the server's stored facts
//! are this struct serialised by serde; the server reads its stored facts back with
//! [`CfdiFacts::from_json`] (the files themselves are never stored).

use rust_decimal::Decimal;
use score_core::money;
use serde::{Deserialize, Serialize};

/// What one CFDI payroll receipt states, as written (trimmed; RFC and CURP upper-case), with
/// money as exact decimals written as JSON numbers (score-core's `money::number` form).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CfdiFacts {
    /// Folio fiscal of the SAT stamp (`tfd:TimbreFiscalDigital@UUID`), upper-case; `None` for
    /// an unstamped document.
    pub uuid: Option<String>,
    /// CFDI version, `"3.3"` or `"4.0"`; `None` only for a print that does not show it.
    pub version: Option<String>,
    /// `Comprobante@Fecha`, the issue timestamp as written (`2024-01-15T12:00:00`); `None`
    /// only for a print that does not show it.
    pub fecha: Option<String>,
    /// Employer's RFC (`cfdi:Emisor@Rfc`).
    pub emisor_rfc: String,
    /// Worker's RFC (`cfdi:Receptor@Rfc`).
    pub receptor_rfc: String,
    /// Worker's CURP (`nomina12:Receptor@Curp`).
    pub receptor_curp: String,
    /// Nómina complement version (`"1.2"`).
    pub nomina_version: String,
    /// `O` ordinary or `E` extraordinary payroll.
    pub tipo_nomina: String,
    /// Pay date.
    pub fecha_pago: String,
    /// First day of the period paid.
    pub fecha_inicial_pago: String,
    /// Last day of the period paid.
    pub fecha_final_pago: String,
    /// Days paid (decimal: the SAT allows fractions of a day).
    #[serde(with = "money::number")]
    pub num_dias_pagados: Decimal,
    /// SAT `c_PeriodicidadPago` code (`"02"` weekly, `"04"` fortnightly, `"05"` monthly, ...).
    pub periodicidad_pago: String,
    /// Sum of perceptions (0 when absent).
    #[serde(with = "money::number")]
    pub total_percepciones: Decimal,
    /// Sum of deductions (0 when absent).
    #[serde(with = "money::number")]
    pub total_deducciones: Decimal,
    /// Other payments such as the employment subsidy (0 when absent).
    #[serde(with = "money::number")]
    pub total_otros_pagos: Decimal,
    /// `total_percepciones - total_deducciones + total_otros_pagos`: what the worker was paid.
    #[serde(with = "money::number")]
    pub neto: Decimal,
    /// Start of the employment relationship (absent for pensioners and some regimes).
    pub fecha_inicio_rel_laboral: Option<String>,
    /// `Antigüedad` as written (ISO-8601 duration such as `P52W` or `P4Y2M3D`).
    pub antiguedad: Option<String>,
    /// SAT `c_Estado` code of the state where the work is done (`JAL`, `DIF`/`CMX`, ...).
    pub clave_ent_fed: String,
    /// SAT `c_TipoRegimen` code (`"02"` wages, `"12"` retirees and pensioners, ...).
    pub tipo_regimen: String,
    /// Each deduction: SAT `c_TipoDeduccion` code and amount.
    pub deducciones: Vec<Deduccion>,
    /// The seal's check: only a receipt with `sello.valido` and `sello.ca_sat_verificada`
    /// proves anything ([`Sello::prueba`]). Facts stored
    /// before seals were checked read back without one (`SIN_SELLO`).
    #[serde(default)]
    pub sello: Sello,
}

/// Why a receipt's seal does not make its facts verified (stable codes, as on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MotivoSello {
    /// `Sello` is not the issuer's RSA-SHA256 signature of the receipt's cadena original (the
    /// receipt was changed after sealing, or was never sealed with that certificate), or the
    /// stamp's `SelloCFD` is not this `Sello`.
    SelloInvalido,
    /// No `Sello`, `Certificado` or `NoCertificado` (a paper copy, or a draft never sealed).
    SinSello,
    /// The certificate cannot be read, its number is not `NoCertificado`, or its RFC is not
    /// the issuer's.
    CertificadoNoCorresponde,
    /// The receipt's `Fecha` is outside the certificate's validity.
    CertificadoVencido,
    /// No `tfd:TimbreFiscalDigital` with a UUID under `cfdi:Complemento`: never stamped by
    /// the SAT.
    SinTimbre,
    /// A printed copy (PDF text, OCR or its QR code): paper carries no seal. Its facts are
    /// never verified: a profile shows them as read from paper (`perfil_impreso`), to be
    /// confirmed by the XML or by the SAT's service with the UUID.
    Impreso,
}

impl MotivoSello {
    /// The stable UPPER_SNAKE_CASE code.
    pub const fn as_str(self) -> &'static str {
        match self {
            MotivoSello::SelloInvalido => "SELLO_INVALIDO",
            MotivoSello::SinSello => "SIN_SELLO",
            MotivoSello::CertificadoNoCorresponde => "CERTIFICADO_NO_CORRESPONDE",
            MotivoSello::CertificadoVencido => "CERTIFICADO_VENCIDO",
            MotivoSello::SinTimbre => "SIN_TIMBRE",
            MotivoSello::Impreso => "IMPRESO",
        }
    }
}

/// The check of a receipt's digital seal (`Sello`, with the certificate in `Certificado`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sello {
    /// The seal verifies, the certificate is the issuer's and in force on `Fecha`, and the
    /// SAT's stamp certifies this seal.
    pub valido: bool,
    /// Why not, `None` when valid.
    pub motivo: Option<MotivoSello>,
    /// The certificate's number (its serial's hex pairs read as ASCII, as the SAT numbers
    /// them); `NoCertificado` as written when the certificate cannot be read.
    pub no_certificado: Option<String>,
    /// The RFC in the certificate's subject (`x500UniqueIdentifier`, the holder's part).
    pub rfc_certificado: Option<String>,
    /// Whether the certificate was issued by one of the SAT's CA certificates
    /// ([`crate::CertificadosSat`]): signed by it, the CA in force on `Fecha`. Checked whenever
    /// the certificate can be read, whether or not the seal verifies.
    pub ca_sat_verificada: bool,
    /// Why not, `None` when it was. Facts stored before the chain was checked read back
    /// without one.
    #[serde(default)]
    pub ca_sat_motivo: Option<MotivoCaSat>,
}

/// Why a receipt's certificate is not chained to the SAT's CA certificates (stable codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MotivoCaSat {
    /// No certificate to chain: none in the receipt, an unreadable one, or a printed copy.
    SinCertificado,
    /// The certificate's issuer is none of the SAT's CA certificates loaded: made by someone
    /// else (every test certificate), or by a CA of the SAT that the operator has not loaded.
    AcDesconocida,
    /// A CA of the SAT with the issuer's name is loaded, but its key did not sign this
    /// certificate: a certificate that only copies the SAT's name.
    FirmaAcInvalida,
    /// The SAT's CA that signed it was not in force on the receipt's `Fecha`.
    AcVencida,
    /// Signed with an algorithm other than RSA with SHA-256, SHA-384 or SHA-512.
    AlgoritmoNoAdmitido,
}

impl MotivoCaSat {
    /// The stable UPPER_SNAKE_CASE code.
    pub const fn as_str(self) -> &'static str {
        match self {
            MotivoCaSat::SinCertificado => "SIN_CERTIFICADO",
            MotivoCaSat::AcDesconocida => "AC_DESCONOCIDA",
            MotivoCaSat::FirmaAcInvalida => "FIRMA_AC_INVALIDA",
            MotivoCaSat::AcVencida => "AC_VENCIDA",
            MotivoCaSat::AlgoritmoNoAdmitido => "ALGORITMO_NO_ADMITIDO",
        }
    }
}

/// Why a receipt proves nothing (stable codes, as on the wire): the seal's own reason
/// ([`MotivoSello`]) when the seal does not verify, otherwise why its certificate is not chained
/// to a SAT CA ([`MotivoCaSat`]: a valid seal by a self-made certificate is `AC_DESCONOCIDA`).
/// Serialised as the code alone; the two sets of codes do not overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MotivoNoVerificado {
    /// The seal does not verify.
    Sello(MotivoSello),
    /// The seal verifies, but its certificate was not issued by a loaded SAT CA.
    CaSat(MotivoCaSat),
}

impl MotivoNoVerificado {
    /// The stable UPPER_SNAKE_CASE code.
    pub const fn as_str(self) -> &'static str {
        match self {
            MotivoNoVerificado::Sello(m) => m.as_str(),
            MotivoNoVerificado::CaSat(m) => m.as_str(),
        }
    }
}

impl Sello {
    /// Whether the receipt proves its facts: its seal is valid AND its certificate was issued
    /// by one of the SAT's CAs loaded (`valido && ca_sat_verificada`). A valid seal alone
    /// proves only that someone holding the certificate's key sealed it, and anyone can make a
    /// certificate with an employer's RFC.
    pub fn prueba(&self) -> bool {
        self.valido && self.ca_sat_verificada
    }

    /// Why the receipt proves nothing ([`Sello::prueba`] is false), `None` when it proves.
    pub fn motivo_no_verificado(&self) -> Option<MotivoNoVerificado> {
        if self.prueba() {
            None
        } else if !self.valido {
            Some(MotivoNoVerificado::Sello(self.motivo.unwrap_or(MotivoSello::SinSello)))
        } else {
            // Facts stored before the chain was checked carry no reason: not known to be chained.
            Some(MotivoNoVerificado::CaSat(self.ca_sat_motivo.unwrap_or(MotivoCaSat::AcDesconocida)))
        }
    }

    /// A check that failed for `motivo`, before any certificate could be chained.
    pub fn rechazado(motivo: MotivoSello, no_certificado: Option<String>, rfc_certificado: Option<String>) -> Self {
        Sello {
            valido: false,
            motivo: Some(motivo),
            no_certificado,
            rfc_certificado,
            ca_sat_verificada: false,
            ca_sat_motivo: Some(MotivoCaSat::SinCertificado),
        }
    }
}

impl Sello {
    /// The seal of a printed copy: none (`IMPRESO`).
    pub fn impreso() -> Self {
        Sello::rechazado(MotivoSello::Impreso, None, None)
    }
}

impl Default for Sello {
    /// No seal checked: `SIN_SELLO` (printed receipts, facts stored before seals were checked).
    fn default() -> Self {
        Sello::rechazado(MotivoSello::SinSello, None, None)
    }
}

/// One deduction line of a receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deduccion {
    /// SAT `c_TipoDeduccion` code (`"002"` ISR, `"010"` INFONAVIT credit, `"011"` FONACOT...).
    pub tipo: String,
    /// Amount, MXN.
    #[serde(with = "money::number")]
    pub importe: Decimal,
}

impl CfdiFacts {
    /// The facts as JSON text (the form every surface hands out).
    pub fn to_json(&self) -> String {
        // Serialising plain strings and numbers cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Facts written by [`CfdiFacts::to_json`], read back exactly: every amount is the decimal
    /// that was written (money of up to 15 significant digits survives the JSON double).
    pub fn from_json(text: &str) -> Result<CfdiFacts, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// Where the text of a printed document came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fuente {
    /// The text layer of a PDF (as the issuer's software wrote it).
    Pdf,
    /// Tesseract's reading of a scan or a photo.
    Ocr,
    /// The print's QR code (the SAT's verification URL: UUID, RFCs, total), the rest of the
    /// print read from its text layer or by Tesseract.
    Qr,
}

/// The checks a printed receipt must pass for its facts to count as verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ComprobacionesImpreso {
    /// The folio fiscal has the UUID's shape (8-4-4-4-12 hexadecimal digits).
    pub uuid_valido: bool,
    /// The employer's RFC ends in its check digit.
    pub rfc_emisor_valido: bool,
    /// The worker's RFC ends in its check digit.
    pub rfc_receptor_valido: bool,
    /// The perception lines add up to the total perceptions.
    pub percepciones_cuadran: bool,
    /// The deduction lines add up to the total deductions.
    pub deducciones_cuadran: bool,
    /// The net pay printed is perceptions − deductions + other payments.
    pub neto_cuadra: bool,
    /// Start of employment ≤ first day paid ≤ last day paid, and the pay date not before the
    /// period's first day.
    pub fechas_en_orden: bool,
    /// With a QR code: its total (`tt`) equals the net pay computed from the totals read
    /// (perceptions − deductions + other payments). Absent without a QR code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_qr_cuadra: Option<bool>,
}

impl ComprobacionesImpreso {
    /// Whether every check passes.
    pub fn todas(&self) -> bool {
        self.uuid_valido
            && self.rfc_emisor_valido
            && self.rfc_receptor_valido
            && self.percepciones_cuadran
            && self.deducciones_cuadran
            && self.neto_cuadra
            && self.fechas_en_orden
            && self.total_qr_cuadra != Some(false)
    }
}

/// A payroll receipt read from its printed form (PDF text or OCR): the same facts as
/// [`CfdiFacts`] (same keys, flattened), plus where they came from, how confident the reading
/// is, and the checks. Only a receipt with `verificado: true` (its reading is consistent) is
/// used for a profile, and there only as read from paper (never verified: paper has no seal);
/// a receipt whose UUID was also read from the XML is replaced by the XML's facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReciboImpreso {
    /// The facts, with `read_cfdi`'s keys.
    #[serde(flatten)]
    pub hechos: CfdiFacts,
    /// `pdf`, `ocr`, or `qr` when UUID, RFCs and total came from the print's QR code.
    pub fuente: Fuente,
    /// Confidence of the text, 0–1: 1 for a PDF's text layer, Tesseract's mean word
    /// confidence for OCR.
    #[serde(with = "money::number")]
    pub confianza: Decimal,
    /// Every check passed: the reading is consistent. Not a proof (paper has no seal).
    pub verificado: bool,
    /// The checks.
    pub comprobaciones: ComprobacionesImpreso,
    /// The net pay as printed (`neto` is computed from the totals, as for the XML).
    #[serde(with = "money::number")]
    pub neto_impreso: Decimal,
    /// The print's QR code, when one was decoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qr: Option<crate::qr::CodigoQr>,
}

impl ReciboImpreso {
    /// The receipt as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
