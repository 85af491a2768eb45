//! Printed documents (PDF, PNG, JPEG payroll receipts and bank statements) read off the
//! request path: a row per file from upload (`leyendo`) to its outcome (`leido` or
//! `rechazado`), and what reading one does to the profile.
//!
//! What a read document does:
//! - a printed payroll receipt whose checks all pass (`verificado`: read consistently) is
//!   attached to the profile's receipts (`documents::attach`: same worker, one per UUID), with
//!   `fuente` `pdf`, `ocr` or `qr`, but paper is never verified: the fields it helps prove are
//!   shown as read from paper (`verificacion.campos_impresos`, `perfil_impreso`), to be
//!   confirmed by the XML or by the SAT's service with the UUID the `nota` gives, and never
//!   replace the declared ones; the XML of the same UUID, sent before or after, wins;
//! - a printed receipt that fails a check is kept as read (`aplicado` false, `nota` says why):
//!   facts that did not add up never verify a profile;
//! - a bank statement is kept as read; `GET /api/v1/perfil/{id}` shows the income the
//!   statements support (`ingreso_estados_cuenta`, score-docs' rule for the self-employed). It
//!   does not replace the declared income: statements show deposits, not who paid them, and a
//!   bank weighs them with the rest of the file.
//!
//! The file itself is never stored (the row keeps its SHA-256).

use score_docs::{DocError, Documento, EstadoCuenta};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::{
        buyers::ProfileView,
        documents::{self, ReadReceipt},
        verification::VerificationView,
    },
    domain::error::{DomainError, DomainResult},
};

/// Where a printed document is.
pub const LEYENDO: &str = "leyendo";
pub const LEIDO: &str = "leido";
pub const RECHAZADO: &str = "rechazado";

/// The code of a document whose reading a restart cut short.
pub const INTERRUPTED: &str = "DOCUMENT_READ_INTERRUPTED";

/// A printed document and what became of it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LecturaView {
    /// Id of this reading.
    pub id: String,
    /// The file name the client gave.
    pub archivo: Option<String>,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    /// `recibo_nomina` or `estado_cuenta`: as sent (the form field) or as read.
    pub tipo: Option<String>,
    /// `leyendo` (queued or being read), `leido` or `rechazado`.
    #[schema(example = "leyendo")]
    pub estado: String,
    /// Whether it was attached to the profile's receipts (a printed receipt whose checks all
    /// pass): its facts show as read from paper, to be confirmed; paper verifies nothing.
    pub aplicado: bool,
    /// Why a read document was not applied; for an attached print, how to confirm it.
    pub nota: Option<String>,
    /// What was read (score-docs' `Documento`: a receipt's facts with `fuente`, `confianza`,
    /// `verificado` and `comprobaciones`, or a statement's months and checks).
    #[schema(value_type = Option<Object>)]
    pub documento: Option<Value>,
    /// Why it was refused (`DOCUMENT_UNREADABLE`, `DOCUMENT_TOO_LARGE`,
    /// `DOCUMENT_UNSUPPORTED_TYPE`, `DOCUMENT_MIXED_WORKERS`, `DOCUMENT_READ_INTERRUPTED`, ...).
    #[schema(value_type = Option<Object>)]
    pub error: Option<Value>,
    pub recibido_at: String,
    pub terminado_at: Option<String>,
}

#[derive(Debug, sqlx::FromRow)]
struct ReadRow {
    id: String,
    archivo: Option<String>,
    sha256: String,
    tipo: Option<String>,
    estado: String,
    documento_json: Option<String>,
    aplicado: i64,
    nota: Option<String>,
    error_code: Option<String>,
    error_message: Option<String>,
    created_at: i64,
    finished_at: Option<i64>,
}

impl ReadRow {
    fn view(self) -> DomainResult<LecturaView> {
        let documento = self.documento_json.map(|t| serde_json::from_str(&t).map_err(DomainError::internal)).transpose()?;
        let error = self.error_code.map(|code| serde_json::json!({ "codigo": code, "mensaje": self.error_message }));
        Ok(LecturaView {
            id: self.id,
            archivo: self.archivo,
            sha256: self.sha256,
            tipo: self.tipo,
            estado: self.estado,
            aplicado: self.aplicado != 0,
            nota: self.nota,
            documento,
            error,
            recibido_at: db::to_rfc3339(self.created_at),
            terminado_at: self.finished_at.map(db::to_rfc3339),
        })
    }
}

/// A file to read.
#[derive(Debug, Clone)]
pub struct NewRead {
    pub archivo: Option<String>,
    pub sha256: String,
    /// `recibo_nomina` or `estado_cuenta`, as the form field says (`None`: tell by reading).
    pub tipo: Option<&'static str>,
}

/// Records files about to be read by the instance `reader` for the profile `profile_id`
/// (which must exist).
pub async fn start(db: &Db, reader: &str, profile_id: &str, files: &[NewRead]) -> DomainResult<Vec<LecturaView>> {
    let now = db::now();
    let mut tx = db.begin().await?;
    let mut ids = Vec::with_capacity(files.len());
    for f in files {
        let id = db::new_id();
        sqlx::query(
            "INSERT INTO document_reads (id, profile_id, archivo, sha256, tipo, estado, aplicado, created_at, lector) \
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8)",
        )
        .bind(&id)
        .bind(profile_id)
        .bind(&f.archivo)
        .bind(&f.sha256)
        .bind(f.tipo)
        .bind(LEYENDO)
        .bind(now)
        .bind(reader)
        .execute(&mut *tx)
        .await?;
        ids.push(id);
    }
    tx.commit().await?;
    Ok(files
        .iter()
        .zip(ids)
        .map(|(f, id)| LecturaView {
            id,
            archivo: f.archivo.clone(),
            sha256: f.sha256.clone(),
            tipo: f.tipo.map(str::to_owned),
            estado: LEYENDO.to_owned(),
            aplicado: false,
            nota: None,
            documento: None,
            error: None,
            recibido_at: db::to_rfc3339(now),
            terminado_at: None,
        })
        .collect())
}

/// The profile's printed documents, newest first (at most 100).
pub async fn list(db: &Db, profile_id: &str) -> DomainResult<Vec<LecturaView>> {
    let rows = sqlx::query_as::<_, ReadRow>(
        "SELECT id, archivo, sha256, tipo, estado, documento_json, aplicado, nota, error_code, error_message, created_at, \
         finished_at FROM document_reads WHERE profile_id = $1 ORDER BY created_at DESC, id DESC LIMIT 100",
    )
    .bind(profile_id)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(ReadRow::view).collect()
}

/// The income the profile's read bank statements support (score-docs' rule for the
/// self-employed), when it has any.
pub async fn statements_income(db: &Db, profile_id: &str) -> DomainResult<Option<Value>> {
    let texts = sqlx::query_scalar::<_, String>(
        "SELECT documento_json FROM document_reads WHERE profile_id = $1 AND estado = $2 AND tipo = 'estado_cuenta' \
         AND documento_json IS NOT NULL ORDER BY created_at, id",
    )
    .bind(profile_id)
    .bind(LEIDO)
    .fetch_all(db)
    .await?;
    if texts.is_empty() {
        return Ok(None);
    }
    let statements = texts
        .iter()
        .map(|t| EstadoCuenta::from_json(t).map_err(DomainError::internal))
        .collect::<DomainResult<Vec<_>>>()?;
    let income = score_docs::ingreso_independiente(&statements, score_docs::DEFAULT_EXPENSE_FACTOR);
    serde_json::from_str(&income.to_json()).map(Some).map_err(DomainError::internal)
}

async fn finish_row(
    db: &Db,
    id: &str,
    estado: &str,
    documento: Option<(&str, String)>,
    aplicado: bool,
    nota: Option<&str>,
    error: Option<(&str, &str)>,
) -> DomainResult<()> {
    sqlx::query(
        "UPDATE document_reads SET estado = $2, tipo = COALESCE($3, tipo), documento_json = $4, aplicado = $5, nota = $6, \
         error_code = $7, error_message = $8, finished_at = $9 WHERE id = $1",
    )
    .bind(id)
    .bind(estado)
    .bind(documento.as_ref().map(|(tipo, _)| *tipo))
    .bind(documento.as_ref().map(|(_, json)| json.as_str()))
    .bind(i64::from(aplicado))
    .bind(nota)
    .bind(error.map(|(code, _)| code))
    .bind(error.map(|(_, message)| message))
    .bind(db::now())
    .execute(db)
    .await?;
    Ok(())
}

/// Records what reading the file `read` of the profile `profile_id` gave, and applies it: a
/// verified printed receipt is attached to the profile (which rescores it).
pub async fn finish(db: &Db, read: &str, profile_id: &str, file: NewRead, outcome: Result<Documento, DocError>) -> DomainResult<()> {
    let documento = match outcome {
        Err(e) => return finish_row(db, read, RECHAZADO, None, false, None, Some((e.code.as_str(), &e.message))).await,
        Ok(d) => d,
    };
    let json = documento.to_json();
    match documento {
        Documento::EstadoCuenta(_) => finish_row(db, read, LEIDO, Some(("estado_cuenta", json)), false, None, None).await,
        Documento::ReciboNomina(r) if !r.verificado => {
            let nota = "No se aplicó al perfil: el recibo no pasó todas las comprobaciones (ver documento.comprobaciones). \
                        Sube el XML o una imagen más nítida.";
            finish_row(db, read, LEIDO, Some(("recibo_nomina", json)), false, Some(nota), None).await
        }
        Documento::ReciboNomina(r) => {
            let nota = paper_note(&r.hechos);
            let receipt = ReadReceipt { archivo: file.archivo, sha256: file.sha256, facts: r.hechos, fuente: r.fuente.into() };
            match documents::attach(db, profile_id, vec![receipt], documents::today_in_mexico()).await {
                Ok(_) => finish_row(db, read, LEIDO, Some(("recibo_nomina", json)), true, Some(&nota), None).await,
                // The receipt was read; the profile refuses it (another worker's, too many).
                Err(e) if e.kind.is_client_error() => {
                    finish_row(db, read, RECHAZADO, Some(("recibo_nomina", json)), false, None, Some((e.code, &e.message))).await
                }
                Err(e) => Err(e),
            }
        }
    }
}

/// What an attached print is: read from paper, to be confirmed with its UUID.
fn paper_note(facts: &score_docs::CfdiFacts) -> String {
    format!(
        "Leído de papel: sus datos no se verifican hasta confirmarlos con el XML del recibo o en el servicio del SAT ({}) con el UUID {}.",
        score_docs::SAT_VERIFICATION_SERVICE,
        facts.uuid.as_deref().unwrap_or("del recibo")
    )
}

/// Says that the server instance `instance` is alive (its documents are being read); run when
/// it starts and every few seconds after ([`crate::reader`]).
pub async fn heartbeat(db: &Db, instance: &str) -> DomainResult<()> {
    sqlx::query(
        "INSERT INTO server_instances (id, heartbeat_at) VALUES ($1, $2) \
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at",
    )
    .bind(instance)
    .bind(db::now())
    .execute(db)
    .await?;
    Ok(())
}

/// Marks as interrupted the documents whose reader is gone: a server instance that stopped or
/// died with them in its memory (no heartbeat for `stale_after_secs`), or rows from before
/// readers were recorded. The buyer is told to send them again. The documents other live
/// instances are reading are left alone, so a starting instance never cuts another's work.
pub async fn interrupt_orphaned(db: &Db, stale_after_secs: i64) -> DomainResult<u64> {
    let now = db::now();
    let done = sqlx::query(
        "UPDATE document_reads SET estado = $1, error_code = $2, error_message = $3, finished_at = $4 \
         WHERE estado = $5 AND (lector IS NULL OR lector NOT IN \
           (SELECT id FROM server_instances WHERE heartbeat_at >= $6))",
    )
    .bind(RECHAZADO)
    .bind(INTERRUPTED)
    .bind("El servidor se reinició mientras leía este documento; vuelve a subirlo.")
    .bind(now)
    .bind(LEYENDO)
    .bind(now - stale_after_secs)
    .execute(db)
    .await?;
    // Instances silent for a day are forgotten (their documents were marked long ago).
    sqlx::query("DELETE FROM server_instances WHERE heartbeat_at < $1")
        .bind(now - 86_400)
        .execute(db)
        .await?;
    Ok(done.rows_affected())
}

/// A profile as `GET /api/v1/perfil/{id}` and phase 2 return it: with its verification,
/// `null` until receipts are attached.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifiedProfileView {
    #[serde(flatten)]
    pub profile: ProfileView,
    pub verificacion: Option<VerificationView>,
    /// The printed documents sent (PDF, PNG, JPEG), newest first: being read, read or refused.
    pub lecturas: Vec<LecturaView>,
    /// The monthly income the bank statements read support (score-docs' rule for the
    /// self-employed: eligible deposits less the expense factor), `null` without statements.
    /// Shown to the bank; it does not replace the declared income.
    #[schema(value_type = Option<Object>)]
    pub ingreso_estados_cuenta: Option<Value>,
}

impl VerifiedProfileView {
    /// The profile `row` with its verification and printed documents.
    pub async fn load(db: &Db, profile: ProfileView, verificacion: Option<VerificationView>) -> DomainResult<VerifiedProfileView> {
        let lecturas = list(db, &profile.id).await?;
        let ingreso_estados_cuenta = statements_income(db, &profile.id).await?;
        Ok(VerifiedProfileView { profile, verificacion, lecturas, ingreso_estados_cuenta })
    }
}
