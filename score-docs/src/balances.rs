//! Rebuilding a statement's movements from its running balances when a scan lost a figure.
//!
//! Every movement line prints an amount and the balance after it, and the statement prints its
//! opening and closing balance and (in every layout we know) its total deposits and
//! withdrawals. That is redundant: a noisy photo that loses the amount of one line, or its
//! balance, or reads one digit of it wrong, still leaves enough to know the lost figure, as an
//! accountant would: the amount is the difference of the balances around it, the balance the
//! previous one plus the amount.
//!
//! [`rebuild`] looks for the one sequence of balances, from the opening to the closing
//! balance, that agrees with the most figures read, under rules that keep a guess from ever
//! passing for a fact:
//! - every line keeps at least one figure read as printed (a line with nothing legible is
//!   not rebuilt), and a figure read is only replaced by a value it could be a misreading of
//!   (one digit different, or one or two leading digits lost), or by the value that the
//!   lines on both sides, each read whole and agreeing, confirm;
//! - the rebuilt deposits and withdrawals add up to the totals the statement states;
//! - the answer is unique: when two sequences agree with as many figures, nothing is rebuilt;
//! - the caller does not ask when a line of the movements list holds an amount but could not
//!   be read as a movement (a lost line would otherwise pass its amount to its neighbour).
//!
//! Rows whose figure was rebuilt are marked (`corregido`), so that a reader knows which figures
//! came from the arithmetic rather than the page.

use rust_decimal::Decimal;
use std::collections::HashMap;

/// The most balance states kept per line: past it the reading is too ambiguous to rebuild.
const MAX_STATES: usize = 64;
/// The most amounts a line may show (a movement prints at most an amount in each of two
/// columns and a balance), and the most lines rebuilt: beyond either the text is not a
/// statement's list, and the search (at most `MAX_STATES` × its candidates per line) stays
/// within milliseconds whatever text comes in.
const MAX_AMOUNTS: usize = 3;
const MAX_LINES: usize = 400;

/// The figures a statement states outside its movement lines.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ends {
    pub opening: Decimal,
    pub closing: Decimal,
    pub deposits: Option<Decimal>,
    pub withdrawals: Option<Decimal>,
}

/// One movement as rebuilt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rebuilt {
    /// Positive a deposit, negative a withdrawal.
    pub importe: Decimal,
    /// The balance after it.
    pub saldo: Decimal,
    /// One of its figures was not read as printed and comes from the balances around it.
    pub corregido: bool,
}

/// A state after a line: the balance, the deposits so far, the figures that agreed (in all and
/// on this line), whether more than one path reaches it with that count, where it came from,
/// and whether the next line must confirm it.
#[derive(Debug, Clone, Copy)]
struct State {
    balance: Decimal,
    deposits: Decimal,
    score: u32,
    ambiguous: bool,
    back: usize,
    agreed: Agreement,
    pending: bool,
}

/// The amounts read on a line (magnitude, written with a minus sign), in order: the last is the
/// balance column, the others the amount column(s).
type Amounts = [(Decimal, bool)];

fn signed((value, negative): (Decimal, bool)) -> Decimal {
    if negative { -value } else { value }
}

/// Whether `read` could be a misreading of `value`, as OCR misreads figures: the same digits
/// but for one (3 for 8), or the last five or more digits with one or two lost before them
/// (`22,932.42` read `Lea 932.42`). Both are written with two decimals.
fn plausible_misreading(read: Decimal, value: Decimal) -> bool {
    let digits = |v: Decimal| format!("{:.2}", v.abs()).replace('.', "");
    let (read, value) = (digits(read), digits(value));
    let one_digit = read.len() == value.len() && read.bytes().zip(value.bytes()).filter(|(x, y)| x != y).count() <= 1;
    let lost_head = read.len() >= 5 && value.len() <= read.len() + 2 && value.ends_with(&read);
    one_digit || lost_head
}

/// How a line's figures agree with going from one balance to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Agreement {
    /// No figure read agrees.
    None,
    /// Both the amount and the balance read agree.
    Both,
    /// One figure agrees; the other was not read, or is a plausible misreading of its value.
    One,
    /// One figure agrees and the other was read as something unrelated: accepted only between
    /// two lines whose figures all agree (the balance before it was confirmed, the next line
    /// confirms the balance after it).
    OneUnconfirmed,
}

/// How a line's figures agree with going from `before` to `after`: the balance read equals
/// `after`, an amount read equals the difference. A line with one amount read is either its
/// amount or its balance (the other was lost), so it agrees with at most one.
fn agreement(amounts: &Amounts, before: Decimal, after: Decimal) -> Agreement {
    let difference = (after - before).abs();
    let Some((&last, rest)) = amounts.split_last() else { return Agreement::None };
    if rest.is_empty() {
        let as_amount = !difference.is_zero() && last.0 == difference;
        return if signed(last) == after || as_amount { Agreement::One } else { Agreement::None };
    }
    let both_columns = rest.len() == 2 && (rest[0].0 - rest[1].0).abs() == difference;
    let amount = !difference.is_zero() && (rest.iter().any(|a| a.0 == difference) || both_columns);
    let one = |plausible: bool| if plausible { Agreement::One } else { Agreement::OneUnconfirmed };
    match (signed(last) == after, amount) {
        (true, true) => Agreement::Both,
        (true, false) => one(rest.len() == 1 && plausible_misreading(rest[0].0, difference)),
        (false, true) => one(plausible_misreading(signed(last), after)),
        (false, false) => Agreement::None,
    }
}

/// The balances worth trying after line `i`: the one it printed, the previous states plus or
/// minus each amount it printed, and the next line's printed balance less its amount.
fn candidates(rows: &[Vec<(Decimal, bool)>], i: usize, previous: &[State], closing: Decimal) -> Vec<Decimal> {
    if i + 1 == rows.len() {
        return vec![closing];
    }
    let mut out = Vec::new();
    if let Some(&last) = rows[i].last() {
        out.push(signed(last));
    }
    for state in previous {
        for a in &rows[i] {
            out.push(state.balance + a.0);
            out.push(state.balance - a.0);
        }
    }
    if let Some((&last, rest)) = rows[i + 1].split_last() {
        for a in rest {
            out.push(signed(last) - a.0);
            out.push(signed(last) + a.0);
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The movements of `rows` (each line's amounts as read) rebuilt between the statement's
/// `ends`, or `None` when the figures read do not pin them down (see the module's rules).
pub(crate) fn rebuild(rows: &[Vec<(Decimal, bool)>], ends: &Ends) -> Option<Vec<Rebuilt>> {
    if rows.is_empty() || rows.len() > MAX_LINES || rows.iter().any(|r| r.len() > MAX_AMOUNTS) {
        return None;
    }
    let start =
        State { balance: ends.opening, deposits: Decimal::ZERO, score: 0, ambiguous: false, back: 0, agreed: Agreement::Both, pending: false };
    let mut layers: Vec<Vec<State>> = vec![vec![start]];
    for (i, amounts) in rows.iter().enumerate() {
        let previous = layers.last()?;
        let mut next: Vec<State> = Vec::new();
        let mut index: HashMap<(Decimal, Decimal), usize> = HashMap::new();
        for after in candidates(rows, i, previous, ends.closing) {
            for (back, before) in previous.iter().enumerate() {
                let agreed = agreement(amounts, before.balance, after);
                let confirmed_before = before.agreed == Agreement::Both && !before.pending;
                let allowed = match agreed {
                    Agreement::None => false,
                    Agreement::OneUnconfirmed => confirmed_before,
                    Agreement::Both | Agreement::One => !before.pending || agreed == Agreement::Both,
                };
                if !allowed {
                    continue;
                }
                // The last line's balance is the closing balance, read apart from the list.
                let pending = agreed == Agreement::OneUnconfirmed && i + 1 < rows.len();
                let points = if agreed == Agreement::Both { 2 } else { 1 };
                let change = after - before.balance;
                let deposits = before.deposits + change.max(Decimal::ZERO);
                let state = State { balance: after, deposits, score: before.score + points, ambiguous: before.ambiguous, back, agreed, pending };
                match index.get(&(after.normalize(), deposits.normalize())) {
                    None => {
                        index.insert((after.normalize(), deposits.normalize()), next.len());
                        next.push(state);
                    }
                    Some(&at) => {
                        let kept = &mut next[at];
                        if state.score > kept.score {
                            *kept = state;
                        } else if state.score == kept.score {
                            kept.ambiguous = true;
                        }
                    }
                }
            }
        }
        if next.is_empty() || next.len() > MAX_STATES {
            return None;
        }
        layers.push(next);
    }
    let last = layers.last()?;
    let withdrawals = |s: &State| ends.opening + s.deposits - s.balance;
    let finals: Vec<&State> = last
        .iter()
        .filter(|s| s.balance == ends.closing)
        .filter(|s| ends.deposits.is_none_or(|d| d == s.deposits))
        .filter(|s| ends.withdrawals.is_none_or(|w| w == withdrawals(s)))
        .collect();
    let best = finals.iter().map(|s| s.score).max()?;
    let mut winners = finals.iter().filter(|s| s.score == best);
    let winner = **winners.next()?;
    if winners.next().is_some() || winner.ambiguous {
        return None;
    }
    // Walk back from the winner.
    let mut out = Vec::with_capacity(rows.len());
    let mut state = winner;
    for layer in layers[..layers.len() - 1].iter().rev() {
        let before = layer[state.back];
        out.push(Rebuilt { importe: state.balance - before.balance, saldo: state.balance, corregido: state.agreed != Agreement::Both });
        state = before;
    }
    out.reverse();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        text.parse().expect("a decimal")
    }

    fn row(values: &[&str]) -> Vec<(Decimal, bool)> {
        values.iter().map(|v| (d(v.trim_start_matches('-')), v.starts_with('-'))).collect()
    }

    fn ends(opening: &str, closing: &str, deposits: &str, withdrawals: &str) -> Ends {
        Ends { opening: d(opening), closing: d(closing), deposits: Some(d(deposits)), withdrawals: Some(d(withdrawals)) }
    }

    #[test]
    fn a_lost_balance_and_a_lost_amount_come_back_from_their_neighbours() {
        // A phone photo of Banco Altiplano, January: the first balance and the second amount
        // were unreadable.
        let rows = vec![
            row(&["12336.84"]),
            row(&["67959.30"]),
            row(&["3482.69", "64476.61"]),
            row(&["3463.11", "61013.50"]),
            row(&["2164.25", "58849.25"]),
        ];
        let got = rebuild(&rows, &ends("56801.43", "58849.25", "12336.84", "10289.02")).expect("rebuilt");
        let figures: Vec<(String, String, bool)> = got.iter().map(|r| (r.importe.to_string(), r.saldo.to_string(), r.corregido)).collect();
        assert_eq!(
            figures,
            [
                ("12336.84".into(), "69138.27".into(), true),
                ("-1178.97".into(), "67959.30".into(), true),
                ("-3482.69".into(), "64476.61".into(), false),
                ("-3463.11".into(), "61013.50".into(), false),
                ("-2164.25".into(), "58849.25".into(), false),
            ]
        );
    }

    #[test]
    fn a_misread_digit_of_a_balance_is_put_right() {
        let rows = vec![row(&["100.00", "1100.00"]), row(&["50.00", "1080.00"]), row(&["25.00", "1025.00"])];
        let got = rebuild(&rows, &ends("1000.00", "1025.00", "100.00", "75.00")).expect("rebuilt");
        assert_eq!(got[1].saldo, d("1050.00"));
        assert!(got[1].corregido && !got[0].corregido && !got[2].corregido);
    }

    #[test]
    fn an_amount_whose_leading_digits_were_lost_is_put_right() {
        let rows = vec![row(&["100.00", "1100.00"]), row(&["932.42", "23032.42"])];
        let got = rebuild(&rows, &ends("1000.00", "23032.42", "22032.42", "0.00")).expect("rebuilt");
        assert_eq!((got[1].importe, got[1].corregido), (d("21932.42"), true));
    }

    #[test]
    fn an_unrelated_figure_is_replaced_only_between_two_whole_lines() {
        let rows = vec![row(&["100.00", "1100.00"]), row(&["555.42", "23032.42"]), row(&["32.42", "23000.00"])];
        let got = rebuild(&rows, &ends("1000.00", "23000.00", "22032.42", "32.42")).expect("rebuilt");
        assert_eq!((got[1].importe, got[1].corregido), (d("21932.42"), true));
        // The next line does not confirm the balance: nothing is rebuilt.
        let rows = vec![row(&["100.00", "1100.00"]), row(&["555.42", "23032.42"]), row(&["50.00", "22990.00"])];
        assert_eq!(rebuild(&rows, &ends("1000.00", "22990.00", "22032.42", "42.42")), None);
        // Nor when the line before it was itself rebuilt.
        let rows = vec![row(&["100.00"]), row(&["555.42", "23032.42"]), row(&["32.42", "23000.00"])];
        assert_eq!(rebuild(&rows, &ends("1000.00", "23000.00", "22032.42", "32.42")), None);
    }

    #[test]
    fn nothing_is_rebuilt_when_two_readings_fit_as_well() {
        // Two lines with only their amounts read: either could be the deposit.
        let rows = vec![row(&["100.00"]), row(&["100.00"])];
        assert_eq!(rebuild(&rows, &ends("1000.00", "1000.00", "100.00", "100.00")), None);
    }

    #[test]
    fn a_line_with_nothing_legible_is_not_rebuilt() {
        let rows = vec![row(&["100.00", "1100.00"]), row(&[]), row(&["25.00", "1025.00"])];
        assert_eq!(rebuild(&rows, &ends("1000.00", "1025.00", "100.00", "75.00")), None);
    }

    #[test]
    fn a_long_list_of_lines_with_one_amount_each_is_refused_quickly() {
        // Every line could be an amount or a balance: the states would double at each line.
        let rows: Vec<Vec<(Decimal, bool)>> = (0..MAX_LINES).map(|i| row(&[&format!("{}.00", i + 1)])).collect();
        assert_eq!(rebuild(&rows, &ends("1000.00", "1000.00", "0.00", "0.00")), None);
        let wide = vec![row(&["1.00", "2.00", "3.00", "4.00"])];
        assert_eq!(rebuild(&wide, &ends("1000.00", "1003.00", "3.00", "0.00")), None);
    }

    #[test]
    fn the_stated_totals_must_agree() {
        let rows = vec![row(&["100.00", "1100.00"]), row(&["50.00", "1050.00"])];
        assert!(rebuild(&rows, &ends("1000.00", "1050.00", "100.00", "50.00")).is_some());
        assert_eq!(rebuild(&rows, &ends("1000.00", "1050.00", "150.00", "100.00")), None);
    }
}
