//! The verification of a buyer profile by its payroll receipts, as the API shows and stores it
//! (`verificacion`): what the receipts prove, the declared profile with the verified values
//! applied under the precedence rules of [`crate::domain::documents`] (`apply_verified`), every
//! difference, and each receipt on file with its seal.

use rust_decimal::Decimal;
use score_docs::{CfdiFacts, Date};
use serde::{Deserialize, Serialize};
use serde_json::{Value, value::RawValue};
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::buyers::{self, Members},
    domain::error::{DomainError, DomainResult},
};

/// A declared value that differs from the verified one.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Discrepancia {
    /// Profile field (`ingreso_mensual`, `tipo_ingreso`, `antiguedad_meses`, `deudas_mensuales`, `estado`).
    pub campo: String,
    /// What the buyer declared (a number or a text; `null` when nothing was declared).
    pub declarado: Value,
    /// What the receipts prove (a number or a text).
    pub verificado: Value,
    /// Whether the score uses the verified value.
    pub aplicado: bool,
    /// Why, in Spanish.
    pub nota: String,
}

/// One stored receipt.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DocumentView {
    /// SAT folio fiscal (`null` when unstamped).
    pub uuid: Option<String>,
    /// SHA-256 of the file as received, hex (the file itself is not kept).
    pub sha256: String,
    /// Employer's RFC.
    pub emisor_rfc: String,
    pub fecha_inicial_pago: String,
    pub fecha_final_pago: String,
    /// `O` ordinary, `E` extraordinary.
    pub tipo_nomina: String,
    /// Read from the XML (`xml`) or from its print (`pdf`: a PDF's text; `ocr`: a scan or
    /// photo). Verifications stored before printed receipts were read say nothing: `xml`.
    #[serde(default = "xml")]
    #[schema(example = "xml")]
    pub fuente: String,
    /// The seal's check, as score-docs gives it (`{valido, motivo, no_certificado,
    /// rfc_certificado, ca_sat_verificada, ca_sat_motivo}`; `motivo` `IMPRESO` for a print). Verifications
    /// stored before it was shown say nothing: `null`.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub sello: Option<Value>,
    /// RFC 3339.
    pub recibido_at: String,
}

/// `documents::Origin::Xml` as stored (this module does not import `documents`, which builds
/// its views here).
fn xml() -> String {
    "xml".to_owned()
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

/// The verification of a profile by its payroll receipts.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct VerificationView {
    /// Profile fields whose value in `perfil` comes from the receipts (sealed XML only).
    pub campos: Vec<String>,
    /// Profile fields read from paper (a printed receipt is among those proving them): never
    /// verified nor applied; their values are in `perfil_impreso`, and
    /// `comprobacion.por_confirmar` names each print's UUID to confirm them with the XML or the
    /// SAT's service. Verifications stored before prints were told apart say nothing: `[]`.
    #[serde(default)]
    pub campos_impresos: Vec<String>,
    /// Declared values that differ from the verified ones.
    pub discrepancias: Vec<Discrepancia>,
    /// The profile as the buyer declared it (phase 1 and 2 values), each amount with the digits
    /// written, as stored and as `perfil` shows the scored one.
    #[schema(value_type = Object)]
    pub perfil_declarado: Box<RawValue>,
    /// What the receipts prove, in score-core's field names (`profile_from_cfdi`'s `perfil`).
    #[schema(value_type = Object)]
    pub perfil_verificado: Value,
    /// What the printed receipts say, to be confirmed (`profile_from_cfdi`'s `perfil_impreso`);
    /// `{}` without prints.
    #[serde(default = "empty_object")]
    #[schema(value_type = Object)]
    pub perfil_impreso: Value,
    /// Payroll debts by deduction code, per month (`profile_from_cfdi`'s `deudas_nomina`).
    #[schema(value_type = Vec<Object>)]
    pub deudas_nomina: Value,
    /// How the receipts were checked (`profile_from_cfdi`'s `verificacion`: fields proven,
    /// fields read from paper and the prints to confirm (`por_confirmar`), UUIDs, period, one
    /// worker, duplicates, gaps, employer changes, seals, totals, notes).
    #[schema(value_type = Object)]
    pub comprobacion: Value,
    /// The receipts on file, in period order.
    pub documentos: Vec<DocumentView>,
    /// RFC 3339.
    pub actualizado_at: String,
}

/// The stored verification of a profile, if it has receipts.
pub async fn find_verification(db: &Db, profile_id: &str) -> DomainResult<Option<VerificationView>> {
    let text = sqlx::query_scalar::<_, String>("SELECT verification_json FROM buyer_verifications WHERE profile_id = $1")
        .bind(profile_id)
        .fetch_optional(db)
        .await?;
    text.map(|t| serde_json::from_str(&t).map_err(DomainError::internal)).transpose()
}

/// A receipt on file as the view shows it: its stored columns and facts.
pub(super) struct OnFile<'a> {
    pub uuid: Option<&'a str>,
    pub sha256: &'a str,
    /// As stored (`xml`, `pdf`, `ocr`, `qr`).
    pub fuente: &'a str,
    /// Unix seconds.
    pub created_at: i64,
    pub facts: &'a CfdiFacts,
}

/// The verification of `declared` (the profile as the buyer declared it, JSON) by the receipts
/// `on_file`, with seniority counted to `today`: the profile to score (the declared one with
/// the verified values applied) and the view, whose `actualizado_at` the caller sets once the
/// rescored profile is stored.
pub(super) fn verify(declared: &str, on_file: &[OnFile<'_>], today: Date) -> DomainResult<(Members, VerificationView)> {
    let facts: Vec<CfdiFacts> = on_file.iter().map(|d| d.facts.clone()).collect();
    let verified = score_docs::profile_from_cfdi(&facts, today)?;
    let perfil_verificado = serde_json::to_value(&verified.perfil).map_err(DomainError::internal)?;
    let (Some(declared_members), Some(verified_members)) = (buyers::members(declared), buyers::members(&perfil_verificado.to_string()))
    else {
        return Err(DomainError::internal("a declared or verified profile is not a JSON object"));
    };
    let (effective, campos, discrepancias) = apply_verified(&declared_members, &verified_members);
    let documentos = on_file
        .iter()
        .map(|d| -> DomainResult<DocumentView> {
            let f = d.facts;
            Ok(DocumentView {
                uuid: d.uuid.map(str::to_owned),
                sha256: d.sha256.to_owned(),
                emisor_rfc: f.emisor_rfc.clone(),
                fecha_inicial_pago: f.fecha_inicial_pago.clone(),
                fecha_final_pago: f.fecha_final_pago.clone(),
                tipo_nomina: f.tipo_nomina.clone(),
                fuente: d.fuente.to_owned(),
                sello: Some(serde_json::to_value(&f.sello).map_err(DomainError::internal)?),
                recibido_at: db::to_rfc3339(d.created_at),
            })
        })
        .collect::<DomainResult<Vec<_>>>()?;
    let view = VerificationView {
        campos,
        campos_impresos: verified.verificacion.campos_impresos.iter().map(|c| (*c).to_owned()).collect(),
        discrepancias,
        perfil_declarado: RawValue::from_string(declared.to_owned()).map_err(DomainError::internal)?,
        perfil_verificado,
        perfil_impreso: serde_json::to_value(&verified.perfil_impreso).map_err(DomainError::internal)?,
        deudas_nomina: serde_json::to_value(&verified.deudas_nomina).map_err(DomainError::internal)?,
        comprobacion: serde_json::to_value(&verified.verificacion).map_err(DomainError::internal)?,
        documentos,
        actualizado_at: String::new(),
    };
    Ok((effective, view))
}

/// The profile fields receipts can prove, in score-core's field order.
const VERIFIABLE: [&str; 5] = ["estado", "ingreso_mensual", "tipo_ingreso", "antiguedad_meses", "deudas_mensuales"];

/// Fields whose verified value replaces the declared one.
const REPLACED: [&str; 3] = ["ingreso_mensual", "tipo_ingreso", "antiguedad_meses"];

/// The declared profile with the verified values applied (see the module's precedence rules),
/// the fields taken from the receipts, and every difference. Numbers are compared by value
/// as written (`30000` and `30000.00` are the same amount).
fn apply_verified(declared: &Members, verified: &Members) -> (Members, Vec<String>, Vec<Discrepancia>) {
    let mut effective = declared.clone();
    let mut campos = Vec::new();
    let mut discrepancias = Vec::new();
    for campo in VERIFIABLE {
        let Some(value) = verified.get(campo) else { continue };
        let before = declared.get(campo);
        let differs = before.is_some_and(|b| !same_value(b, value));
        let (apply, nota) = match campo {
            c if REPLACED.contains(&c) => (true, "Se usa el valor de los recibos de nómina."),
            "deudas_mensuales" => {
                // Equal counts as verified: the declared amount is the proven one.
                let less = before.is_none_or(|b| amount(b) <= amount(value));
                (less, if less {
                    "Los recibos prueban al menos estos pagos de deudas por nómina; se usa su valor."
                } else {
                    "Se conserva lo declarado: los recibos solo prueban las deudas que se pagan por nómina."
                })
            }
            _ => (false, "Se conserva lo declarado: el recibo indica dónde se trabaja, el perfil dónde se quiere comprar."),
        };
        if apply {
            effective.insert(campo.to_owned(), value.clone());
            campos.push(campo.to_owned());
        }
        if differs && (apply || campo != "deudas_mensuales") {
            discrepancias.push(Discrepancia {
                campo: campo.to_owned(),
                declarado: before.map_or(Value::Null, |b| json_value(b)),
                verificado: json_value(value),
                aplicado: apply,
                nota: nota.to_owned(),
            });
        }
    }
    (effective, campos, discrepancias)
}

/// A member's value as JSON (its text is valid JSON).
fn json_value(raw: &RawValue) -> Value {
    serde_json::from_str(raw.get()).unwrap_or(Value::Null)
}

/// The amount a member writes, as written; 0 for anything that is not a number.
fn amount(raw: &RawValue) -> Decimal {
    score_core::money::from_json_literal(raw.get()).unwrap_or(Decimal::ZERO)
}

/// Whether two members hold the same value: numbers by their amount as written, anything
/// else as JSON.
fn same_value(a: &RawValue, b: &RawValue) -> bool {
    match (score_core::money::from_json_literal(a.get()), score_core::money::from_json_literal(b.get())) {
        (Some(x), Some(y)) => x == y,
        _ => json_value(a) == json_value(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn apply(declared: Value, verified: Value) -> (Value, Vec<String>, Vec<Discrepancia>) {
        let members = |v: Value| buyers::members(&v.to_string()).unwrap_or_default();
        let (effective, campos, discrepancias) = apply_verified(&members(declared), &members(verified));
        (serde_json::from_str(&buyers::members_text(&effective)).unwrap_or_default(), campos, discrepancias)
    }

    #[test]
    fn verified_income_replaces_and_is_reported() {
        let (p, campos, d) = apply(
            json!({"estado": "JAL", "ingreso_mensual": 30000, "tipo_ingreso": "mixto", "antiguedad_meses": 12}),
            json!({"estado": "JAL", "ingreso_mensual": 28123.45, "tipo_ingreso": "asalariado", "antiguedad_meses": 12}),
        );
        assert_eq!(p["ingreso_mensual"], json!(28123.45));
        assert_eq!(p["tipo_ingreso"], json!("asalariado"));
        assert_eq!(campos, ["ingreso_mensual", "tipo_ingreso", "antiguedad_meses"]);
        let fields: Vec<&str> = d.iter().map(|x| x.campo.as_str()).collect();
        assert_eq!(fields, ["ingreso_mensual", "tipo_ingreso"]);
        assert!(d.iter().all(|x| x.aplicado));
        assert_eq!(d[0].declarado, json!(30000));
    }

    #[test]
    fn payroll_debts_are_a_floor_and_the_state_stays() {
        let (p, campos, d) = apply(
            json!({"estado": "CMX", "deudas_mensuales": 9000}),
            json!({"estado": "JAL", "deudas_mensuales": 2500.5}),
        );
        assert_eq!(p["deudas_mensuales"], json!(9000));
        assert_eq!(p["estado"], json!("CMX"));
        assert!(campos.is_empty());
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].campo.as_str(), d[0].aplicado), ("estado", false));

        let (p, campos, d) = apply(json!({"deudas_mensuales": 1000}), json!({"deudas_mensuales": 2500.5}));
        assert_eq!(p["deudas_mensuales"], json!(2500.5));
        assert_eq!(campos, ["deudas_mensuales"]);
        assert!(d[0].aplicado);

        let (p, campos, d) = apply(json!({"deudas_mensuales": 2500.5}), json!({"deudas_mensuales": 2500.5}));
        assert_eq!((p["deudas_mensuales"].clone(), campos), (json!(2500.5), vec!["deudas_mensuales".to_owned()]));
        assert!(d.is_empty(), "the declared amount is the verified one");

        let (p, _, d) = apply(json!({}), json!({"deudas_mensuales": 2500.5}));
        assert_eq!(p["deudas_mensuales"], json!(2500.5));
        assert!(d.is_empty(), "nothing declared: nothing differs");
    }
}
