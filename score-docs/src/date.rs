//! Calendar dates (`YYYY-MM-DD`, proleptic Gregorian) as day numbers: enough to compare pay
//! periods, find gaps and count whole months, with no clock and no time zone.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A calendar date. Ordered; `days()` is the number of days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    year: i32,
    month: u32,
    day: u32,
}

impl Date {
    /// Parses exactly `YYYY-MM-DD` (a valid day of that month, years 1900..=2199); a CFDI
    /// `Fecha` such as `2024-01-15T10:00:00` is read by its first ten characters with
    /// [`Date::parse_prefix`].
    pub fn parse(text: &str) -> Option<Date> {
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return None;
        }
        let num = |r: std::ops::Range<usize>| -> Option<u32> {
            b[r].iter().try_fold(0u32, |acc, &c| c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0')))
        };
        let year = i32::try_from(num(0..4)?).ok()?;
        let (month, day) = (num(5..7)?, num(8..10)?);
        if !(1900..=2199).contains(&year) || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        Some(Date { year, month, day })
    }

    /// Year, month (1–12) and day of the month.
    pub(crate) fn parts(self) -> (i32, u32, u32) {
        (self.year, self.month, self.day)
    }

    /// The date at the start of a `YYYY-MM-DDThh:mm:ss` timestamp.
    pub fn parse_prefix(text: &str) -> Option<Date> {
        text.get(..10).and_then(Date::parse)
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    pub fn days(self) -> i64 {
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// Whole months from `self` to `later` (0 when `later` is not after `self`): a month
    /// counts once its day of the month is reached (Jan 31 → Feb 28 is 0 months, → Mar 31 is 2).
    pub fn whole_months_until(self, later: Date) -> u32 {
        if later <= self {
            return 0;
        }
        let mut months = (later.year - self.year) * 12 + later.month as i32 - self.month as i32;
        let day_reached = later.day >= self.day || later.day == days_in_month(later.year, later.month);
        if !day_reached {
            months -= 1;
        }
        u32::try_from(months.max(0)).unwrap_or(0)
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Date, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Date::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("not a YYYY-MM-DD date: {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(t: &str) -> Date {
        Date::parse(t).unwrap_or_else(|| panic!("{t}"))
    }

    #[test]
    fn day_numbers_and_months() {
        assert_eq!(d("1970-01-01").days(), 0);
        assert_eq!(d("2024-03-01").days() - d("2024-02-28").days(), 2);
        assert_eq!(d("2020-01-15").whole_months_until(d("2024-01-14")), 47);
        assert_eq!(d("2020-01-15").whole_months_until(d("2024-01-15")), 48);
        assert_eq!(d("2024-01-31").whole_months_until(d("2024-02-29")), 1);
        assert_eq!(d("2024-01-31").whole_months_until(d("2024-02-28")), 0);
        assert_eq!(d("2024-05-01").whole_months_until(d("2024-01-01")), 0);
        assert!(Date::parse("2023-02-29").is_none());
        assert!(Date::parse("2024-13-01").is_none());
        assert!(Date::parse("2024-1-01").is_none());
        assert_eq!(d("2024-02-29").to_string(), "2024-02-29");
    }
}
