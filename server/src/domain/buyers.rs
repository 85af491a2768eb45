//! Buyer profiles of the credit-score API: validation through score-core, contact data, and
//! storage of the profile with the report and the model version that produced it.
//!
//! The profile fields are exactly score-core's (`score_core::FIELDS`), so a profile that scores
//! in Python or in the browser scores the same here. Contact fields (`nombre`, `email`,
//! `telefono`) travel beside them in the same JSON object and are stored apart: they reach an
//! agent only when the buyer documents interest in one of the agent's properties (phase 3), and
//! no response of the public endpoints echoes the e-mail or the phone.
//!
//! A profile travels as JSON text from the request to the store and back (`Members`): a
//! `serde_json::Value` would hold each number as its nearest double, so `10379.1999999999999999`
//! or a co-borrower's `29999.99999999999999999` (less than the household's 30,000 as written,
//! equal to it as a double) would be scored and stored as another amount than the calculator
//! (`POST /api/v1/score`) reads. Profiles are stored as score-core writes them
//! (`Profile::to_json_string`: canonical, each amount with its own digits).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, value::RawValue};
use tokio::sync::{mpsc, oneshot};
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::error::{DomainError, DomainResult},
};

/// Contact fields accepted beside the profile fields.
pub const CONTACT_FIELDS: [&str; 3] = ["nombre", "email", "telefono"];

/// Contact changes of a request: `None` leaves a field as it is, `Some(None)` clears it.
#[derive(Debug, Default, Clone)]
pub struct ContactPatch {
    pub nombre: Option<Option<String>>,
    pub email: Option<Option<String>>,
    pub telefono: Option<Option<String>>,
}

impl ContactPatch {
    /// The contact (name, e-mail, phone) after applying this patch over a stored profile's.
    pub fn over(&self, stored: &BuyerRow) -> (Option<String>, Option<String>, Option<String>) {
        let pick = |patch: &Option<Option<String>>, current: &Option<String>| match patch {
            Some(v) => v.clone(),
            None => current.clone(),
        };
        (
            pick(&self.nombre, &stored.contact_name),
            pick(&self.email, &stored.contact_email),
            pick(&self.telefono, &stored.contact_phone),
        )
    }
}

/// A JSON object's members, each value kept as the text written (numbers keep their digits).
pub type Members = BTreeMap<String, Box<RawValue>>;

/// The members of the JSON text `text`; `None` when it is not an object.
pub fn members(text: &str) -> Option<Members> {
    serde_json::from_str(text).ok()
}

/// The JSON text of an object with `members`.
pub fn members_text(members: &Members) -> String {
    // Keys and already valid JSON values: writing them cannot fail.
    serde_json::to_string(members).unwrap_or_default()
}

/// The contact fields of a request body, each removed from it by `take`.
fn take_contact(mut take: impl FnMut(&str) -> Option<Value>) -> DomainResult<ContactPatch> {
    let mut contact = ContactPatch::default();
    for key in CONTACT_FIELDS {
        if let Some(value) = take(key) {
            let parsed = contact_value(key, value)?;
            match key {
                "nombre" => contact.nombre = Some(parsed),
                "email" => contact.email = Some(parsed),
                _ => contact.telefono = Some(parsed),
            }
        }
    }
    Ok(contact)
}

/// The object of a request body, split into its other fields and contact fields. A body that
/// is not an object is left to the caller's parser, which reports its type.
pub fn split_body(body: Value) -> DomainResult<(Value, ContactPatch)> {
    let Value::Object(mut map) = body else {
        return Ok((body, ContactPatch::default()));
    };
    let contact = take_contact(|key| map.remove(key))?;
    Ok((Value::Object(map), contact))
}

/// A profile request body, split into the profile's JSON text (its numbers as written) and
/// the contact fields. A body that is not an object is left to score-core, which reports
/// `INVALID_TYPE`.
pub fn split_profile_body(body: &RawValue) -> DomainResult<(String, ContactPatch)> {
    let Some(mut fields) = members(body.get()) else {
        return Ok((body.get().to_owned(), ContactPatch::default()));
    };
    // A member's text is valid JSON: it parses.
    let contact = take_contact(|key| fields.remove(key).and_then(|raw| serde_json::from_str(raw.get()).ok()))?;
    Ok((members_text(&fields), contact))
}

fn invalid_contact(field: &str, message: &str) -> DomainError {
    DomainError::validation(message.to_string()).with("field", field)
}

/// Validates one contact field; `null` or an empty text clears it.
fn contact_value(field: &str, value: Value) -> DomainResult<Option<String>> {
    let text = match value {
        Value::Null => return Ok(None),
        Value::String(s) => s.trim().to_string(),
        _ => return Err(invalid_contact(field, &format!("El campo \"{field}\" debe ser un texto."))),
    };
    if text.is_empty() {
        return Ok(None);
    }
    let ok = match field {
        "nombre" => text.chars().count() <= 120 && !text.chars().any(char::is_control),
        "email" => {
            let parts: Vec<&str> = text.split('@').collect();
            text.len() <= 254
                && parts.len() == 2
                && !parts[0].is_empty()
                && parts[1].contains('.')
                && !parts[1].starts_with('.')
                && !parts[1].ends_with('.')
                && !text.chars().any(|c| c.is_whitespace() || c.is_control())
        }
        _ => {
            let digits = text.chars().filter(char::is_ascii_digit).count();
            (7..=15).contains(&digits)
                && text.len() <= 25
                && text.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c))
        }
    };
    if !ok {
        let message = match field {
            "nombre" => "El campo \"nombre\" admite hasta 120 caracteres.",
            "email" => "El campo \"email\" no es un correo electrónico válido.",
            _ => "El campo \"telefono\" debe tener de 7 a 15 dígitos.",
        };
        return Err(invalid_contact(field, message));
    }
    Ok(Some(if field == "email" { text.to_lowercase() } else { text }))
}

/// A stored buyer profile.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BuyerRow {
    pub id: String,
    pub profile_json: String,
    pub report_json: String,
    pub model_version: String,
    pub score: i64,
    pub nivel: String,
    pub estado: String,
    pub phase: i64,
    pub contact_name: Option<String>,
    pub contact_email: Option<String>,
    pub contact_phone: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A validated profile with its report, ready to store.
#[derive(Debug, Clone)]
pub struct Scored {
    /// The profile as score-core writes it (`Profile::to_json_string`).
    pub profile: String,
    pub report: score_core::ScoreReport,
}

/// Validates and scores a profile (JSON text) through score-core, which reads its numbers as
/// written, as the calculator does.
pub fn score_profile(profile: &str) -> DomainResult<Scored> {
    // Read and validated once; scoring a `ValidProfile` cannot fail.
    let valid = score_core::ValidProfile::from_json_str(profile)?;
    let report = valid.score();
    Ok(Scored { profile: valid.profile().to_json_string(), report })
}

/// Inserts a new profile in `phase` and returns it, once it is durably stored.
pub async fn insert(writer: &ProfileWriter, scored: &Scored, contact: &ContactPatch, phase: i64) -> DomainResult<BuyerRow> {
    let now = db::now();
    let row = BuyerRow {
        id: db::new_id(),
        profile_json: scored.profile.clone(),
        report_json: scored.report.to_json_string(),
        model_version: score_core::MODEL_VERSION.to_string(),
        score: i64::from(scored.report.score),
        nivel: scored.report.nivel.as_str().to_string(),
        estado: scored.report.estado.codigo.to_string(),
        phase,
        contact_name: contact.nombre.clone().flatten(),
        contact_email: contact.email.clone().flatten(),
        contact_phone: contact.telefono.clone().flatten(),
        created_at: now,
        updated_at: now,
    };
    writer.write(row).await
}

const INSERT_PROFILE: &str = "INSERT INTO buyer_profiles (id, profile_json, report_json, model_version, score, nivel, \
     estado, phase, contact_name, contact_email, contact_phone, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";

async fn insert_row(conn: &mut sqlx::AnyConnection, row: &BuyerRow) -> Result<(), sqlx::Error> {
    sqlx::query(INSERT_PROFILE)
        .bind(&row.id)
        .bind(&row.profile_json)
        .bind(&row.report_json)
        .bind(&row.model_version)
        .bind(row.score)
        .bind(&row.nivel)
        .bind(&row.estado)
        .bind(row.phase)
        .bind(&row.contact_name)
        .bind(&row.contact_email)
        .bind(&row.contact_phone)
        .bind(row.created_at)
        .bind(row.updated_at)
        .execute(conn)
        .await?;
    Ok(())
}

/// Most profiles committed in one transaction.
const MAX_BATCH: usize = 256;

type Pending = (BuyerRow, oneshot::Sender<DomainResult<BuyerRow>>);

/// Group commit for new buyer profiles (phase 1 and onboarding, the write-heavy endpoints).
///
/// A durable commit costs one fsync (SQLite runs with `synchronous = FULL`), and SQLite has one
/// writer at a time, so one transaction per request caps onboarding at the disk's fsync rate and
/// makes concurrent writers queue on the file lock. Instead, requests hand their row to one
/// writer task, which commits everything waiting (up to [`MAX_BATCH`] rows) in one transaction
/// and answers each request only after that commit: the same durability, one fsync per batch.
/// If a batch fails, its rows are retried one transaction each, so one bad row fails alone.
/// The same path runs on PostgreSQL.
#[derive(Clone, Debug)]
pub struct ProfileWriter {
    tx: mpsc::Sender<Pending>,
}

impl ProfileWriter {
    /// Starts the writer task; it ends when every clone of the writer is dropped, after
    /// committing what is queued.
    pub fn start(db: Db) -> ProfileWriter {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run_writer(db, rx));
        ProfileWriter { tx }
    }

    /// Stores `row` and returns it once committed.
    pub async fn write(&self, row: BuyerRow) -> DomainResult<BuyerRow> {
        let (reply, answer) = oneshot::channel();
        let closed = || DomainError::service_unavailable("SHUTTING_DOWN", "El servidor se está deteniendo");
        self.tx.send((row, reply)).await.map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }
}

async fn run_writer(db: Db, mut rx: mpsc::Receiver<Pending>) {
    let mut batch: Vec<Pending> = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        match commit_batch(&db, &batch).await {
            Ok(()) => {
                for (row, reply) in batch.drain(..) {
                    let _ = reply.send(Ok(row));
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, rows = batch.len(), "profile batch failed; retrying row by row");
                for (row, reply) in batch.drain(..) {
                    let result = match db.acquire().await {
                        Ok(mut conn) => insert_row(&mut conn, &row).await.map(|()| row).map_err(DomainError::from),
                        Err(e) => Err(DomainError::from(e)),
                    };
                    let _ = reply.send(result);
                }
            }
        }
    }
}

async fn commit_batch(db: &Db, batch: &[Pending]) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    for (row, _) in batch {
        insert_row(&mut tx, row).await?;
    }
    tx.commit().await
}

/// The profile with this id, or 404 `PROFILE_NOT_FOUND` (also for ids that are not UUIDs, so
/// nothing about the id space is revealed). `db` is the pool or a transaction.
pub async fn find<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(db: E, id: &str) -> DomainResult<BuyerRow> {
    let not_found = || DomainError::not_found("PROFILE_NOT_FOUND", "Perfil no encontrado");
    if !db::is_id(id) {
        return Err(not_found());
    }
    sqlx::query_as::<_, BuyerRow>(
        "SELECT id, profile_json, report_json, model_version, score, nivel, estado, phase, \
         contact_name, contact_email, contact_phone, created_at, updated_at FROM buyer_profiles WHERE id = $1",
    )
        .bind(id)
        .fetch_optional(db)
        .await?
        .ok_or_else(not_found)
}

// Phase 2 (refinement) is `documents::refine`: it merges the changes into the declared
// profile with `merge_changes`, applies the verified values of the profile's payroll receipts
// when there are any, and stores the result with `rescored` and `update` in one transaction.

/// `changes` (JSON text of profile fields; `null` clears an optional one) over the profile
/// JSON `base`, as JSON text: every number as written.
pub fn merge_changes(base: &str, changes: &str) -> DomainResult<String> {
    let Some(changes) = members(changes) else {
        // score-core reports a non-object profile as INVALID_TYPE with its own message.
        return match score_core::Profile::from_json_str(changes) {
            Err(e) => Err(e.into()),
            Ok(_) => Err(DomainError::internal("a non-object profile was accepted")),
        };
    };
    let Some(mut merged) = members(base) else {
        return Err(DomainError::internal("stored profile is not a JSON object"));
    };
    for (key, value) in changes {
        if value.get() == "null" {
            merged.remove(&key);
        } else {
            merged.insert(key, value);
        }
    }
    Ok(members_text(&merged))
}

/// `current` with a new scored profile and the contact patch applied, in phase 2 at least.
pub fn rescored(current: &BuyerRow, scored: &Scored, contact: &ContactPatch) -> BuyerRow {
    let (contact_name, contact_email, contact_phone) = contact.over(current);
    BuyerRow {
        profile_json: scored.profile.clone(),
        report_json: scored.report.to_json_string(),
        model_version: score_core::MODEL_VERSION.to_string(),
        score: i64::from(scored.report.score),
        nivel: scored.report.nivel.as_str().to_string(),
        estado: scored.report.estado.codigo.to_string(),
        phase: current.phase.max(2),
        contact_name,
        contact_email,
        contact_phone,
        updated_at: db::now(),
        ..current.clone()
    }
}

/// Stores every field of `row` over the profile with its id.
pub async fn update(conn: &mut sqlx::AnyConnection, row: &BuyerRow) -> DomainResult<()> {
    sqlx::query(
        "UPDATE buyer_profiles SET profile_json = $1, report_json = $2, model_version = $3, score = $4, nivel = $5, \
         estado = $6, phase = $7, contact_name = $8, contact_email = $9, contact_phone = $10, updated_at = $11 \
         WHERE id = $12",
    )
    .bind(&row.profile_json)
    .bind(&row.report_json)
    .bind(&row.model_version)
    .bind(row.score)
    .bind(&row.nivel)
    .bind(&row.estado)
    .bind(row.phase)
    .bind(&row.contact_name)
    .bind(&row.contact_email)
    .bind(&row.contact_phone)
    .bind(row.updated_at)
    .bind(&row.id)
    .execute(conn)
    .await?;
    Ok(())
}

/// What the public endpoints show of the contact data: the name, and whether an e-mail and a
/// phone are on file (never the e-mail or the phone themselves).
#[derive(Debug, Serialize, ToSchema)]
pub struct ContactSummary {
    pub nombre: Option<String>,
    pub email_registrado: bool,
    pub telefono_registrado: bool,
}

/// The profile of the OpenAPI examples (`routes::examples`).
pub const EXAMPLE_PROFILE: &str = r#"{"estado": "Jalisco", "ingreso_mensual": 42000, "tipo_ingreso": "asalariado", "antiguedad_meses": 30, "deudas_mensuales": 3500, "ahorro": 150000, "edad": 33, "personas_hogar": 3}"#;

/// The `platform_score` of [`EXAMPLE_PROFILE`], computed by score-core: the examples of the
/// OpenAPI document show the real shape and numbers of the current model.
pub fn example_report() -> Value {
    score_core::ValidProfile::from_json_str(EXAMPLE_PROFILE)
        .map(|p| {
            let mut out = Vec::new();
            p.score().write_json(&mut out);
            serde_json::from_slice(&out).unwrap_or(Value::Null)
        })
        .unwrap_or(Value::Null)
}

/// A buyer profile as returned by phase 2, onboarding and `GET /perfil/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileView {
    /// Unguessable profile id (UUID v4).
    pub id: String,
    /// 1 after phase 1, 2 after phase 2 or onboarding, 3 once interest was documented.
    pub fase: i64,
    /// The profile as score-core reads it (canonical: state as ISO code, absent optionals
    /// omitted), each amount with the digits it was sent with.
    #[schema(value_type = Object, example = json!({"estado": "JAL", "ingreso_mensual": 42000, "tipo_ingreso": "asalariado", "antiguedad_meses": 30, "deudas_mensuales": 3500, "ahorro": 150000, "edad": 33, "personas_hogar": 3}))]
    pub perfil: Box<RawValue>,
    /// The `platform_score` object of spec 2.4 as produced by `modelo_version` (same keys and
    /// numbers as score-core and the fixtures).
    #[schema(value_type = Object, example = example_report)]
    pub platform_score: Value,
    /// Model version that produced `platform_score`; older results stay readable as they were.
    #[schema(example = "2.1")]
    pub modelo_version: String,
    pub contacto: ContactSummary,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

impl BuyerRow {
    pub fn view(&self) -> DomainResult<ProfileView> {
        let parse = |text: &str| serde_json::from_str::<Value>(text).map_err(DomainError::internal);
        Ok(ProfileView {
            id: self.id.clone(),
            fase: self.phase,
            perfil: RawValue::from_string(self.profile_json.clone()).map_err(DomainError::internal)?,
            platform_score: parse(&self.report_json)?,
            modelo_version: self.model_version.clone(),
            contacto: ContactSummary {
                nombre: self.contact_name.clone(),
                email_registrado: self.contact_email.is_some(),
                telefono_registrado: self.contact_phone.is_some(),
            },
            created_at: db::to_rfc3339(self.created_at),
            updated_at: db::to_rfc3339(self.updated_at),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_merge_over_the_stored_digits_and_null_clears_however_written() {
        let base = r#"{"ahorro":150000.0000000000000001,"deudas_mensuales":1000,"estado":"JAL"}"#;
        let merged = merge_changes(base, "{ \"deudas_mensuales\" :\n null , \"edad\": 33 }").expect("merged");
        assert_eq!(merged, r#"{"ahorro":150000.0000000000000001,"edad":33,"estado":"JAL"}"#);
    }

    #[test]
    fn contact_fields_leave_the_profile_text_as_written() {
        let body = RawValue::from_string(r#"{"ingreso_mensual": 10379.1999999999999999, "nombre": " Ana ", "email": null}"#.to_owned())
            .expect("JSON");
        let (profile, contact) = split_profile_body(&body).expect("split");
        assert_eq!(profile, r#"{"ingreso_mensual":10379.1999999999999999}"#);
        assert_eq!((contact.nombre, contact.email, contact.telefono), (Some(Some("Ana".to_owned())), Some(None), None));
        // Not an object: left to score-core, which names the type.
        let (text, _) = split_profile_body(&RawValue::from_string("[1]".to_owned()).expect("JSON")).expect("split");
        assert_eq!(score_profile(&text).expect_err("not an object").code, "INVALID_TYPE");
    }
}
