//! The tokens of a JSON text, read in place: what lets the profile reader ([`crate::profile::input`])
//! take each number's digits as written instead of the binary double a JSON parser makes of
//! them.
//!
//! Strict where it decides and partial on purpose: [`Scanner::string`] gives a string's raw
//! text, its value when it has no escapes (the caller decodes escapes with serde_json, or
//! leaves the text to it), [`Scanner::number`] gives a number's raw text, which
//! [`crate::money::from_json_literal`] checks against JSON's grammar, and anything else is
//! either skipped ([`Scanner::skip_value`], only on a text serde_json already accepted) or
//! declined (`None`), leaving the text to serde_json, which reports the exact error.
//! (serde_json's own `RawValue` would do this too, but its feature adds some 48 KB to the
//! WebAssembly build, a tenth of its budget.)

/// A position in a JSON text.
#[derive(Debug)]
pub(crate) struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

/// A string of the text, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JsonString<'a> {
    /// The string with its quotes.
    pub(crate) quoted: &'a str,
    escaped: bool,
}

impl<'a> JsonString<'a> {
    /// Its value, when it has no escapes (with escapes, the text between the quotes is not
    /// its value).
    pub(crate) fn plain(&self) -> Option<&'a str> {
        // The quotes are one byte each.
        (!self.escaped).then(|| &self.quoted[1..self.quoted.len() - 1])
    }
}

/// Deepest nesting [`Scanner::skip_value`] walks (serde_json refuses texts deeper than 128).
const MAX_DEPTH: usize = 256;

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Scanner { text, at: 0 }
    }

    fn whitespace(&mut self) {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.whitespace();
        self.text.as_bytes().get(self.at).copied()
    }

    /// Consumes `byte` when it comes next (after whitespace).
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        if next {
            self.at += 1;
        }
        next
    }

    /// True when only whitespace is left.
    pub(crate) fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// The string that comes next; `None` when none does, or for a control character, which
    /// JSON does not allow unescaped.
    pub(crate) fn string(&mut self) -> Option<JsonString<'a>> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let bytes = self.text.as_bytes();
        let start = self.at;
        let mut i = start + 1;
        let mut escaped = false;
        loop {
            match *bytes.get(i)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i += 2;
                }
                c if c < 0x20 => return None,
                _ => i += 1,
            }
        }
        self.at = i + 1;
        Some(JsonString { quoted: self.text.get(start..=i)?, escaped })
    }

    /// The raw text of a number: the longest run of the characters a JSON number is made of
    /// (checked against the grammar by whoever reads it).
    pub(crate) fn number(&mut self) -> &'a str {
        self.whitespace();
        let bytes = self.text.as_bytes();
        let start = self.at;
        while matches!(bytes.get(self.at), Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')) {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// Consumes the literal `word` (`null`, `true`, `false`) when it comes next.
    pub(crate) fn literal(&mut self, word: &str) -> bool {
        self.whitespace();
        let next = self.text[self.at..].starts_with(word);
        if next {
            self.at += word.len();
        }
        next
    }

    /// Skips one value of a text serde_json accepted (`None` if it turns out not to be one).
    pub(crate) fn skip_value(&mut self) -> Option<()> {
        self.skip_nested(0)
    }

    fn skip_nested(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.string().map(drop),
            open @ (b'{' | b'[') => {
                self.at += 1;
                let close = if open == b'{' { b'}' } else { b']' };
                if self.eat(close) {
                    return Some(());
                }
                loop {
                    if open == b'{' {
                        self.string()?;
                        if !self.eat(b':') {
                            return None;
                        }
                    }
                    self.skip_nested(depth + 1)?;
                    if !self.eat(b',') {
                        return self.eat(close).then_some(());
                    }
                }
            }
            b't' => self.literal("true").then_some(()),
            b'f' => self.literal("false").then_some(()),
            b'n' => self.literal("null").then_some(()),
            _ => (!self.number().is_empty()).then_some(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_read_in_place() {
        let mut s = Scanner::new(r#" { "a\"b" : -1.5e3 , "c":[1,{"d":"}"}], "e": true } x"#);
        assert!(s.eat(b'{'));
        let key = s.string().expect("a string");
        assert_eq!((key.quoted, key.plain()), (r#""a\"b""#, None));
        assert!(s.eat(b':'));
        assert_eq!(s.number(), "-1.5e3");
        assert!(s.eat(b','));
        assert_eq!(s.string().and_then(|s| s.plain()), Some("c"));
        assert!(s.eat(b':'));
        assert_eq!(s.skip_value(), Some(()));
        assert!(s.eat(b','));
        assert_eq!(s.string().and_then(|s| s.plain()), Some("e"));
        assert!(s.eat(b':'));
        assert_eq!(s.skip_value(), Some(()));
        assert!(s.eat(b'}'));
        assert!(!s.at_end());
        // A control character is not JSON; an unterminated string is not a string.
        assert_eq!(Scanner::new("\"a\u{1}\"").string(), None);
        assert_eq!(Scanner::new("\"abc").string(), None);
        assert_eq!(Scanner::new("\"abc\\").string(), None);
    }
}
