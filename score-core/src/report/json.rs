//! The report's compact JSON, written directly into a byte buffer: a [`ReportSink`] of the
//! report's walk ([`crate::walk`]), which is where the keys and their order are defined.
//!
//! This is the hot path of the HTTP calculator and of every `score_json` call, so it does not go
//! through serde's derived `Serialize`: keys and punctuation are byte literals (each key's `,"name":` is a constant of the walk), numbers are the
//! decimal's own digits where that is provably the text serde_json writes for its double (every
//! shown figure; else serde_json's own integer and float formatters write them), and texts are
//! copied as they are once a scan (eight bytes at a time) shows that they hold nothing JSON
//! must escape (the model's Spanish texts never do; a text that does goes through serde_json's
//! escaping).
//! Half the time of the serde path went to escaping those texts byte by byte.
//!
//! The derived `Serialize` stays the definition of the format: a test writes every fixture's
//! report, thousands of generated ones and hand-made reports with texts to escape both ways and
//! requires the same bytes, so a field added to the struct without a line in the walk fails it.

use crate::money;
use crate::report::Text;
use crate::report::score_report::ScoreReport;
use crate::walk::{Label, ReportSink, Slot};
use std::borrow::Cow;
use rust_decimal::Decimal;
use serde_json::ser::{CompactFormatter, Formatter};

/// Room for a whole report (about 3.2 KB of JSON) in one allocation.
const JSON_CAPACITY: usize = 4096;

impl ScoreReport {
    /// The report as compact JSON text (keys in the documented order).
    pub fn to_json_string(&self) -> String {
        let mut out = Vec::with_capacity(JSON_CAPACITY);
        self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// Appends the compact JSON text of the report to `out`, for callers that wrap it in an
    /// envelope without copying it again (the server's calculator endpoint). The bytes are those
    /// of `serde_json::to_writer(out, report)`, written faster (see `report_json.rs`).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        write_report(self, out, None);
    }

    /// [`ScoreReport::write_json`], except that the content of every text that is `&'static`
    /// and needs no JSON escaping (every text the model writes: recommendations, disclaimer,
    /// version, state names) is appended by `text` instead, between the quotes written here.
    /// For a binding whose host keeps those texts as its own strings: JavaScript turns UTF-8
    /// into a string ten times faster when it is all ASCII, so score-wasm writes the rest,
    /// which is ASCII, records where each text goes (`out.len()` when `text` is called) and
    /// splices in the strings it already has. Appending `text`'s bytes gives `write_json`.
    pub fn write_json_with_texts(&self, out: &mut Vec<u8>, text: &mut dyn FnMut(&'static str, &mut Vec<u8>)) {
        write_report(self, out, Some(text));
    }
}

/// Appends the compact JSON text of `report` to `out`, byte for byte what
/// `serde_json::to_writer(out, report)` writes. With `static_text`, the content of each text
/// that is `&'static` and needs no escaping is written by it instead (see
/// [`ScoreReport::write_json_with_texts`]).
pub(crate) fn write_report<'a>(
    report: &ScoreReport,
    out: &mut Vec<u8>,
    static_text: Option<&'a mut WriteStaticText<'a>>,
) {
    report.walk(&mut Writer { out, static_text });
}

/// What writes the content of a static text in place of the writer (see `write_report`).
type WriteStaticText<'a> = dyn FnMut(&'static str, &mut Vec<u8>) + 'a;

struct Writer<'a, 'b> {
    out: &'a mut Vec<u8>,
    static_text: Option<&'b mut WriteStaticText<'b>>,
}

impl Writer<'_, '_> {
    /// JSON text known to need no escaping: this module's literals and the wire names of enums.
    fn raw(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
    }

    // Writing into a `Vec` cannot fail, so the formatters' `io::Result`s carry nothing.
    fn uint(&mut self, value: u64) {
        let _ = CompactFormatter.write_u64(self.out, value);
    }

    /// A figure: its own digits (an integer when whole). Every figure the model computes has
    /// at most 15 significant digits, so these are also the digits of its double, the number a
    /// binding hands its host (`money::json_f64`); a longer one is an input echoed as written
    /// (a what-if's `antes`), which the JSON keeps, as it was read (MODEL.md section 1).
    fn number(&mut self, value: Decimal) {
        if !self.plain_number(value) {
            self.number_as_written(value);
        }
    }

    /// Writes a decimal of at most 15 significant digits and a magnitude of zero or at least
    /// 10^-5 (every shown figure: amounts have 2 decimals, ratios 4) as its own digits, which
    /// is the text serde_json writes for its double, without converting to a double and
    /// searching for the shortest digits (the costliest part of the report in WebAssembly).
    /// Why the texts agree: at most 15 significant digits identify a double (`f64::DIGITS`),
    /// so no other text of that length or shorter reads back as the same double, and the
    /// shortest round-trip text is the decimal's own digits without trailing zeros; serde_json
    /// writes a double of that magnitude (below 10^15, at least 10^-5) without an exponent, and
    /// a whole value as the integer. `false`, with nothing written, for any other value.
    fn plain_number(&mut self, value: Decimal) -> bool {
        use crate::pow10::POW10_U64 as POW10;
        let Some((magnitude, scale)) = money::small_parts(value) else {
            return false;
        };
        let scale = scale as usize;
        if magnitude >= POW10[15] || scale >= POW10.len() || (scale > 5 && magnitude < POW10[scale - 5] && magnitude != 0) {
            return false;
        }
        if value.is_sign_negative() && magnitude != 0 {
            self.out.push(b'-');
        }
        // Constant divisors for the scales of amounts and ratios: a multiplication each, where
        // a 64-bit division is tens of cycles (and two in WebAssembly, which has no divmod).
        let (whole, fraction) = match scale {
            2 => (magnitude / 100, magnitude % 100),
            4 => (magnitude / 10_000, magnitude % 10_000),
            _ => (magnitude / POW10[scale], magnitude % POW10[scale]),
        };
        let _ = CompactFormatter.write_u64(self.out, whole);
        if fraction != 0 {
            self.fraction(fraction, scale);
        }
        true
    }

    /// `.` and the digits of `fraction / 10^scale` without trailing zeros (`fraction` > 0).
    fn fraction(&mut self, mut fraction: u64, scale: usize) {
        let mut width = scale;
        while fraction % 10 == 0 {
            fraction /= 10;
            width -= 1;
        }
        // The digits, right to left, after the leading zeros (0.05 has one).
        let mut digits = [b'0'; 20];
        for slot in digits[..width].iter_mut().rev() {
            *slot = b'0' + (fraction % 10) as u8;
            fraction /= 10;
        }
        self.out.push(b'.');
        self.out.extend_from_slice(&digits[..width]);
    }

    /// Any figure: the integer when whole, else the nearest double, as serde_json writes them.
    /// Any other decimal: its digits without trailing zeros (a `Decimal` is never written
    /// with an exponent), an integer when whole.
    #[cold]
    fn number_as_written(&mut self, value: Decimal) {
        match money::whole(value) {
            Some(int) => {
                let _ = CompactFormatter.write_i64(self.out, int);
            }
            None => {
                self.out.extend_from_slice(value.normalize().to_string().as_bytes());
            }
        }
    }

    fn write_text(&mut self, text: &Text) {
        if needs_no_escape(text.as_bytes()) {
            self.out.push(b'"');
            match (text, &mut self.static_text) {
                (Cow::Borrowed(s), Some(write)) => write(s, self.out),
                _ => self.out.extend_from_slice(text.as_bytes()),
            }
            self.out.push(b'"');
        } else {
            let _ = serde_json::to_writer(&mut *self.out, text.as_ref());
        }
    }
}

impl Writer<'_, '_> {
    /// What goes before a value: the key, or the comma between array items.
    #[inline(always)]
    fn slot(&mut self, at: Slot) {
        match at {
            Slot::Root => {}
            Slot::Key(key) => self.raw(key.json_prefix()),
            Slot::Item(index) => {
                if index > 0 {
                    self.out.push(b',');
                }
            }
        }
    }
}

impl ReportSink for Writer<'_, '_> {
    #[inline(always)]
    fn begin_object(&mut self, at: Slot) {
        self.slot(at);
        self.out.push(b'{');
    }
    #[inline(always)]
    fn end_object(&mut self) {
        self.out.push(b'}');
    }
    #[inline(always)]
    fn begin_array(&mut self, at: Slot, _len: usize) {
        self.slot(at);
        self.out.push(b'[');
    }
    #[inline(always)]
    fn end_array(&mut self) {
        self.out.push(b']');
    }
    #[inline(always)]
    fn integer(&mut self, at: Slot, value: u64) {
        self.slot(at);
        self.uint(value);
    }
    #[inline(always)]
    fn boolean(&mut self, at: Slot, value: bool) {
        self.slot(at);
        self.raw(if value { "true" } else { "false" });
    }
    #[inline(always)]
    fn decimal(&mut self, at: Slot, value: Decimal) {
        self.slot(at);
        self.number(value);
    }
    #[inline(always)]
    fn label(&mut self, at: Slot, value: Label) {
        // Wire names are UPPER_SNAKE_CASE or lowercase ASCII letters: nothing to escape.
        self.slot(at);
        self.out.push(b'"');
        self.raw(value.as_str());
        self.out.push(b'"');
    }
    #[inline(always)]
    fn text(&mut self, at: Slot, value: &Text) {
        self.slot(at);
        self.write_text(value);
    }
    #[inline(always)]
    fn clave(&mut self, at: Slot, value: &crate::products::Clave) {
        // A clave is written as it is, escaped like any text (one read back from JSON may hold
        // anything), without the owned text the default makes of a bank's own code.
        self.slot(at);
        let text = value.as_str();
        if needs_no_escape(text.as_bytes()) {
            self.out.push(b'"');
            self.raw(text);
            self.out.push(b'"');
        } else {
            let _ = serde_json::to_writer(&mut *self.out, text);
        }
    }
    #[inline(always)]
    fn null(&mut self, at: Slot) {
        self.slot(at);
        self.raw("null");
    }
}

/// True when no byte of `bytes` is one JSON escapes (`"`, `\` or a control character).
///
/// Eight bytes at a time in a 64-bit word (SWAR), without an early exit: the same speed as
/// the compiler's vectorised byte loop natively, and several times faster in WebAssembly,
/// which has no vectors in its baseline. `has_zero_byte(w)` is non-zero exactly when a byte of
/// `w` is zero; `w - 0x20..20 & !w & 0x80..80` exactly when a byte is under 0x20 (a byte of
/// 0x80 or more never contributes, and a borrow only ever follows a byte that does).
fn needs_no_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH_BITS: u64 = ONES * 0x80;
    let has_zero_byte = |w: u64| w.wrapping_sub(ONES) & !w & HIGH_BITS;
    let mut words = bytes.chunks_exact(8);
    let mut found = 0;
    for word in &mut words {
        let mut le = [0; 8];
        le.copy_from_slice(word);
        let w = u64::from_le_bytes(le);
        found |= (w.wrapping_sub(ONES * 0x20) & !w & HIGH_BITS)
            | has_zero_byte(w ^ (ONES * u64::from(b'"')))
            | has_zero_byte(w ^ (ONES * u64::from(b'\\')));
    }
    found == 0 && words.remainder().iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Text;

    #[test]
    fn escape_scan_finds_every_byte_json_escapes() {
        for b in 0u8..=255 {
            let escaped = b < 0x20 || b == b'"' || b == b'\\';
            // At every lane of a word, across word boundaries and in the tail, between plain
            // letters and next to the bytes of multi-byte characters (which must not hide it).
            for at in [0, 1, 6, 7, 8, 63, 64, 100, 127, 128, 129] {
                for neighbour in [b'a', 0x80, 0xc3, 0xff, b' '] {
                    let mut text = vec![b'a'; 130];
                    text[at] = b;
                    if at > 0 {
                        text[at - 1] = neighbour;
                    }
                    if at + 1 < text.len() {
                        text[at + 1] = neighbour;
                    }
                    assert_eq!(needs_no_escape(&text), !escaped, "byte {b:#x} at {at} beside {neighbour:#x}");
                }
            }
        }
        assert!(needs_no_escape("Ciudad de México, núcleo básico, año".as_bytes()));
        assert!(needs_no_escape(b""));
        assert!(!needs_no_escape(b"\x1f"));
    }

    /// The digits path writes what serde_json writes for the value's double, wherever it
    /// takes a value, and what the path for every other decimal writes.
    #[test]
    fn plain_numbers_are_written_as_serde_writes_their_doubles() {
        let mut checked = 0;
        let mut check = |value: Decimal| {
            let (mut plain, mut as_written) = (Vec::new(), Vec::new());
            Writer { out: &mut as_written, static_text: None }.number_as_written(value);
            if (Writer { out: &mut plain, static_text: None }).plain_number(value) {
                let via_double = match money::whole(value) {
                    Some(int) => int.to_string(),
                    None => serde_json::to_string(&money::to_f64(value)).expect("a finite double"),
                };
                assert_eq!(String::from_utf8(plain.clone()).ok(), Some(via_double), "{value:?}");
                assert_eq!(plain, as_written, "{value:?}");
                checked += 1;
            } else {
                assert!(plain.is_empty());
                // Its own digits: they read back as the same decimal.
                let text = String::from_utf8(as_written).expect("UTF-8");
                assert_eq!(text.parse::<Decimal>().ok(), Some(value), "{value:?} written {text}");
            }
        };
        // Every scale with mantissas at the edges of the digit and magnitude limits.
        for scale in 0..=28u32 {
            for mantissa in [0i64, 1, 5, 9, 10, 99, 100, 101, 12_345, 99_999, 100_000, 999_999_999_999_999, 1_000_000_000_000_000] {
                for sign in [1, -1] {
                    check(Decimal::new(sign * mantissa, scale));
                }
            }
        }
        // And many pseudo-random figures of every size.
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for step in 0..200_000u64 {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let digits = (step % 17) as u32;
            let mantissa = (state >> 11) % 10u64.pow(digits).max(1);
            let value = Decimal::new(mantissa as i64, ((state >> 3) % 9) as u32);
            check(if step % 3 == 0 { -value } else { value });
        }
        assert!(checked > 150_000, "only {checked} values took the digits path");
    }

    fn sample_report() -> ScoreReport {
        let profile = crate::Profile::from_json_str(
            r#"{"estado":"JAL","ingreso_mensual":18000,"tipo_ingreso":"mixto","antiguedad_meses":8,"edad":61}"#,
        )
        .expect("a valid profile");
        crate::score(&profile).expect("a valid profile scores")
    }

    /// Texts that must be escaped (as a report read back from edited JSON could hold) still
    /// give serde_json's bytes.
    #[test]
    fn texts_to_escape_match_serde() {
        let mut report = sample_report();
        let odd: Text = "comillas \" barra \\ salto\n tab\t nulo\u{0} fin".to_owned().into();
        report.disclaimer = odd.clone();
        report.recomendaciones.push(odd.clone());
        report.recomendaciones_detalle[0].texto = odd.clone();
        report.estado.nombre = odd;
        let mut ours = Vec::new();
        write_report(&report, &mut ours, None);
        assert_eq!(String::from_utf8(ours).ok(), serde_json::to_string(&report).ok());
    }

    #[test]
    fn writes_what_serde_writes() {
        let report = sample_report();
        let mut ours = b"prefix:".to_vec();
        write_report(&report, &mut ours, None);
        assert_eq!(&ours[..7], b"prefix:");
        assert_eq!(String::from_utf8(ours[7..].to_vec()).ok(), serde_json::to_string(&report).ok());
    }

    /// A binding that keeps the static texts on its side gets the rest of the text and where
    /// each of them goes; putting them back gives the report's JSON. Texts that are owned, or
    /// that must be escaped, stay in the text.
    #[test]
    fn static_texts_can_be_left_to_the_caller() {
        let mut report = sample_report();
        report.recomendaciones.push(Cow::Borrowed("estática con \"comillas\""));
        report.recomendaciones.push("propia, sin nada que escapar".to_owned().into());
        let mut spliced: Vec<(usize, &'static str)> = Vec::new();
        let mut skeleton = Vec::new();
        report.write_json_with_texts(&mut skeleton, &mut |text, out| spliced.push((out.len(), text)));
        assert!(spliced.len() >= 6, "the disclaimer, version, state and recommendation texts");
        assert!(spliced.iter().all(|(_, t)| !t.contains('"') && !t.contains("propia")));
        let mut whole = String::new();
        let mut last = 0;
        for (at, text) in &spliced {
            whole.push_str(std::str::from_utf8(&skeleton[last..*at]).expect("UTF-8"));
            whole.push_str(text);
            last = *at;
        }
        whole.push_str(std::str::from_utf8(&skeleton[last..]).expect("UTF-8"));
        assert_eq!(Some(whole), serde_json::to_string(&report).ok());
    }
}
