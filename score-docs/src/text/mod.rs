//! Reading figures out of the text of a printed document (a PDF's text layer or Tesseract's
//! output): labels found case- and accent-insensitively, amounts, dates, RFCs and UUIDs, with
//! the confusions OCR makes between letters and digits undone only where the kind of token
//! says which one is meant (an amount has no letters, an RFC's date part no letters).

use crate::date::Date;
use rust_decimal::Decimal;
use std::str::FromStr;

mod ids;
mod labels;
pub(crate) use ids::*;
pub use ids::rfc_check_digit_ok;

/// One line of the document: its characters as written and, at the same positions, folded
/// to lower case without accents, so that a label found in the folded text points at the
/// value as written.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    chars: Vec<char>,
    folded: Vec<char>,
}

/// `c` lower-cased without its accent (one character for one character).
pub(crate) fn fold_char(c: char) -> char {
    match c {
        'á' | 'à' | 'ä' | 'â' | 'Á' | 'À' | 'Ä' | 'Â' => 'a',
        'é' | 'è' | 'ë' | 'ê' | 'É' | 'È' | 'Ë' | 'Ê' => 'e',
        'í' | 'ì' | 'ï' | 'î' | 'Í' | 'Ì' | 'Ï' | 'Î' => 'i',
        'ó' | 'ò' | 'ö' | 'ô' | 'Ó' | 'Ò' | 'Ö' | 'Ô' => 'o',
        'ú' | 'ù' | 'ü' | 'û' | 'Ú' | 'Ù' | 'Ü' | 'Û' => 'u',
        'ñ' | 'Ñ' => 'n',
        _ => c.to_lowercase().next().unwrap_or(c),
    }
}

/// `text` folded (see [`fold_char`]).
pub(crate) fn fold(text: &str) -> String {
    text.chars().map(fold_char).collect()
}

impl Line {
    pub(crate) fn new(text: &str) -> Line {
        let chars: Vec<char> = text.chars().collect();
        let folded = chars.iter().map(|&c| fold_char(c)).collect();
        Line { chars, folded }
    }

    /// The line as written.
    pub(crate) fn text(&self) -> String {
        self.chars.iter().collect()
    }

    /// Where the folded `label` (already folded, single-spaced) starts, ignoring runs of
    /// blanks in the line.
    fn find(&self, label: &str) -> Option<(usize, usize)> {
        self.find_from(label, 0)
    }

    /// [`Line::find`] from character `from` on.
    fn find_from(&self, label: &str, from: usize) -> Option<(usize, usize)> {
        let want: Vec<char> = label.chars().collect();
        'start: for start in from..self.folded.len() {
            let (mut i, mut j) = (start, 0);
            while j < want.len() {
                let c = *self.folded.get(i)?;
                if want[j] == ' ' {
                    if !c.is_whitespace() {
                        continue 'start;
                    }
                    while self.folded.get(i).is_some_and(|c| c.is_whitespace()) {
                        i += 1;
                    }
                    j += 1;
                    continue;
                }
                if c != want[j] {
                    continue 'start;
                }
                i += 1;
                j += 1;
            }
            // A label must start a word ("rfc" not inside "curpfc").
            if start > 0 && self.folded[start - 1].is_alphanumeric() {
                continue;
            }
            return Some((start, i));
        }
        None
    }

    /// Where the first of `labels` written as it is stands on this line, else the first of them
    /// abbreviated or reworded ("F. Pago" for "fecha de pago": [`labels`]).
    fn find_any(&self, labels: &[&str]) -> Option<(usize, usize)> {
        labels.iter().find_map(|l| self.find(l)).or_else(|| labels.iter().find_map(|l| labels::find_abbreviated(&self.folded, l)))
    }

    /// The text after the first of `labels` on this line (trimmed of blanks and a colon).
    pub(crate) fn after(&self, labels: &[&str]) -> Option<String> {
        self.find_any(labels).map(|(_, end)| {
            let rest: String = self.chars[end..].iter().collect();
            rest.trim_start_matches(|c: char| c.is_whitespace() || c == ':' || c == '.' || c == '|').trim_end().to_owned()
        })
    }

    /// The value written under the first of `labels` when the label heads a column (a grid of
    /// labels over values, as the SAT's own print lays them out): the label ends its line or
    /// is followed by two blanks and the next label, never by a colon or leaders (a form's
    /// empty field). The value is what `next` (the line below) holds from the label's start
    /// column up to where the next label of the row starts, when no label of its own
    /// (`word:`) stands there.
    pub(crate) fn below(&self, labels: &[&str], next: &Line) -> Option<String> {
        let (start, end) = self.find_any(labels)?;
        let rest = &self.chars[end..];
        let gap = rest.iter().take_while(|c| **c == ' ').count();
        if !(rest.len() == gap || (gap >= 2 && rest[gap].is_alphanumeric())) {
            return None;
        }
        let column_end = if rest.len() == gap { usize::MAX } else { end + gap };
        // The column starts where the label's words do (after two blanks: "Número de días
        // pagados" for "dias pagados"), and a value may start a little left of it.
        let mut column = start;
        while column >= 2 && !(self.chars[column - 1] == ' ' && self.chars[column - 2] == ' ') {
            column -= 1;
        }
        if column < 2 {
            column = 0;
        }
        let from = column.saturating_sub(2);
        let mut value = String::new();
        let mut at = 0;
        while at < next.chars.len() {
            if next.chars[at].is_whitespace() {
                at += 1;
                continue;
            }
            let token_end = at + next.chars[at..].iter().take_while(|c| !c.is_whitespace()).count();
            if at >= column_end {
                break;
            }
            if token_end > from {
                if !value.is_empty() {
                    value.push(' ');
                }
                value.extend(&next.chars[at..token_end]);
            }
            at = token_end;
        }
        let labelled = value.split_whitespace().any(|w| w.len() > 1 && w.ends_with(':') && w.chars().next().is_some_and(char::is_alphabetic));
        (!value.is_empty() && !labelled).then_some(value)
    }

    /// The text after `word` (folded) where it stands as a field's whole label: it begins the
    /// line or a column (two blanks or a bar before it) and a colon closes it ("Percepciones:
    /// $4,200.00" in a summary). Not a heading ("PERCEPCIONES", "Percepción"), nor a longer
    /// label ending in the word ("Otras percepciones:"), nor a label the word begins
    /// ("Percepciones gravadas:").
    pub(crate) fn after_field(&self, word: &str) -> Option<String> {
        let mut from = 0;
        while let Some((start, end)) = self.find_from(word, from) {
            from = start + 1;
            let before = &self.folded[..start];
            let begins_column = before.iter().all(|c| c.is_whitespace())
                || before.ends_with(&[' ', ' '])
                || before.iter().rev().find(|c| !c.is_whitespace()) == Some(&'|');
            if begins_column && self.folded.get(end) == Some(&':') {
                let rest: String = self.chars[end + 1..].iter().collect();
                return Some(rest.trim().to_owned());
            }
        }
        None
    }

    /// The column (character position) where the first of `labels` starts on this line.
    pub(crate) fn column_of(&self, labels: &[&str]) -> Option<usize> {
        self.find_any(labels).map(|(start, _)| start)
    }

    pub(crate) fn contains(&self, label: &str) -> bool {
        self.find_any(&[label]).is_some()
    }
}

/// The document's non-blank lines.
pub(crate) fn lines(text: &str) -> Vec<Line> {
    text.lines().filter(|l| !l.trim().is_empty()).map(Line::new).collect()
}

/// The value after the first line holding one of `labels`.
pub(crate) fn labelled(lines: &[Line], labels: &[&str]) -> Option<String> {
    lines.iter().find_map(|l| l.after(labels))
}

/// Splits into blank-separated tokens, with the punctuation that ends a phrase removed.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace().map(|t| t.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '|' | '(' | ')' | '[' | ']')))
}

/// A digit where OCR read a letter that looks like it.
pub(crate) fn as_digit(c: char) -> char {
    match c {
        'O' | 'o' | 'Q' | 'D' => '0',
        'I' | 'l' | '|' | 'i' => '1',
        'S' | 's' => '5',
        'B' => '8',
        'Z' | 'z' => '2',
        _ => c,
    }
}

/// A letter where OCR read a digit that looks like it.
fn as_letter(c: char) -> char {
    match c {
        '0' => 'O',
        '1' => 'I',
        '5' => 'S',
        '8' => 'B',
        '2' => 'Z',
        _ => c,
    }
}

/// An amount written `12,345.67`, `$12,345.67`, `-1,234.50` or `1234.50`: always two
/// decimals (prints and statements write cents), thousands separated by commas. `None` for
/// anything else, so that a date or a code is never taken for money.
pub(crate) fn parse_money(token: &str) -> Option<Decimal> {
    let t = token.trim_start_matches('$').trim_end_matches(['.', ',']);
    // A noisy scan doubles a minus sign's stroke ("-=5,159.24").
    let (negative, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start_matches(['$', '=', '-'])),
        None => (false, t),
    };
    if !t.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    // A speck read beside the decimal point ("3,495.,83") is not a digit of the amount.
    let mut t: String = t.replace(".,", ".").replace(",.", ".").chars().map(as_digit).collect();
    // OCR reads the decimal point as a comma or a colon now and then ("5,594,34", "63,571:32"):
    // a last group of two digits after one can only be the cents (thousands come in groups of
    // three).
    if !t.contains('.') {
        if let Some(at) = t.rfind([',', ':']).filter(|&at| t.len() - at == 3) {
            t.replace_range(at..=at, ".");
        }
    }
    let (whole, cents) = t.rsplit_once('.')?;
    if cents.len() != 2 || !cents.bytes().all(|b| b.is_ascii_digit()) || whole.is_empty() {
        return None;
    }
    let groups: Vec<&str> = whole.split(',').collect();
    let grouped_ok = groups.len() == 1
        || (!groups[0].is_empty() && groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3));
    if !grouped_ok || !groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let value = Decimal::from_str(&format!("{}.{cents}", groups.concat())).ok()?;
    Some(if negative { -value } else { value })
}

/// The amounts of a piece of text, in order.
pub(crate) fn money_in(text: &str) -> Vec<Decimal> {
    tokens(&close_amounts(text)).filter_map(parse_money).collect()
}

/// `text` without the blanks OCR puts inside an amount next to its separators (`$35, 940.00`,
/// `1 ,234.50`, `$12,345 .67`): a blank goes when a comma or point stands on one side and a
/// digit on the other. Two amounts in two columns stay apart (a digit on both sides, or a `$`).
pub(crate) fn close_amounts(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' && i > 0 && i + 1 < chars.len() {
            let (before, after) = (chars[i - 1], chars[i + 1]);
            let separator = |x: char| x == ',' || x == '.';
            // An amount that already has its decimal point is complete: a separator after it
            // is punctuation (`4,119.33. 33,841.18` is two amounts).
            let word_before = chars[..i - 1].iter().rev().take_while(|c| !c.is_whitespace());
            let complete = word_before.clone().any(|&c| c == '.');
            if (separator(before) && after.is_ascii_digit() && !complete && chars[..i - 1].last().is_some_and(char::is_ascii_digit))
                || (before.is_ascii_digit() && separator(after) && chars.get(i + 2).is_some_and(char::is_ascii_digit))
            {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// A plain decimal number such as `15`, `15.0` or `14.5` (days paid).
pub(crate) fn parse_number(token: &str) -> Option<Decimal> {
    if !token.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let t: String = token.chars().map(as_digit).collect();
    if !t.bytes().all(|b| b.is_ascii_digit() || b == b'.') || t.starts_with('.') {
        return None;
    }
    Decimal::from_str(&t).ok()
}

const MONTHS: [&str; 12] = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"];

/// The month number of a Spanish month name or its three-letter abbreviation (`MAR`, `marzo`,
/// `sept`).
pub(crate) fn month_of(name: &str) -> Option<u32> {
    let f = fold(name);
    let f = f.trim_end_matches('.');
    if f.len() < 3 {
        return None;
    }
    let pos = MONTHS.iter().position(|m| f.starts_with(m))?;
    u32::try_from(pos + 1).ok()
}

/// A date written `2025-03-15`, `15/03/2025`, `15-03-2025`, `15-MAR-2025`, `15/mar/2025` or
/// `2025-03-15T12:00:00` (the time is dropped).
pub(crate) fn parse_date(token: &str) -> Option<Date> {
    let t = token.get(..token.find('T').filter(|&i| i == 10).unwrap_or(token.len()))?;
    let parts: Vec<&str> = t.split(['-', '/', '.']).collect();
    if parts.len() != 3 {
        return None;
    }
    let digits = |s: &str| -> Option<String> {
        let d: String = s.chars().map(as_digit).collect();
        d.bytes().all(|b| b.is_ascii_digit()).then_some(d)
    };
    let (year, month, day) = if parts[0].len() == 4 {
        (digits(parts[0])?, digits(parts[1])?, digits(parts[2])?)
    } else {
        let month = match digits(parts[1]) {
            Some(m) if parts[1].len() <= 2 => m,
            _ => format!("{:02}", month_of(parts[1])?),
        };
        (digits(parts[2])?, month, digits(parts[0])?)
    };
    // A speck read as a zero before the day (`0O1-ENE-2025`).
    let day = if day.len() == 3 && day.starts_with('0') { day[1..].to_owned() } else { day };
    if year.len() != 4 || month.is_empty() || month.len() > 2 || day.is_empty() || day.len() > 2 {
        return None;
    }
    Date::parse(&format!("{year}-{month:0>2}-{day:0>2}"))
}

/// The first date written in words in `text`: "1 de marzo de 2021", "15 de ENE del 2025" (a
/// day, "de", a month's name or its abbreviation, "de" or "del", a four-digit year).
pub(crate) fn date_in_words(text: &str) -> Option<Date> {
    let words: Vec<String> = tokens(text).map(fold).collect();
    words.windows(5).find_map(|w| {
        let joined = w[1] == "de" && (w[3] == "de" || w[3] == "del");
        let (day, year) = (w[0].trim_start_matches('0'), &w[4]);
        if !joined || day.is_empty() || day.len() > 2 || !day.bytes().all(|b| b.is_ascii_digit()) || year.len() != 4 {
            return None;
        }
        let month = month_of(&w[2])?;
        Date::parse(&format!("{year}-{month:02}-{day:0>2}"))
    })
}

/// The dates of a piece of text, in order. When blanks OCR put beside a date's separators
/// (`31- JUL -2025`) hide some, the text with those blanks closed is read too, and the reading
/// with more dates wins.
pub(crate) fn dates_in(text: &str) -> Vec<Date> {
    let found: Vec<Date> = tokens(text).filter_map(parse_date).collect();
    let closed: Vec<Date> = tokens(&close_date_blanks(text)).filter_map(parse_date).collect();
    if closed.len() > found.len() { closed } else { found }
}

/// `text` without the blanks beside a `-` or `/` that stands between a letter or digit and
/// another.
fn close_date_blanks(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let separator = |c: Option<&char>| c.is_some_and(|&c| c == '-' || c == '/');
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let (before, after) = (i.checked_sub(1).and_then(|j| chars.get(j)), chars.get(i + 1));
        let joins_after = separator(before) && word(i.checked_sub(2).and_then(|j| chars.get(j))) && word(after);
        let joins_before = separator(after) && word(before) && word(chars.get(i + 2));
        if c == ' ' && (joins_after || joins_before) {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_dates_and_identifiers() {
        assert_eq!(parse_money("$12,345.67"), Some(Decimal::new(1_234_567, 2)));
        assert_eq!(parse_money("-1,2O0.50"), Some(Decimal::new(-120_050, 2)));
        assert_eq!(parse_money("1234.5"), None);
        assert_eq!(parse_money("12,34.50"), None);
        assert_eq!(parse_money("15/03/2025"), None);
        assert_eq!(parse_date("15/03/2025").map(|d| d.to_string()).as_deref(), Some("2025-03-15"));
        assert_eq!(parse_date("05-MAR-2025").map(|d| d.to_string()).as_deref(), Some("2025-03-05"));
        assert_eq!(parse_date("2025-03-15T12:00:00").map(|d| d.to_string()).as_deref(), Some("2025-03-15"));
        assert_eq!(parse_date("31/02/2025"), None);
        assert!(parse_uuid("5f3a1b2c-0O00-4abc-8def-1234567890ab").is_some());
        // The homoclave of someone born in 1985 is a digit; of someone born in 2003, a letter.
        assert_eq!(parse_curp("GALM850101MJCRPRO8").as_deref(), Some("GALM850101MJCRPR08"));
        assert_eq!(parse_curp("GALM03O101MJCRPRA8").as_deref(), Some("GALM030101MJCRPRA8"));
        assert_eq!(parse_curp("GALM030101MJCRPRO8").as_deref(), Some("GALM030101MJCRPRO8"));
        assert!(parse_uuid("5f3a1b2c-0000-4abc-8def-1234567890a").is_none());
        assert_eq!(parse_rfc("G0DE561231GR8").as_deref(), Some("GODE561231GR8"));
        assert!(parse_rfc("EKU9003173C9").is_some());
        assert!(parse_rfc("EKU90031").is_none());
    }

    #[test]
    fn dates_with_blanks_and_specks_a_scan_adds() {
        let shown = |text: &str| dates_in(text).iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(shown("Periodo: 01-JUL-2025 al 31- JUL -2025"), ["2025-07-01", "2025-07-31"]);
        assert_eq!(shown("Periodo: 01-MAY-2025 al 31-MAY -2025"), ["2025-05-01", "2025-05-31"]);
        assert_eq!(shown("Periodo: 0O1-ENE-2025 al 31-ENE-2025"), ["2025-01-01", "2025-01-31"]);
        assert_eq!(shown("del 2025-04-01 al 2025-04-30"), ["2025-04-01", "2025-04-30"]);
        assert_eq!(shown("Folio 123 - ABC"), Vec::<String>::new());
    }

    #[test]
    fn ocr_misreadings_repaired_only_when_one_reading_fits() {
        assert_eq!(money_in("Total: $35, 940.00"), vec![Decimal::new(3_594_000, 2)]);
        assert_eq!(money_in("$1,000.00 2,000.00"), vec![Decimal::new(100_000, 2), Decimal::new(200_000, 2)]);
        assert_eq!(money_in("$12,345 .67"), vec![Decimal::new(1_234_567, 2)]);
        assert_eq!(money_in("4,119.33. 33,841.18"), vec![Decimal::new(411_933, 2), Decimal::new(3_384_118, 2)]);
        assert_eq!(parse_money("5,594,34"), Some(Decimal::new(559_434, 2)));
        assert_eq!(parse_money("63,571:32"), Some(Decimal::new(6_357_132, 2)));
        assert_eq!(parse_money("$34,50"), Some(Decimal::new(3_450, 2)));
        assert_eq!(parse_money("-=5,159.24"), Some(Decimal::new(-515_924, 2)));
        assert_eq!(parse_money("-3,495.,83"), Some(Decimal::new(-349_583, 2)));
        assert_eq!(parse_money("1,234"), None, "three digits after the comma are thousands, not cents");
        assert_eq!(
            uuid_in("41242B9F-AE56-4AD4-A6E7 -7DFE33CB18D1 Régimen").as_deref(),
            Some("41242B9F-AE56-4AD4-A6E7-7DFE33CB18D1")
        );
        assert_eq!(uuid_in("F64551FC-D6FO-4823-AB87-971CFB914464").as_deref(), Some("F64551FC-D6F0-4823-AB87-971CFB914464"));
        assert_eq!(uuid_in("3f524cdc-07a1-4d7c-a22O-bdbo49fe8dd4").as_deref(), Some("3F524CDC-07A1-4D7C-A220-BDB049FE8DD4"));
        assert!(uuid_in("41242B9F-AE56-4AD4-A6E7").is_none());
        // A doubled look-alike (`0O`) dropped; a doubled letter (`CC`) is not a look-alike pair.
        assert_eq!(uuid_in("26EAB90D-2B0B-47CD-A889-83EAE0O71BBCC").as_deref(), Some("26EAB90D-2B0B-47CD-A889-83EAE071BBCC"));
        assert_eq!(uuid_in("3F524CDC-07A1-4D7C-A220-BDBO049FE8DD4").as_deref(), Some("3F524CDC-07A1-4D7C-A220-BDB049FE8DD4"));
        assert!(uuid_in("26EAB90D-2B0B-47CD-A889-83EAE071BBCCC").is_none());
        assert!(uuid_in("26EAB90D-2B0B-47CD-A889-83EAE071BBCCFecha").is_none());
        // A doubled letter dropped when the check digit then holds, in either kind of RFC.
        assert_eq!(parse_rfc_checked("EKKU9003173C9").as_deref(), Some("EKU9003173C9"));
        assert_eq!(parse_rfc_checked("GODE561231GRR8").as_deref(), Some("GODE561231GR8"));
        assert_eq!(parse_rfc_checked("G0DE561231GR8").as_deref(), Some("GODE561231GR8"));
        // No doubled letter to drop: returned as read, and its check digit fails.
        assert_eq!(parse_rfc_checked("GODE561231GR9").as_deref(), Some("GODE561231GR9"));
        assert!(parse_rfc("ÑEKU900317").is_none());
        assert_eq!(parse_rfc("ÑEK9003173C9").as_deref(), Some("ÑEK9003173C9"));
        assert!(parse_rfc("EKU9013173C9").is_none(), "month 13");
        assert_eq!(parse_rfc_checked("HELR550320QwW7").as_deref(), Some("HELR550320QW7"));
        assert_eq!(parse_curp_repaired("GALM850101MJCRRPR08").as_deref(), Some("GALM850101MJCRPR08"));
    }

    #[test]
    fn rfc_check_digits() {
        // The SAT's test RFCs (its CFDI 4.0 samples) and a person's RFC of the SAT's examples.
        for good in ["EKU9003173C9", "XIA190128J61", "GODE561231GR8", "CACX7605101P8"] {
            assert!(rfc_check_digit_ok(good), "{good}");
        }
        for bad in ["EKU9003173C8", "GODE561231GR9", "GODE561231G", ""] {
            assert!(!rfc_check_digit_ok(bad), "{bad}");
        }
    }

    #[test]
    fn labels_ignore_case_accents_and_blanks() {
        let l = Line::new("Número de días  pagados: 15   Periodicidad: 04 Quincenal");
        assert_eq!(l.after(&["numero de dias pagados"]).as_deref(), Some("15   Periodicidad: 04 Quincenal"));
        assert_eq!(l.after(&["periodicidad"]).as_deref(), Some("04 Quincenal"));
        assert!(!Line::new("CURPFC: x").contains("rfc"));
    }

    #[test]
    fn a_field_label_alone_before_its_colon() {
        let l = Line::new("   Percepciones:   $4,200.00   Deducciones: $215.12 | Ingresos: 1.00");
        assert_eq!(l.after_field("percepciones").as_deref(), Some("$4,200.00   Deducciones: $215.12 | Ingresos: 1.00"));
        assert_eq!(l.after_field("deducciones").as_deref(), Some("$215.12 | Ingresos: 1.00"));
        assert_eq!(l.after_field("ingresos").as_deref(), Some("1.00"));
        for not_a_field in ["PERCEPCIONES  $4,200.00", "Otras percepciones: $1.00", "Percepciones gravadas: $1.00", "Total percepciones: $1.00"] {
            assert_eq!(Line::new(not_a_field).after_field("percepciones"), None, "{not_a_field}");
        }
    }

    #[test]
    fn dates_in_words() {
        let date = |t: &str| date_in_words(t).map(|d| d.to_string());
        assert_eq!(date("1 de marzo de 2021").as_deref(), Some("2021-03-01"));
        assert_eq!(date("desde el 05 de SEPT. del 2019, planta").as_deref(), Some("2019-09-05"));
        for none in ["31 de febrero de 2021", "1 marzo 2021", "1 de marzo de 21", "100 de marzo de 2021", "1 de nada de 2021"] {
            assert_eq!(date(none), None, "{none}");
        }
    }

    #[test]
    fn values_under_their_labels_in_a_grid() {
        let labels = Line::new("Fecha de pago      Fecha inicial de pago     Número de días pagados");
        let values = Line::new("15/01/2025         01/01/2025                15");
        assert_eq!(labels.below(&["fecha de pago"], &values).as_deref(), Some("15/01/2025"));
        assert_eq!(labels.below(&["fecha inicial de pago"], &values).as_deref(), Some("01/01/2025"));
        assert_eq!(labels.below(&["dias pagados"], &values).as_deref(), Some("15"));
        // A form's empty field, a label followed by one blank and a value, or a value below
        // that is itself labelled: nothing.
        let form = Line::new("FECHA INGRESO....:");
        assert_eq!(form.below(&["fecha ingreso"], &Line::new("PERIODO....: 01/Ene/2025")), None);
        assert_eq!(Line::new("Fecha de pago 15/01/2025").below(&["fecha de pago"], &values), None);
        assert_eq!(Line::new("Fecha de pago").below(&["fecha de pago"], &Line::new("Periodo: 01/01/2025")), None);
    }
}
