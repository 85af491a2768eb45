//! Reviews of agents: one per user and agent, and the agent's `rating` and `reviewsCount`
//! kept in step with them in the same transaction.

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::{self, Db},
    domain::error::DomainResult,
};

/// Reviews shown in the agent detail (newest first); `reviewsCount` gives the total.
pub const DETAIL_REVIEWS: i64 = 20;

/// A review as shown in the detail.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReviewView {
    pub id: String,
    /// 1 to 5.
    pub rating: i64,
    pub comment: Option<String>,
    /// First name and last-name initial of the reviewer.
    pub author: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, sqlx::FromRow)]
pub struct ReviewRow {
    pub id: String,
    pub rating: i64,
    pub comment: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub first_name: String,
    pub last_name: String,
}

impl ReviewRow {
    pub fn view(&self) -> ReviewView {
        let initial: String = self.last_name.chars().take(1).collect();
        ReviewView {
            id: self.id.clone(),
            rating: self.rating,
            comment: self.comment.clone(),
            author: if initial.is_empty() {
                self.first_name.clone()
            } else {
                format!("{} {initial}.", self.first_name)
            },
            created_at: db::to_rfc3339(self.created_at),
            updated_at: db::to_rfc3339(self.updated_at),
        }
    }
}

/// Recomputes `rating` and `reviews_count` of an agent from its reviews. Call inside the
/// transaction that changed the reviews, after locking the agent row (see [`upsert`]).
pub async fn recompute_rating(conn: &mut sqlx::AnyConnection, agent_id: &str) -> DomainResult<()> {
    let (sum, count): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(rating), 0) AS BIGINT), COUNT(*) FROM reviews WHERE agent_id = $1",
    )
    .bind(agent_id)
    .fetch_one(&mut *conn)
    .await?;
    let avg = if count == 0 {
        0.0
    } else {
        sum as f64 / count as f64
    };
    sqlx::query("UPDATE agent_profiles SET rating = $1, reviews_count = $2 WHERE id = $3")
        .bind(avg)
        .bind(count)
        .bind(agent_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}


/// The latest [`DETAIL_REVIEWS`] reviews of an agent, newest first.
pub async fn latest(db: &Db, agent_id: &str) -> DomainResult<Vec<ReviewView>> {
    let rows = sqlx::query_as::<_, ReviewRow>(
        "SELECT r.id, r.rating, r.comment, r.created_at, r.updated_at, u.first_name, u.last_name \
         FROM reviews r JOIN users u ON u.id = r.user_id WHERE r.agent_id = $1 \
         ORDER BY r.updated_at DESC, r.id DESC LIMIT $2",
    )
    .bind(agent_id)
    .bind(DETAIL_REVIEWS)
    .fetch_all(db)
    .await?;
    Ok(rows.iter().map(ReviewRow::view).collect())
}

/// The outcome of [`upsert`].
#[derive(Debug)]
pub struct Upserted {
    pub review: ReviewView,
    /// True when the review is new (false: it replaced the user's earlier one).
    pub created: bool,
    /// The agent's new average rating and number of reviews.
    pub rating: f64,
    pub reviews_count: i64,
}

/// Creates or replaces the review of `user_id` about `agent_id` and recomputes the agent's
/// rating, in one transaction with the agent row locked first: concurrent reviews of one agent
/// are serialised, so the average always counts every committed review. `None` when the agent
/// is gone.
pub async fn upsert(
    db: &Db,
    agent_id: &str,
    user_id: &str,
    rating: i64,
    comment: Option<String>,
) -> DomainResult<Option<Upserted>> {
    let now = db::now();
    let mut tx = db.begin().await?;
    let locked = sqlx::query("UPDATE agent_profiles SET updated_at = updated_at WHERE id = $1")
        .bind(agent_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if locked != 1 {
        return Ok(None);
    }
    let existing: Option<(String, i64)> =
        sqlx::query_as("SELECT id, created_at FROM reviews WHERE user_id = $1 AND agent_id = $2")
            .bind(user_id)
            .bind(agent_id)
            .fetch_optional(&mut *tx)
            .await?;
    let (review_id, created_at, created) = match existing {
        Some((rid, created_at)) => {
            sqlx::query("UPDATE reviews SET rating = $1, comment = $2, updated_at = $3 WHERE id = $4")
                .bind(rating)
                .bind(&comment)
                .bind(now)
                .bind(&rid)
                .execute(&mut *tx)
                .await?;
            (rid, created_at, false)
        }
        None => {
            let rid = db::new_id();
            sqlx::query(
                "INSERT INTO reviews (id, agent_id, user_id, rating, comment, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6)",
            )
            .bind(&rid)
            .bind(agent_id)
            .bind(user_id)
            .bind(rating)
            .bind(&comment)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            (rid, now, true)
        }
    };
    recompute_rating(&mut tx, agent_id).await?;
    let (average, reviews_count): (f64, i64) =
        sqlx::query_as("SELECT rating, reviews_count FROM agent_profiles WHERE id = $1")
            .bind(agent_id)
            .fetch_one(&mut *tx)
            .await?;
    let (first_name, last_name): (String, String) =
        sqlx::query_as("SELECT first_name, last_name FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    let review = ReviewRow {
        id: review_id,
        rating,
        comment,
        created_at,
        updated_at: now,
        first_name,
        last_name,
    }
    .view();
    Ok(Some(Upserted {
        review,
        created,
        rating: average,
        reviews_count,
    }))
}
