//! A label as payroll programs abbreviate or reword it: "F. Pago", "Fec. pago", "Fecha de
//! pago" and "Fecha pago" for "fecha de pago"; "Per. Pago" for "periodo de pago"; "Días Pag."
//! for "dias pagados"; "Ent. Fed." for "entidad federativa"; "No." or "Núm." for "numero";
//! "R.F.C." and "C.U.R.P." for "rfc" and "curp". Spanish abbreviates a word by keeping its first
//! letter and some of the following ones in order, closed by a period; connecting words ("de",
//! "del", "la") come and go. [`Line`](super::Line) tries a label as written first and only then
//! this reading, which is bounded so that a stray word does not pass for a label: an abbreviation
//! ends with its period, a one-word label matches only its initials ("R.F.C."), and a label of
//! several words needs at least two of them and four letters in all.

/// Connecting words a label may have or lack without changing what it names.
const CONNECTORS: &[&str] = &["de", "del", "la", "el", "los", "las"];

/// One word of a line (folded): where it starts and ends, its letters, and whether a period
/// closes it (an abbreviation).
#[derive(Debug, Clone)]
struct Word {
    start: usize,
    end: usize,
    letters: String,
    dotted: bool,
}

/// The line's words: runs of letters and digits; initials each closed by a period and written
/// together ("r.f.c.") make one word.
fn words(folded: &[char]) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut at = 0;
    while at < folded.len() {
        if !folded[at].is_alphanumeric() {
            at += 1;
            continue;
        }
        let end = at + folded[at..].iter().take_while(|c| c.is_alphanumeric()).count();
        out.push(Word { start: at, end, letters: folded[at..end].iter().collect(), dotted: folded.get(end) == Some(&'.') });
        at = end;
    }
    let initial = |w: &Word| w.dotted && w.end - w.start == 1 && w.letters.chars().all(char::is_alphabetic);
    let mut merged: Vec<Word> = Vec::with_capacity(out.len());
    let mut i = 0;
    while i < out.len() {
        let mut j = i + 1;
        while initial(&out[i]) && j < out.len() && initial(&out[j]) && out[j - 1].end + 1 == out[j].start {
            j += 1;
        }
        let mut word = out[i].clone();
        if j > i + 1 {
            word.end = out[j - 1].end;
            word.letters = out[i..j].iter().map(|w| w.letters.as_str()).collect();
        }
        merged.push(word);
        i = j;
    }
    merged
}

/// How `word` of the line stands for `label` (a label's word): as written (its length in
/// letters), or as its abbreviation (the letters kept, when a period closes it, it starts with
/// the label word's first letter and keeps the rest in order).
fn matched_letters(label: &str, word: &Word) -> Option<usize> {
    if word.letters == label {
        return Some(label.chars().count());
    }
    let short: Vec<char> = word.letters.chars().collect();
    let long: Vec<char> = label.chars().collect();
    if !word.dotted || short.len() >= long.len() || short.first() != long.first() || !short.iter().all(|c| c.is_alphabetic()) {
        return None;
    }
    let mut rest = long[1..].iter();
    short[1..].iter().all(|c| rest.any(|l| l == c)).then_some(short.len())
}

/// Where `label` (folded, single-blank words) stands in the line as abbreviated or reworded,
/// the end past an abbreviation's period; `None` when it does not, or when the reading is too
/// thin to be told from other words (see the module's doc).
pub(super) fn find_abbreviated(folded: &[char], label: &str) -> Option<(usize, usize)> {
    let wanted: Vec<&str> = label.split(' ').collect();
    let line = words(folded);
    (0..line.len()).find_map(|first| {
        let (end, letters, matched) = walk(folded, &line, &wanted, first, first)?;
        let content = wanted.iter().filter(|w| !CONNECTORS.contains(w)).count();
        let enough = if content == 1 { matched == 1 && line[first].letters == label.replace(' ', "") && line[first].dotted } else { matched >= 2 && letters >= 4 };
        enough.then_some((line[first].start, end))
    })
}

/// Matches `wanted` from its first word against the line's words from `at` (the match began at
/// `first`): each label word is matched by the next line word, or skipped when it is a
/// connector; a connector of the line between matched words is skipped too. Words follow each
/// other with only blanks or an abbreviation's period between them. Gives the end, the letters
/// matched and the number of label words matched.
fn walk(folded: &[char], line: &[Word], wanted: &[&str], first: usize, at: usize) -> Option<(usize, usize, usize)> {
    let Some((label, rest)) = wanted.split_first() else {
        let last = &line[at.checked_sub(1)?];
        return Some((last.end + usize::from(last.dotted), 0, 0));
    };
    let adjacent = at == first || {
        let prev = &line[at - 1];
        let from = prev.end + usize::from(prev.dotted);
        line.get(at).is_some_and(|w| w.start >= from && folded[from..w.start].iter().all(|c| c.is_whitespace()) && (w.start > from || prev.dotted))
    };
    let here = line.get(at).filter(|_| adjacent).and_then(|w| matched_letters(label, w)).and_then(|n| {
        walk(folded, line, rest, first, at + 1).map(|(end, letters, matched)| (end, letters + n, matched + 1))
    });
    here.or_else(|| {
        // A connector of the label the line lacks ("fecha de pago" as "F. Pago").
        (at > first && CONNECTORS.contains(label)).then(|| walk(folded, line, rest, first, at)).flatten()
    })
    .or_else(|| {
        // A connector of the line the label lacks ("Fecha de pago" for "fecha pago").
        let connector = line.get(at).is_some_and(|w| CONNECTORS.contains(&w.letters.as_str()));
        (adjacent && at > first && connector).then(|| walk(folded, line, wanted, first, at + 1)).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::super::Line;

    fn found(line: &str, label: &str) -> Option<String> {
        Line::new(line).after(&[label])
    }

    #[test]
    fn abbreviated_and_reworded_labels_of_dates_and_periods() {
        for (line, label) in [
            ("F. Pago: 15-01-2025", "fecha de pago"),
            ("F.Pago 15-01-2025", "fecha de pago"),
            ("Fec. pago: 15-01-2025", "fecha de pago"),
            ("Fecha pago: 15-01-2025", "fecha de pago"),
            ("Fecha de pago: 15-01-2025", "fecha pago"),
            ("FEC. DE PAGO 15-01-2025", "fecha pago"),
            ("F. Inicial: 15-01-2025", "fecha inicial"),
            ("Fec. ini. pago 15-01-2025", "fecha inicial pago"),
            ("F. Final de Pago | 15-01-2025", "fecha final de pago"),
            ("F. Ingreso | 15-01-2025", "fecha ingreso"),
        ] {
            assert_eq!(found(line, label).as_deref(), Some("15-01-2025"), "{line} for {label}");
        }
        assert_eq!(found("Per. Pago | 01-01-2025 al 15-01-2025", "periodo de pago").as_deref(), Some("01-01-2025 al 15-01-2025"));
        assert_eq!(found("Días Pag. | 15.00", "dias pagados").as_deref(), Some("15.00"));
        assert_eq!(found("No. días pagados: 15", "numero de dias pagados").as_deref(), Some("15"));
        assert_eq!(found("Ent. Fed.: JAL", "entidad federativa").as_deref(), Some("JAL"));
        assert_eq!(found("R.F.C.: EKU9003173C9", "rfc").as_deref(), Some("EKU9003173C9"));
        assert_eq!(found("C.U.R.P. GALM850101MJCRPR08", "curp").as_deref(), Some("GALM850101MJCRPR08"));
    }

    #[test]
    fn words_that_are_not_the_label() {
        for (line, label) in [
            // No period: not an abbreviation.
            ("F Pago 15-01-2025", "fecha de pago"),
            ("Fe Pago 15-01-2025", "fecha de pago"),
            // Another word, or the letters out of order.
            ("Folio. Pago 15-01-2025", "fecha de pago"),
            ("Fecha inicial de pago: 01-01-2025", "fecha de pago"),
            ("Fecha: pago 15-01-2025", "fecha de pago"),
            // Too little to tell: two initials, a label word missing, a one-word label cut short.
            ("F. P. 15-01-2025", "fecha pago"),
            ("Fecha: 15-01-2025", "fecha de pago"),
            ("Ant. P284W", "antiguedad"),
            ("R. Social: X", "rfc"),
        ] {
            assert_eq!(found(line, label), None, "{line} for {label}");
        }
    }
}
