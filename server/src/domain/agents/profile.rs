//! The editable fields of an agent profile (spec 2.2), their checks, and the statements that
//! store them (creation of the user and the profile in one transaction, update).

use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    db::{self, Db, sql::fold},
    domain::{
        accounts::{self, CreateUserError, NewUser},
        agencies::AgencyRow,
        agents::{AgentRow, SocialMedia, external_id_taken, search_text, to_json_text},
        users::{Role, UserRow},
    },
    http::{
        text::{optional_date, optional_text, optional_text_ml, optional_url, patch},
    },
};
use crate::domain::error::{DomainError, DomainResult, is_unique_violation};

/// Profile fields of spec 2.2 accepted on creation and update. On update an absent field is
/// left as it is and `null` (or an empty text) clears it.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileFields {
    /// The agency's own key for the agent; unique across agents.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub external_id: Option<Option<String>>,
    /// Profile photo URL.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub image: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub city: Option<Option<String>>,
    /// Specialisation, e.g. Residencial, Comercial, Industrial.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub category: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub company: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub bio: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub phone1: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub phone2: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub office_phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub mobile_phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub fax: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub website: Option<Option<String>>,
    /// Start in the industry, YYYY-MM-DD.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub member_since: Option<Option<String>>,
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<String>)]
    pub broker_address: Option<Option<String>>,
    /// Keys facebook, instagram, linkedin, twitter (URLs). Replaces the whole object.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<SocialMedia>)]
    pub social_media: Option<Option<SocialMedia>>,
    /// Default true on creation. Not changeable by the agent itself.
    #[serde(default, deserialize_with = "patch")]
    #[schema(value_type = Option<bool>)]
    pub is_active: Option<Option<bool>>,
}

/// The stored profile values.
#[derive(Debug, Clone, Default)]
pub struct ProfileData {
    pub external_id: Option<String>,
    pub image: Option<String>,
    pub city: Option<String>,
    pub category: Option<String>,
    pub company: Option<String>,
    pub bio: Option<String>,
    pub phone1: Option<String>,
    pub phone2: Option<String>,
    pub office_phone: Option<String>,
    pub mobile_phone: Option<String>,
    pub fax: Option<String>,
    pub website: Option<String>,
    pub member_since: Option<String>,
    pub broker_address: Option<String>,
    pub social_media: SocialMedia,
    pub is_active: bool,
}

impl ProfileData {
    pub fn new() -> Self {
        ProfileData {
            is_active: true,
            ..Default::default()
        }
    }

    pub fn of_row(r: &AgentRow) -> Self {
        ProfileData {
            external_id: r.external_id.clone(),
            image: r.image.clone(),
            city: r.city.clone(),
            category: r.category.clone(),
            company: r.company.clone(),
            bio: r.bio.clone(),
            phone1: r.phone1.clone(),
            phone2: r.phone2.clone(),
            office_phone: r.office_phone.clone(),
            mobile_phone: r.mobile_phone.clone(),
            fax: r.fax.clone(),
            website: r.website.clone(),
            member_since: r.member_since.clone(),
            broker_address: r.broker_address.clone(),
            social_media: r.social(),
            is_active: r.is_active != 0,
        }
    }

    /// Applies and validates the given fields.
    pub fn apply(&mut self, f: ProfileFields) -> DomainResult<()> {
        if let Some(v) = f.external_id {
            self.external_id = optional_text(v, "externalId", 100)?;
        }
        if let Some(v) = f.image {
            self.image = optional_url(v, "image")?;
        }
        if let Some(v) = f.city {
            self.city = optional_text(v, "city", 100)?;
        }
        if let Some(v) = f.category {
            self.category = optional_text(v, "category", 100)?;
        }
        if let Some(v) = f.company {
            self.company = optional_text(v, "company", 200)?;
        }
        if let Some(v) = f.bio {
            self.bio = optional_text_ml(v, "bio", 5000, true)?;
        }
        for (slot, v, name) in [
            (&mut self.phone1, f.phone1, "phone1"),
            (&mut self.phone2, f.phone2, "phone2"),
            (&mut self.office_phone, f.office_phone, "officePhone"),
            (&mut self.mobile_phone, f.mobile_phone, "mobilePhone"),
            (&mut self.fax, f.fax, "fax"),
        ] {
            if let Some(v) = v {
                *slot = optional_text(v, name, 30)?;
            }
        }
        if let Some(v) = f.website {
            self.website = optional_url(v, "website")?;
        }
        if let Some(v) = f.member_since {
            self.member_since = optional_date(v, "memberSince")?;
        }
        if let Some(v) = f.broker_address {
            self.broker_address = optional_text(v, "brokerAddress", 300)?;
        }
        if let Some(v) = f.social_media {
            self.social_media = v.unwrap_or_default().validated()?;
        }
        if let Some(Some(v)) = f.is_active {
            self.is_active = v;
        }
        Ok(())
    }
}

/// A new agent: its user (role `agent`, active and verified: the office vouches for the
/// address, so it can log in at once) and its profile, stored in one transaction.
#[derive(Debug)]
pub struct NewAgent {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub password_hash: String,
    pub phone: Option<String>,
    pub profile: ProfileData,
}

/// Stores the user and the profile of `new` in `agency` (already authorized by the caller);
/// returns the user and the profile id. A taken e-mail is 400 `EMAIL_ALREADY_EXISTS`.
pub async fn create(
    db: &Db,
    agency: Option<&AgencyRow>,
    new: &NewAgent,
    welcome: &crate::mail::Email,
) -> DomainResult<(UserRow, String)> {
    let mut tx = db.begin().await?;
    let user = accounts::create_user(
        &mut *tx,
        &NewUser {
            email: new.email.clone(),
            password_hash: Some(new.password_hash.clone()),
            first_name: new.first_name.clone(),
            last_name: new.last_name.clone(),
            phone: new.phone.clone(),
            company_name: None,
            role: Role::Agent,
            verified: true,
        },
    )
    .await
    .map_err(|e| match e {
        CreateUserError::EmailTaken => DomainError::bad_request(
            "EMAIL_ALREADY_EXISTS",
            "El correo electrónico ya está registrado",
        ),
        CreateUserError::Db(e) => e.into(),
    })?;
    let id = db::new_id();
    insert(
        &mut tx,
        &id,
        &user.id,
        agency.map(|a| a.id.as_str()),
        &new.profile,
        &new.first_name,
        &new.last_name,
        db::now(),
    )
    .await?;
    crate::mail::outbox::enqueue(&mut *tx, welcome).await?;
    tx.commit().await?;
    Ok((user, id))
}

#[allow(clippy::too_many_arguments)]
pub async fn insert(
    conn: &mut sqlx::AnyConnection,
    id: &str,
    user_id: &str,
    agency_id: Option<&str>,
    p: &ProfileData,
    first_name: &str,
    last_name: &str,
    now: i64,
) -> DomainResult<()> {
    let res = sqlx::query(
        "INSERT INTO agent_profiles (id, user_id, agency_id, external_id, image, city, city_norm, \
         category, category_norm, company, bio, phone1, phone2, office_phone, mobile_phone, fax, \
         website, member_since, broker_address, social_media, search_text, rating, reviews_count, \
         is_active, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, 0, $23, $24, $24)",
    )
    .bind(id)
    .bind(user_id)
    .bind(agency_id)
    .bind(&p.external_id)
    .bind(&p.image)
    .bind(&p.city)
    .bind(p.city.as_deref().map(fold))
    .bind(&p.category)
    .bind(p.category.as_deref().map(fold))
    .bind(&p.company)
    .bind(&p.bio)
    .bind(&p.phone1)
    .bind(&p.phone2)
    .bind(&p.office_phone)
    .bind(&p.mobile_phone)
    .bind(&p.fax)
    .bind(&p.website)
    .bind(&p.member_since)
    .bind(&p.broker_address)
    .bind(to_json_text(&p.social_media))
    .bind(search_text(first_name, last_name, p.company.as_deref()))
    .bind(0.0_f64)
    .bind(i64::from(p.is_active))
    .bind(now)
    .execute(&mut *conn)
    .await;
    match res {
        Ok(_) => Ok(()),
        Err(e) if is_unique_violation(&e) => Err(external_id_taken()),
        Err(e) => Err(e.into()),
    }
}

/// Saves the user fields (names, phone) and the profile of `agent` in one transaction.
pub async fn update(
    db: &Db,
    agent: &AgentRow,
    first_name: &str,
    last_name: &str,
    phone: Option<&str>,
    p: &ProfileData,
) -> DomainResult<()> {
    let now = db::now();
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE users SET first_name = $1, last_name = $2, phone = $3, updated_at = $4 WHERE id = $5",
    )
    .bind(first_name)
    .bind(last_name)
    .bind(phone)
    .bind(now)
    .bind(&agent.user_id)
    .execute(&mut *tx)
    .await?;
    let res = sqlx::query(
        "UPDATE agent_profiles SET external_id = $1, image = $2, city = $3, city_norm = $4, \
         category = $5, category_norm = $6, company = $7, bio = $8, phone1 = $9, phone2 = $10, \
         office_phone = $11, mobile_phone = $12, fax = $13, website = $14, member_since = $15, \
         broker_address = $16, social_media = $17, search_text = $18, is_active = $19, \
         updated_at = $20 WHERE id = $21",
    )
    .bind(&p.external_id)
    .bind(&p.image)
    .bind(&p.city)
    .bind(p.city.as_deref().map(fold))
    .bind(&p.category)
    .bind(p.category.as_deref().map(fold))
    .bind(&p.company)
    .bind(&p.bio)
    .bind(&p.phone1)
    .bind(&p.phone2)
    .bind(&p.office_phone)
    .bind(&p.mobile_phone)
    .bind(&p.fax)
    .bind(&p.website)
    .bind(&p.member_since)
    .bind(&p.broker_address)
    .bind(to_json_text(&p.social_media))
    .bind(search_text(first_name, last_name, p.company.as_deref()))
    .bind(i64::from(p.is_active))
    .bind(now)
    .bind(&agent.id)
    .execute(&mut *tx)
    .await;
    match res {
        Ok(_) => {}
        Err(e) if is_unique_violation(&e) => return Err(external_id_taken()),
        Err(e) => return Err(e.into()),
    }
    tx.commit().await?;
    Ok(())
}
