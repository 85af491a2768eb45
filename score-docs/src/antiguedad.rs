//! A printed receipt's seniority (the Nómina's `Antigüedad`) read and checked against its own
//! dates. The SAT's rule (Anexo 20, Nómina 1.2 validations NOM174/NOM175): `Antigüedad` is the
//! ISO 8601 duration from `FechaInicioRelLaboral` to `FechaFinalPago`, either in weeks (`P<n>W`,
//! at most the whole weeks of the days between them counting both ends) or in years, months
//! and days (`P#Y#M#D`, the calendar difference). Paper has no seal, and OCR misreads a digit
//! without leaving a trace, so a printed seniority is kept only when it is exactly what the
//! printed dates give: the SAT accepts fewer weeks than the bound, but a print with fewer cannot
//! be told from a misread one, and reads as nothing rather than as a wrong value.

use crate::date::Date;

/// An ISO 8601 duration as the Nómina writes seniority (`P284W`, `P5Y3M12D`): groups of digits
/// each closed by a unit, the units in order and each once; anything else (OCR's `P284Ww`)
/// reads as nothing rather than as a seniority no check covers ([`ocr_repaired`] reads it
/// where the printed dates check it).
pub(crate) fn iso_duration(token: &str) -> Option<String> {
    let t = token.to_ascii_uppercase();
    let rest = t.strip_prefix('P')?;
    let (mut digits, mut last_unit) = (0, None::<usize>);
    for c in rest.chars() {
        if c.is_ascii_digit() {
            digits += 1;
            continue;
        }
        let unit = "YMWD".find(c)?;
        if digits == 0 || last_unit.is_some_and(|u| u >= unit) {
            return None;
        }
        (digits, last_unit) = (0, Some(unit));
    }
    (digits == 0 && last_unit.is_some()).then_some(t)
}

/// A printed seniority as Tesseract reads it, repaired where the slip is OCR's and no other
/// reading exists: a unit's letter read twice (`P282wW` and `P282Ww` for `P282W`, the benches'
/// 300 dpi PNG and rotated JPEG) is one unit, and a letter in a number's place that looks like
/// a digit ([`crate::text::as_digit`]: `P2B2W`, `PZ82W`) is that digit. The repair can turn a
/// misread digit into a wrong one too, so its result is a seniority only when the printed dates
/// give exactly it ([`agrees`]); without a start date it is nothing.
pub(crate) fn ocr_repaired(token: &str) -> Option<String> {
    let rest = token.strip_prefix(['P', 'p'])?;
    let mut out = String::from("P");
    for c in rest.chars() {
        let upper = c.to_ascii_uppercase();
        if "YMWD".contains(upper) {
            if !out.ends_with(upper) {
                out.push(upper);
            }
        } else {
            out.push(crate::text::as_digit(c));
        }
    }
    iso_duration(&out)
}

/// The duration's numbers by unit (`Y`, `M`, `W`, `D`), from a well-formed [`iso_duration`].
fn parts(duration: &str) -> Vec<(char, u32)> {
    let mut out = Vec::new();
    let mut number = String::new();
    for c in duration.chars().skip(1) {
        if c.is_ascii_digit() {
            number.push(c);
        } else if let Ok(n) = number.parse() {
            out.push((c, n));
            number.clear();
        } else {
            return Vec::new();
        }
    }
    out
}

/// `date` moved `months` calendar months on, its day cut to the month's last when shorter
/// (Jan 31 + 1 month = Feb 28).
fn add_months(date: Date, months: u32) -> Option<Date> {
    let (year, month, day) = date.parts();
    let index = i64::from(year) * 12 + i64::from(month - 1) + i64::from(months);
    let (year, month) = (i32::try_from(index.div_euclid(12)).ok()?, u32::try_from(index.rem_euclid(12)).ok()? + 1);
    (1..=day).rev().find_map(|d| Date::parse(&format!("{year:04}-{month:02}-{d:02}")))
}

/// Whole months from `start` to `end`, and the days left after them.
fn months_and_days(start: Date, end: Date) -> Option<(u32, i64)> {
    let months = start.whole_months_until(end);
    let mut months = months + 1;
    while add_months(start, months)? > end {
        months = months.checked_sub(1)?;
    }
    Some((months, end.days() - add_months(start, months)?.days()))
}

/// Whether `duration` (a well-formed [`iso_duration`]) is the seniority the SAT's rule gives
/// from `start` (`FechaInicioRelLaboral`) to `end` (`FechaFinalPago`): the whole weeks of the
/// days between them counting both ends; or the years, months and days between them, the days
/// counted with or without the last one (as the SAT's validators accept). Any other form
/// (weeks mixed with other units, no days) does not agree.
pub(crate) fn agrees(duration: &str, start: Date, end: Date) -> bool {
    if end < start {
        return false;
    }
    match parts(duration).as_slice() {
        [('W', weeks)] => i64::from(*weeks) == (end.days() - start.days() + 1) / 7,
        ymd if ymd.last().is_some_and(|(unit, _)| *unit == 'D') && ymd.iter().all(|(unit, _)| "YMD".contains(*unit)) => {
            let of = |unit: char| ymd.iter().find(|(u, _)| *u == unit).map_or(0, |(_, n)| *n);
            let Some((months, days)) = months_and_days(start, end) else { return false };
            of('Y') * 12 + of('M') == months && (i64::from(of('D')) == days || i64::from(of('D')) == days + 1)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        Date::parse(text).expect("date")
    }

    #[test]
    fn seniority_only_as_an_iso_duration() {
        for good in ["P284W", "P5Y3M12D", "p1y"] {
            assert!(iso_duration(good).is_some(), "{good}");
        }
        for bad in ["P284WW", "P", "PW", "P12", "P3M5Y", "X284W"] {
            assert_eq!(iso_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn ocr_slips_repaired_into_a_well_formed_duration() {
        for (read, repaired) in [("P282wW", "P282W"), ("P282Ww", "P282W"), ("P2B2W", "P282W"), ("PZ82w", "P282W"), ("P1Y8MZ8D", "P1Y8M28D")] {
            assert_eq!(ocr_repaired(read).as_deref(), Some(repaired), "{read}");
        }
        for bad in ["P282WxW", "P", "PwW", "X282W", "P282", "P3M5Y"] {
            assert_eq!(ocr_repaired(bad), None, "{bad}");
        }
    }

    #[test]
    fn weeks_are_the_whole_weeks_from_the_start_to_the_periods_end_counting_both_ends() {
        // 2019-08-16 to 2025-01-15: 1,979 days, 1,980 counting both ends, 282 whole weeks.
        assert!(agrees("P282W", d("2019-08-16"), d("2025-01-15")));
        for wrong in ["P284W", "P281W", "P28W", "P2820W"] {
            assert!(!agrees(wrong, d("2019-08-16"), d("2025-01-15")), "{wrong}");
        }
        // Six days counting both ends: no whole week yet; seven: one.
        assert!(agrees("P0W", d("2025-01-01"), d("2025-01-06")));
        assert!(agrees("P1W", d("2025-01-01"), d("2025-01-07")));
        assert!(!agrees("P1W", d("2025-01-07"), d("2025-01-01")), "a start after the period's end agrees with nothing");
    }

    #[test]
    fn years_months_and_days_are_the_calendar_difference() {
        // 2023-02-20 to 2024-11-10: one year, eight months (to 2024-10-20) and 21 days.
        assert!(agrees("P1Y8M21D", d("2023-02-20"), d("2024-11-10")));
        assert!(agrees("P1Y8M22D", d("2023-02-20"), d("2024-11-10")), "the last day counted too");
        assert!(agrees("P20M21D", d("2023-02-20"), d("2024-11-10")), "months past twelve");
        for wrong in ["P1Y8M15D", "P1Y9M21D", "P2Y8M21D", "P1Y8M", "P1Y8M20D", "P1Y8M2W"] {
            assert!(!agrees(wrong, d("2023-02-20"), d("2024-11-10")), "{wrong}");
        }
        // A month is reached on the same day, or on the last day of a shorter month.
        assert!(agrees("P1M0D", d("2025-01-31"), d("2025-02-28")));
        assert!(agrees("P15D", d("2025-01-01"), d("2025-01-15")));
        assert!(agrees("P14D", d("2025-01-01"), d("2025-01-15")));
    }
}
