//! Payroll receipts (CFDI with the Nómina complement) attached to a buyer profile: the facts
//! score-docs reads from them, the verified values they prove, and the profile rescored with
//! those values taking precedence over the declared ones.
//!
//! Only sealed XML verifies. A field a printed receipt (PDF, scan, photo, QR code) helps prove
//! is read from paper: shown in `perfil_impreso` and `campos_impresos`, with each print to
//! confirm (`comprobacion.por_confirmar`: its UUID, for the XML or the SAT's service), and
//! never applied over the declared profile.
//!
//! What is stored: each receipt's facts (`score_docs::CfdiFacts` as JSON) and the SHA-256 of
//! its file, never the file; the profile as the buyer declared it; and the last verification.
//! A receipt is identified by its SAT UUID (or, unstamped, by its SHA-256): sending it again
//! changes nothing. Every upload recomputes the verification from all the profile's receipts,
//! with seniority counted to today's date in Mexico City.
//!
//! Precedence (the declared value is kept in `perfil_declarado`, and every difference is
//! listed in `discrepancias`, never silently replaced):
//! - `ingreso_mensual`, `tipo_ingreso`, `antiguedad_meses`: the verified value replaces the
//!   declared one.
//! - `deudas_mensuales`: receipts prove a floor (the debts paid through payroll), so the
//!   verified value applies when nothing, less or the same was declared; a larger declared value
//!   stays (`campos` lists it only when it applies).
//! - `estado`: never replaced. The receipt names the state where the buyer works, the profile
//!   the state where the buyer wants to buy; a difference is listed with `aplicado: false`.

use score_docs::{CertificadosSat, CfdiFacts, Date, DocError, DocErrorCode};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::buyers::{self, BuyerRow, ContactPatch, ProfileView},
    domain::error::{DomainError, DomainResult},
    domain::verification::{self, OnFile, VerificationView},
};

/// A receipt read from an upload, not stored yet.
#[derive(Debug, Clone)]
pub struct ReadReceipt {
    /// The file name the client gave (shown back only).
    pub archivo: Option<String>,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    pub facts: CfdiFacts,
    /// The XML, or its print (a PDF's text or OCR).
    pub fuente: Origin,
}

/// Reads every XML file with score-docs, chaining each certificate to the SAT's CA
/// certificates `ca` (`SAT_CA_DIR`); `files` are `(i, name, bytes)` with `i` the file's
/// place among the `recibos` of the request. A file that is not a readable payroll receipt
/// fails the request with its code (`DOCUMENT_*`), `field` = `recibos[i]` (plus the attribute
/// at fault) and `archivo` = its name.
pub fn read_receipts(files: &[(usize, Option<String>, &[u8])], ca: &CertificadosSat) -> DomainResult<Vec<ReadReceipt>> {
    files
        .iter()
        .map(|&(i, ref name, bytes)| match score_docs::read_cfdi_con(bytes, ca) {
            Ok(facts) => Ok(ReadReceipt {
                archivo: name.clone(),
                sha256: sha256_hex(bytes),
                facts,
                fuente: Origin::Xml,
            }),
            Err(e) => {
                let field = match &e.field {
                    Some(f) => format!("recibos[{i}].{f}"),
                    None => format!("recibos[{i}]"),
                };
                let error = DomainError::from(DocError { field: Some(field), message: format!("Recibo {}: {}", i + 1, e.message), ..e });
                Err(match name {
                    Some(n) => error.with("archivo", n.as_str()),
                    None => error,
                })
            }
        })
        .collect()
}

/// SHA-256 of a file, hex: how a file is known without keeping it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Today's date in Mexico City (UTC−6 all year since 2022), the reference for seniority.
pub fn today_in_mexico() -> Date {
    let offset = time::UtcOffset::from_hms(-6, 0, 0).unwrap_or(time::UtcOffset::UTC);
    let today = time::OffsetDateTime::now_utc().to_offset(offset).date();
    let text = format!("{:04}-{:02}-{:02}", today.year(), u8::from(today.month()), today.day());
    // A calendar date from `time` always parses.
    Date::parse(&text).unwrap_or_else(|| unreachable!("{text} is a date"))
}

/// What happened to each file of an upload.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReceiptOutcome {
    /// File name as sent.
    pub archivo: Option<String>,
    pub uuid: Option<String>,
    pub sha256: String,
    /// `false` when the profile already had this receipt (same UUID, or same file when
    /// unstamped): nothing changed for it. An XML whose receipt was on file from its print
    /// replaces it (`true`).
    pub nuevo: bool,
}

/// Answer of `POST /api/v1/fase2/documentos/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentsAttached {
    #[serde(flatten)]
    pub profile: ProfileView,
    pub verificacion: VerificationView,
    /// Each file of the request, in the order sent.
    pub recibidos: Vec<ReceiptOutcome>,
}

#[derive(Debug, sqlx::FromRow)]
struct DocumentRow {
    id: String,
    uuid: Option<String>,
    sha256: String,
    facts_json: String,
    fuente: String,
    created_at: i64,
}

/// Locks the profile for this transaction (a write first: PostgreSQL locks the row, SQLite
/// takes its write lock), so that two uploads or refinements of one profile run one after the
/// other and each sees the other's receipts; then reads it.
async fn lock_profile(conn: &mut AnyConnection, id: &str) -> DomainResult<BuyerRow> {
    if db::is_id(id) {
        sqlx::query("UPDATE buyer_profiles SET updated_at = updated_at WHERE id = $1").bind(id).execute(&mut *conn).await?;
    }
    buyers::find(&mut *conn, id).await
}

async fn stored_documents(conn: &mut AnyConnection, profile_id: &str) -> DomainResult<Vec<(DocumentRow, CfdiFacts)>> {
    let rows = sqlx::query_as::<_, DocumentRow>(
        "SELECT id, uuid, sha256, facts_json, fuente, created_at FROM buyer_documents WHERE profile_id = $1 \
         ORDER BY fecha_inicial_pago, fecha_final_pago, created_at, id",
    )
    .bind(profile_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|r| CfdiFacts::from_json(&r.facts_json).map(|f| (r, f)).map_err(DomainError::internal))
        .collect()
}

async fn declared_profile(conn: &mut AnyConnection, current: &BuyerRow) -> DomainResult<Option<String>> {
    Ok(sqlx::query_scalar::<_, String>("SELECT declared_json FROM buyer_verifications WHERE profile_id = $1")
        .bind(&current.id)
        .fetch_optional(&mut *conn)
        .await?)
}

/// Attaches `receipts` to the profile `id`, recomputes its verification from all of its
/// receipts and rescores it. Errors: 404 `PROFILE_NOT_FOUND`; 422 `DOCUMENT_MIXED_WORKERS`
/// when a receipt names another worker than the others (those on file included); 413
/// `DOCUMENT_TOO_LARGE` beyond score-docs' receipts per profile; score-core's codes when the
/// verified profile is one the model refuses.
pub async fn attach(db: &Db, id: &str, receipts: Vec<ReadReceipt>, today: Date) -> DomainResult<(BuyerRow, DocumentsAttached)> {
    let mut tx = db.begin().await?;
    let current = lock_profile(&mut tx, id).await?;
    let stored = stored_documents(&mut tx, id).await?;
    let worker = stored.first().map(|(_, f)| f).or(receipts.first().map(|r| &r.facts));
    if let Some(worker) = worker {
        same_worker(worker, &receipts, !stored.is_empty())?;
    }
    let now = db::now();
    let mut recibidos = Vec::with_capacity(receipts.len());
    let mut known: Vec<(Option<String>, String, String, Origin)> = stored
        .iter()
        .map(|(r, _)| (r.uuid.clone(), r.sha256.clone(), r.id.clone(), Origin::parse(&r.fuente)))
        .collect();
    for r in receipts {
        let seen = known.iter_mut().find(|(uuid, sha, _, _)| match (&r.facts.uuid, uuid) {
            (Some(new), Some(old)) => new == old,
            _ => *sha == r.sha256,
        });
        let nuevo = match seen {
            None => {
                let row_id = db::new_id();
                sqlx::query(
                    "INSERT INTO buyer_documents (id, profile_id, uuid, sha256, facts_json, fecha_inicial_pago, \
                     fecha_final_pago, created_at, fuente) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(&row_id)
                .bind(id)
                .bind(&r.facts.uuid)
                .bind(&r.sha256)
                .bind(r.facts.to_json())
                .bind(&r.facts.fecha_inicial_pago)
                .bind(&r.facts.fecha_final_pago)
                .bind(now)
                .bind(r.fuente.as_str())
                .execute(&mut *tx)
                .await?;
                known.push((r.facts.uuid.clone(), r.sha256.clone(), row_id, r.fuente));
                true
            }
            // The XML of a receipt on file from its print: the XML wins (it is the stamped
            // original; the print was read, maybe misread).
            Some((_, sha, row_id, origin)) if *origin != Origin::Xml && r.fuente == Origin::Xml => {
                sqlx::query(
                    "UPDATE buyer_documents SET sha256 = $2, facts_json = $3, fecha_inicial_pago = $4, \
                     fecha_final_pago = $5, fuente = $6 WHERE id = $1",
                )
                .bind(&*row_id)
                .bind(&r.sha256)
                .bind(r.facts.to_json())
                .bind(&r.facts.fecha_inicial_pago)
                .bind(&r.facts.fecha_final_pago)
                .bind(Origin::Xml.as_str())
                .execute(&mut *tx)
                .await?;
                (*sha, *origin) = (r.sha256.clone(), Origin::Xml);
                true
            }
            Some(_) => false,
        };
        recibidos.push(ReceiptOutcome { archivo: r.archivo, uuid: r.facts.uuid, sha256: r.sha256, nuevo });
    }
    let declared = match declared_profile(&mut tx, &current).await? {
        Some(text) => text,
        None => current.profile_json.clone(),
    };
    let (row, verificacion) = rescore(&mut tx, &current, &declared, &ContactPatch::default(), today).await?;
    tx.commit().await?;
    let attached = DocumentsAttached { profile: row.view()?, verificacion, recibidos };
    Ok((row, attached))
}

/// Phase 2 for every profile: merges `changes` (profile fields; `null` clears an optional one)
/// and the contact patch into the declared profile, rescores it with the current model and
/// stores it; when the profile has receipts, their verified values apply over it again (so a
/// refinement never undoes them). The phase never goes back (phase 3 stays 3).
pub async fn refine(
    db: &Db,
    id: &str,
    changes: &str,
    contact: &ContactPatch,
    today: Date,
) -> DomainResult<(BuyerRow, Option<VerificationView>)> {
    let mut tx = db.begin().await?;
    let current = lock_profile(&mut tx, id).await?;
    let refined = match declared_profile(&mut tx, &current).await? {
        None => {
            let merged = buyers::merge_changes(&current.profile_json, changes)?;
            let row = buyers::rescored(&current, &buyers::score_profile(&merged)?, contact);
            buyers::update(&mut tx, &row).await?;
            (row, None)
        }
        Some(declared) => {
            let merged = buyers::merge_changes(&declared, changes)?;
            // The declared profile must stand on its own (score-core's checks and codes).
            let declared = buyers::score_profile(&merged)?.profile;
            let (row, verificacion) = rescore(&mut tx, &current, &declared, contact, today).await?;
            (row, Some(verificacion))
        }
    };
    tx.commit().await?;
    Ok(refined)
}

/// Recomputes the verification from every stored receipt, applies it over `declared`,
/// rescores and stores the profile and the verification.
async fn rescore(
    conn: &mut AnyConnection,
    current: &BuyerRow,
    declared: &str,
    contact: &ContactPatch,
    today: Date,
) -> DomainResult<(BuyerRow, VerificationView)> {
    let stored = stored_documents(conn, &current.id).await?;
    let on_file: Vec<OnFile<'_>> = stored
        .iter()
        .map(|(r, f)| OnFile { uuid: r.uuid.as_deref(), sha256: &r.sha256, fuente: &r.fuente, created_at: r.created_at, facts: f })
        .collect();
    let (effective, mut view) = verification::verify(declared, &on_file, today)?;
    let scored = buyers::score_profile(&buyers::members_text(&effective))?;
    let row = buyers::rescored(current, &scored, contact);
    buyers::update(&mut *conn, &row).await?;
    view.actualizado_at = db::to_rfc3339(row.updated_at);
    let verification_json = serde_json::to_string(&view).map_err(DomainError::internal)?;
    sqlx::query(
        "INSERT INTO buyer_verifications (profile_id, declared_json, verification_json, updated_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (profile_id) DO UPDATE SET declared_json = $2, \
         verification_json = $3, updated_at = $4",
    )
    .bind(&row.id)
    // As written: rescoring it later reads the amounts' own digits.
    .bind(declared)
    .bind(verification_json)
    .bind(row.updated_at)
    .execute(&mut *conn)
    .await?;
    Ok((row, view))
}

/// Refuses receipts of another worker than `worker` (the first on file, or the first sent).
fn same_worker(worker: &CfdiFacts, receipts: &[ReadReceipt], on_file: bool) -> DomainResult<()> {
    for (i, r) in receipts.iter().enumerate() {
        if r.facts.receptor_rfc != worker.receptor_rfc || r.facts.receptor_curp != worker.receptor_curp {
            let whose = if on_file { "los recibos que ya tiene este perfil son" } else { "el recibo 1 es" };
            let error = DomainError::from(DocError {
                code: DocErrorCode::DocumentMixedWorkers,
                field: Some(format!("recibos[{i}]")),
                message: format!(
                    "Los recibos son de trabajadores distintos: {whose} de {} ({}) y el recibo {} de {} ({}). Sube solo los recibos de una persona.",
                    worker.receptor_rfc, worker.receptor_curp, i + 1, r.facts.receptor_rfc, r.facts.receptor_curp
                ),
            });
            return Err(match &r.archivo {
                Some(n) => error.with("archivo", n.as_str()),
                None => error,
            });
        }
    }
    Ok(())
}

/// Where a receipt on file came from, as stored in `buyer_documents.fuente`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Xml,
    Pdf,
    Ocr,
    /// A print whose SAT QR code gave its UUID and RFCs.
    Qr,
}

impl Origin {
    /// As stored (an unknown text is read as the XML, the column's default).
    pub fn parse(text: &str) -> Origin {
        match text {
            "pdf" => Origin::Pdf,
            "ocr" => Origin::Ocr,
            "qr" => Origin::Qr,
            _ => Origin::Xml,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Xml => "xml",
            Origin::Pdf => "pdf",
            Origin::Ocr => "ocr",
            Origin::Qr => "qr",
        }
    }
}

impl From<score_docs::Fuente> for Origin {
    fn from(f: score_docs::Fuente) -> Origin {
        match f {
            score_docs::Fuente::Pdf => Origin::Pdf,
            score_docs::Fuente::Ocr => Origin::Ocr,
            score_docs::Fuente::Qr => Origin::Qr,
        }
    }
}
