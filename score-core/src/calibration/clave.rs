//! A product's `clave` as the report writes it (`producto`, `producto_recomendado`): the code
//! the calibration gives the product, `UPPER_SNAKE_CASE`. Kept inline, so an offer stays `Copy`
//! data and scoring allocates nothing for it; the calibration refuses a longer one.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The longest `clave` a product may have, in bytes.
pub const CLAVE_MAX: usize = 31;

/// A product's code: `"INFONAVIT"`, `"HIPOTECA_BANCARIA"`, or a bank's own (`"BBVA_FIJA"`).
/// Compared, ordered and hashed as its text (by hand: a derived comparison of the whole array
/// is unrolled at every use, which costs the WebAssembly module kilobytes).
#[derive(Clone, Copy)]
pub struct Clave {
    len: u8,
    bytes: [u8; CLAVE_MAX],
}

impl Clave {
    /// No code (a product the calibration lacks; a checked one never does).
    pub const VACIA: Clave = Clave { len: 0, bytes: [0; CLAVE_MAX] };

    /// The code `text`, or `None` when it is longer than [`CLAVE_MAX`] bytes.
    pub const fn new(text: &str) -> Option<Clave> {
        let src = text.as_bytes();
        if src.len() > CLAVE_MAX {
            return None;
        }
        let mut bytes = [0u8; CLAVE_MAX];
        let mut i = 0;
        while i < src.len() {
            bytes[i] = src[i];
            i += 1;
        }
        Some(Clave { len: src.len() as u8, bytes })
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The code as written.
    pub fn as_str(&self) -> &str {
        // Built from a `&str` cut at its end: always UTF-8.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl PartialEq for Clave {
    /// As their texts: the bytes past a code's length are always zero ([`Clave::new`]), so
    /// two codes are equal when their lengths and their whole arrays are, compared as two
    /// overlapping 16-byte words (a slice comparison was a call to `memcmp`, five a report).
    fn eq(&self, other: &Clave) -> bool {
        self.len == other.len && palabras(&self.bytes) == palabras(&other.bytes)
    }
}

/// The first and the last 16 bytes of a code's array (overlapping: 31 bytes).
fn palabras(bytes: &[u8; CLAVE_MAX]) -> (u128, u128) {
    let palabra = |b: Option<&[u8; 16]>| b.map_or(0, |b| u128::from_le_bytes(*b));
    (palabra(bytes.first_chunk()), palabra(bytes.last_chunk()))
}

impl Eq for Clave {}

impl PartialOrd for Clave {
    fn partial_cmp(&self, other: &Clave) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Clave {
    fn cmp(&self, other: &Clave) -> std::cmp::Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl std::hash::Hash for Clave {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl fmt::Debug for Clave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Clave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Clave {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Clave {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for Clave {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Clave {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Clave, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Clave::new(&text).ok_or_else(|| serde::de::Error::custom(format!("a product's clave has at most {CLAVE_MAX} bytes")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two codes are equal exactly when their texts are: prefixes, codes that differ in any
    /// one byte (either 16-byte word, the overlap included), every length up to the longest.
    #[test]
    fn codes_are_equal_when_their_texts_are() {
        let largo = "A".repeat(CLAVE_MAX);
        let mut textos: Vec<String> = vec![String::new(), "INFONAVIT".into(), "INFONAVIT_MAS_BANCO".into(), "INFONAVIT_MAS_BANCA".into()];
        textos.extend((0..=CLAVE_MAX).map(|n| largo[..n].to_owned()));
        for i in 0..CLAVE_MAX {
            let mut b = largo.clone().into_bytes();
            b[i] = b'B';
            textos.push(String::from_utf8(b).expect("ascii"));
        }
        let claves: Vec<Clave> = textos.iter().map(|t| Clave::new(t).expect("short enough")).collect();
        for (a, ta) in claves.iter().zip(&textos) {
            for (b, tb) in claves.iter().zip(&textos) {
                assert_eq!(a == b, ta == tb, "{ta} {tb}");
                assert_eq!(a.cmp(b).is_eq(), a == b, "{ta} {tb}");
            }
        }
        assert!(Clave::new(&"A".repeat(CLAVE_MAX + 1)).is_none());
    }
}
