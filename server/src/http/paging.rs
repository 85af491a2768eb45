//! Paging of every list: `page`/`limit` checked once, and the `pagination` object of spec 2.2.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::error::{DomainError, DomainResult};

/// Largest `limit` of every paged list.
pub const MAX_LIMIT: i64 = 100;
/// Default page size (spec 8).
pub const DEFAULT_LIMIT: i64 = 10;
// ------------------------------------------------------------------------- paging

/// `page`/`limit` query parameters (defaults 1 and 10, `limit` at most 100).
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    pub page: i64,
    pub limit: i64,
}

impl Paging {
    /// Validates `page` >= 1 and 1 <= `limit` <= [`MAX_LIMIT`]; anything else is
    /// 400 `INVALID_PAGINATION` (never silently clamped).
    pub fn new(page: Option<i64>, limit: Option<i64>) -> DomainResult<Paging> {
        let page = page.unwrap_or(1);
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=1_000_000).contains(&page) {
            return Err(DomainError::bad_request(
                "INVALID_PAGINATION",
                "El parámetro page debe ser un entero entre 1 y 1000000",
            )
            .with("field", "page"));
        }
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(DomainError::bad_request(
                "INVALID_PAGINATION",
                format!("El parámetro limit debe ser un entero entre 1 y {MAX_LIMIT}"),
            )
            .with("field", "limit"));
        }
        Ok(Paging { page, limit })
    }

    pub fn offset(&self) -> i64 {
        (self.page - 1) * self.limit
    }

    pub fn pagination(&self, total: i64) -> Pagination {
        Pagination {
            total,
            per_page: self.limit,
            current_page: self.page,
            last_page: if total == 0 {
                1
            } else {
                (total + self.limit - 1) / self.limit
            },
        }
    }
}

/// Pagination object of spec 2.2. `lastPage` is 1 for an empty result.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub total: i64,
    pub per_page: i64,
    pub current_page: i64,
    pub last_page: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_bounds() {
        assert!(Paging::new(Some(0), None).is_err());
        assert!(Paging::new(None, Some(101)).is_err());
        assert!(Paging::new(None, Some(0)).is_err());
        let p = Paging::new(Some(3), Some(7)).unwrap_or(Paging { page: 0, limit: 0 });
        assert_eq!(p.offset(), 14);
        assert_eq!(p.pagination(15).last_page, 3);
        assert_eq!(p.pagination(0).last_page, 1);
    }
}
