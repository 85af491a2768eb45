//! Phase 3 (spec 4.3, `POST /api/v1/fase3/documentar/{id}`) and the agent's leads
//! (`GET /api/agent/leads`): a buyer profile's documented interest in a property, addressed to
//! the agent who lists it.
//!
//! Decisions the spec leaves open:
//! - One lead per (profile, property), enforced by a unique key: repeating the interest answers
//!   200 with the same lead, updating its message (when given) and contact preference; only the
//!   first one e-mails the agent, so a buyer cannot flood an agent's inbox.
//! - The agent must be reachable: a listing without agent is 409 `PROPERTY_WITHOUT_AGENT`, an
//!   inactive agent 409 `AGENT_INACTIVE`. The buyer must be reachable too: an e-mail or a phone
//!   on the profile or in the request (422 `CONTACT_REQUIRED`), matching the chosen preference.
//! - Documenting interest is the buyer's consent to share contact data with that agent: the
//!   agent sees the name, e-mail and phone in `GET /api/agent/leads` (authenticated, only its
//!   own leads). The e-mail to the agent carries no buyer contact data, only a link to that list.

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::{
    db::{
        self, Db,
        sql::{Arg, Sql},
    },
    domain::{
        buyers::{BuyerRow, ContactPatch},
        matching::mxn,
        properties::{PropertyRow, find_property},
    },
    http::{
        paging::{Pagination, Paging},
    },
    mail,
};
use crate::domain::error::{DomainError, DomainResult, ErrorKind};

/// How the buyer prefers to be contacted.
pub const CONTACT_PREFERENCES: [&str; 3] = ["email", "telefono", "whatsapp"];
/// Longest message, in characters.
pub const MAX_MESSAGE: usize = 1000;

/// The phase 3 body (contact fields travel beside it and are handled by `buyers::split_body`).
#[derive(Debug, Clone)]
pub struct InterestInput {
    pub propiedad_id: String,
    pub mensaje: Option<String>,
    pub preferencia_contacto: Option<String>,
}

/// An error about one body field, in the common envelope with `field`.
fn field_error(kind: ErrorKind, code: &'static str, field: &str, message: String) -> DomainError {
    DomainError::new(kind, code, message).with("field", field)
}

impl InterestInput {
    /// Reads the body with the score area's codes: 400 `INVALID_TYPE`, `MISSING_FIELD`,
    /// `UNKNOWN_FIELD`; 422 `VALIDATION_ERROR` for values out of their domain.
    pub fn parse(body: Value) -> DomainResult<InterestInput> {
        let Value::Object(map) = body else {
            return Err(DomainError::bad_request("INVALID_TYPE", "El cuerpo debe ser un objeto JSON."));
        };
        if let Some(unknown) = map.keys().find(|k| !["propiedad_id", "mensaje", "preferencia_contacto"].contains(&k.as_str())) {
            return Err(field_error(ErrorKind::Malformed, "UNKNOWN_FIELD", unknown, format!("Campo desconocido: \"{unknown}\".")));
        }
        let propiedad_id = match map.get("propiedad_id") {
            None | Some(Value::Null) => {
                return Err(field_error(ErrorKind::Malformed, "MISSING_FIELD", "propiedad_id", "Falta el campo \"propiedad_id\".".into()));
            }
            Some(Value::String(s)) => s.trim().to_string(),
            Some(_) => return Err(type_error("propiedad_id")),
        };
        let mensaje = optional_text(&map, "mensaje")?;
        if mensaje.as_ref().is_some_and(|m| m.chars().count() > MAX_MESSAGE) {
            return Err(field_error(ErrorKind::Invalid, "VALIDATION_ERROR", "mensaje", format!("El mensaje admite hasta {MAX_MESSAGE} caracteres.")));
        }
        let preferencia_contacto = optional_text(&map, "preferencia_contacto")?;
        if let Some(p) = &preferencia_contacto
            && !CONTACT_PREFERENCES.contains(&p.as_str())
        {
            return Err(field_error(
                ErrorKind::Invalid,
                "VALIDATION_ERROR",
                "preferencia_contacto",
                "preferencia_contacto debe ser email, telefono o whatsapp.".into(),
            ));
        }
        Ok(InterestInput { propiedad_id, mensaje, preferencia_contacto })
    }
}

fn type_error(field: &str) -> DomainError {
    field_error(ErrorKind::Malformed, "INVALID_TYPE", field, format!("El campo \"{field}\" debe ser un texto."))
}

fn optional_text(map: &Map<String, Value>, field: &str) -> DomainResult<Option<String>> {
    match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_string()).filter(|s| !s.is_empty())),
        Some(_) => Err(type_error(field)),
    }
}

/// The agent who receives a lead.
#[derive(Debug, sqlx::FromRow)]
struct LeadAgent {
    id: String,
    is_active: i64,
    email: String,
    first_name: String,
    last_name: String,
}

#[derive(Debug, sqlx::FromRow)]
struct LeadRow {
    id: String,
    property_id: String,
    message: Option<String>,
    contact_preference: String,
    created_at: i64,
    updated_at: i64,
}

/// The lead as phase 3 returns it (no contact data).
#[derive(Debug, Serialize, ToSchema)]
pub struct LeadSummary {
    pub id: String,
    pub propiedad_id: String,
    pub mensaje: Option<String>,
    /// `email`, `telefono` or `whatsapp`.
    pub preferencia_contacto: String,
    /// `true` when this request created the lead, `false` when it already existed.
    pub nuevo: bool,
    /// RFC 3339.
    pub created_at: String,
    /// RFC 3339.
    pub updated_at: String,
}

/// The agent a lead went to.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeadAgentBrief {
    pub id: String,
    pub nombre: String,
}

/// `data` of phase 3.
#[derive(Debug, Serialize, ToSchema)]
pub struct InterestRecorded {
    pub perfil_id: String,
    /// Always 3 after this call.
    pub fase: i64,
    pub lead: LeadSummary,
    pub agente: LeadAgentBrief,
}

/// Records the interest of `profile` in a property; returns whether the lead is new.
pub async fn document_interest(
    db: &Db,
    mailer: &mail::Mailer,
    frontend_url: &str,
    profile: &BuyerRow,
    input: &InterestInput,
    contact: &ContactPatch,
) -> DomainResult<(bool, InterestRecorded)> {
    let property = find_property(db, &input.propiedad_id).await?;
    let Some(agent_id) = property.agent_id.as_deref() else {
        return Err(DomainError::conflict("PROPERTY_WITHOUT_AGENT", "Esta propiedad no tiene un agente asignado que pueda atenderte."));
    };
    let agent: LeadAgent = sqlx::query_as(
        "SELECT a.id, a.is_active, u.email, u.first_name, u.last_name \
         FROM agent_profiles a JOIN users u ON u.id = a.user_id WHERE a.id = $1",
    )
    .bind(agent_id)
    .fetch_optional(db)
    .await?
    .ok_or_else(|| DomainError::conflict("PROPERTY_WITHOUT_AGENT", "Esta propiedad no tiene un agente asignado que pueda atenderte."))?;
    if agent.is_active == 0 {
        return Err(DomainError::conflict("AGENT_INACTIVE", "El agente de esta propiedad no está activo por ahora."));
    }

    let (name, email, phone) = contact.over(profile);
    if email.is_none() && phone.is_none() {
        return Err(field_error(
            ErrorKind::Invalid,
            "CONTACT_REQUIRED",
            "email",
            "Para que el agente pueda contactarte, indica tu email o tu telefono.".into(),
        ));
    }
    let preference = match input.preferencia_contacto.as_deref() {
        Some(p) => p.to_string(),
        None if email.is_some() => "email".to_string(),
        None => "telefono".to_string(),
    };
    let reachable = if preference == "email" { email.is_some() } else { phone.is_some() };
    if !reachable {
        return Err(field_error(
            ErrorKind::Invalid,
            "VALIDATION_ERROR",
            "preferencia_contacto",
            format!("Elegiste contacto por {preference}, pero tu perfil no tiene ese dato: agrégalo en esta solicitud."),
        ));
    }

    let now = db::now();
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE buyer_profiles SET contact_name = $1, contact_email = $2, contact_phone = $3, phase = 3, updated_at = $4 \
         WHERE id = $5",
    )
    .bind(&name)
    .bind(&email)
    .bind(&phone)
    .bind(now)
    .bind(&profile.id)
    .execute(&mut *tx)
    .await?;
    let inserted = sqlx::query(
        "INSERT INTO leads (id, buyer_profile_id, property_id, agent_id, message, contact_preference, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (buyer_profile_id, property_id) DO NOTHING",
    )
    .bind(db::new_id())
    .bind(&profile.id)
    .bind(&property.id)
    .bind(&agent.id)
    .bind(&input.mensaje)
    .bind(&preference)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !inserted {
        let mut update = Sql::new("UPDATE leads SET contact_preference = ");
        update.bind_text(preference.clone());
        if let Some(m) = &input.mensaje {
            update.push(", message = ");
            update.bind_text(m.clone());
        }
        update.push(", updated_at = ");
        update.bind(Arg::Int(now));
        update.push(" WHERE buyer_profile_id = ");
        update.bind_text(profile.id.clone());
        update.push(" AND property_id = ");
        update.bind_text(property.id.clone());
        update.query().execute(&mut *tx).await?;
    }
    let lead: LeadRow = sqlx::query_as(
        "SELECT id, property_id, message, contact_preference, created_at, updated_at FROM leads \
         WHERE buyer_profile_id = $1 AND property_id = $2",
    )
    .bind(&profile.id)
    .bind(&property.id)
    .fetch_one(&mut *tx)
    .await?;
    if inserted {
        // The agent's e-mail commits with the lead (durable outbox).
        let email = lead_email(frontend_url, &agent, &property, profile, name.as_deref(), &lead);
        mail::outbox::enqueue(&mut *tx, &email).await?;
    }
    tx.commit().await?;
    if inserted {
        mailer.wake();
    }
    Ok((
        inserted,
        InterestRecorded {
            perfil_id: profile.id.clone(),
            fase: 3,
            lead: LeadSummary {
                id: lead.id,
                propiedad_id: lead.property_id,
                mensaje: lead.message,
                preferencia_contacto: lead.contact_preference,
                nuevo: inserted,
                created_at: db::to_rfc3339(lead.created_at),
                updated_at: db::to_rfc3339(lead.updated_at),
            },
            agente: LeadAgentBrief { id: agent.id, nombre: format!("{} {}", agent.first_name, agent.last_name) },
        },
    ))
}

/// The e-mail that tells the agent about a new lead. It names the property, the buyer's first
/// name and pre-qualification, and links to the leads page; contact data stays in the platform.
fn lead_email(
    frontend_url: &str,
    agent: &LeadAgent,
    property: &PropertyRow,
    profile: &BuyerRow,
    name: Option<&str>,
    lead: &LeadRow,
) -> mail::Email {
    let link = format!("{}/agent/leads", frontend_url.trim_end_matches('/'));
    let subject = format!("Nuevo interesado en tu propiedad: {}", property.title);
    let who = name.map_or_else(|| "Un comprador".to_string(), |n| n.split_whitespace().next().unwrap_or(n).to_string());
    let operation = if property.operation == "sale" { "en venta" } else { "en renta" };
    let mut lines = vec![
        format!("Hola {}:", agent.first_name),
        format!("{who} mostró interés en tu propiedad «{}» ({operation}, {}, {}).", property.title, mxn(property.price), property.city),
        format!("Su precalificación: {} puntos de 1000, nivel {}.", profile.score, profile.nivel),
    ];
    if let Some(m) = &lead.message {
        lines.push(format!("Su mensaje: «{m}»"));
    }
    lines.push(format!(
        "Prefiere que lo contactes por {}. Sus datos de contacto están en tus prospectos de la plataforma.",
        match lead.contact_preference.as_str() {
            "telefono" => "teléfono",
            "whatsapp" => "WhatsApp",
            _ => "correo electrónico",
        }
    ));
    let text = format!("{}\n\n{link}\n", lines.join("\n\n"));
    let html = mail::html_page(&subject, &lines, Some(("Ver mis prospectos", &link)));
    mail::Email { to: agent.email.clone(), subject, text, html, kind: "lead_new", link: Some(link) }
}

// ------------------------------------------------------------------------- agent's leads

#[derive(Debug, sqlx::FromRow)]
struct AgentLeadRow {
    id: String,
    message: Option<String>,
    contact_preference: String,
    created_at: i64,
    updated_at: i64,
    property_id: String,
    title: String,
    operation: String,
    price: f64,
    estado: String,
    city: String,
    profile_id: String,
    contact_name: Option<String>,
    contact_email: Option<String>,
    contact_phone: Option<String>,
    score: i64,
    nivel: String,
    model_version: String,
    report_json: String,
}

/// The property of a lead.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadProperty {
    pub id: String,
    pub title: String,
    pub operation: String,
    pub price: f64,
    pub estado: String,
    pub city: String,
}

/// The buyer of a lead, with the contact data the buyer agreed to share with this agent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeadBuyer {
    pub profile_id: String,
    pub name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub score: i64,
    pub nivel: String,
    pub model_version: String,
    /// `capacidad_compra_estimada.valor_realista` of the buyer's report.
    pub valor_realista: Option<f64>,
    /// `capacidad_compra_estimada.pago_mensual_estimado`.
    pub pago_mensual_estimado: Option<f64>,
    /// `capacidad_compra_estimada.estatus_enganche`.
    pub estatus_enganche: Option<String>,
}

/// One lead of the authenticated agent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgentLead {
    pub id: String,
    pub property: LeadProperty,
    pub buyer: LeadBuyer,
    pub message: Option<String>,
    /// `email`, `telefono` or `whatsapp`.
    pub contact_preference: String,
    pub created_at: String,
    pub updated_at: String,
}

/// `data` of `GET /api/agent/leads`.
#[derive(Debug, Serialize, ToSchema)]
pub struct AgentLeads {
    pub leads: Vec<AgentLead>,
    pub pagination: Pagination,
}

/// The leads of the agent profile of `user_id`, most recently updated first.
pub async fn of_agent(db: &Db, user_id: &str, property_id: Option<&str>, paging: Paging) -> DomainResult<AgentLeads> {
    let agent: Option<(String,)> = sqlx::query_as("SELECT id FROM agent_profiles WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(db)
        .await?;
    let Some((agent_id,)) = agent else {
        return Err(DomainError::not_found("AGENT_NOT_FOUND", "Tu cuenta no tiene un perfil de agente"));
    };
    let filter = |sql: &mut Sql| {
        sql.push(" FROM leads l JOIN properties p ON p.id = l.property_id JOIN buyer_profiles b ON b.id = l.buyer_profile_id WHERE l.agent_id = ");
        sql.bind_text(agent_id.clone());
        if let Some(p) = property_id {
            sql.push(" AND l.property_id = ");
            sql.bind_text(p);
        }
    };
    let mut count = Sql::new("SELECT COUNT(*)");
    filter(&mut count);
    let total = count.query_as::<(i64,)>().fetch_one(db).await?.0;
    let mut page = Sql::new(
        "SELECT l.id, l.message, l.contact_preference, l.created_at, l.updated_at, p.id AS property_id, p.title, \
         p.operation, p.price, p.estado, p.city, b.id AS profile_id, b.contact_name, b.contact_email, b.contact_phone, \
         b.score, b.nivel, b.model_version, b.report_json",
    );
    filter(&mut page);
    page.push(" ORDER BY l.updated_at DESC, l.id LIMIT ");
    page.bind(Arg::Int(paging.limit));
    page.push(" OFFSET ");
    page.bind(Arg::Int(paging.offset()));
    let rows: Vec<AgentLeadRow> = page.query_as().fetch_all(db).await?;
    let leads = rows
        .into_iter()
        .map(|r| {
            let report: Value = serde_json::from_str(&r.report_json).unwrap_or(Value::Null);
            let capacity = &report["capacidad_compra_estimada"];
            AgentLead {
                id: r.id,
                property: LeadProperty {
                    id: r.property_id,
                    title: r.title,
                    operation: r.operation,
                    price: r.price,
                    estado: r.estado,
                    city: r.city,
                },
                buyer: LeadBuyer {
                    profile_id: r.profile_id,
                    name: r.contact_name,
                    email: r.contact_email,
                    phone: r.contact_phone,
                    score: r.score,
                    nivel: r.nivel,
                    model_version: r.model_version,
                    valor_realista: capacity["valor_realista"].as_f64(),
                    pago_mensual_estimado: capacity["pago_mensual_estimado"].as_f64(),
                    estatus_enganche: capacity["estatus_enganche"].as_str().map(str::to_string),
                },
                message: r.message,
                contact_preference: r.contact_preference,
                created_at: db::to_rfc3339(r.created_at),
                updated_at: db::to_rfc3339(r.updated_at),
            }
        })
        .collect();
    Ok(AgentLeads { leads, pagination: paging.pagination(total) })
}
