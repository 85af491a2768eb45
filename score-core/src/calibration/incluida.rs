//! The embedded calibration: its text, and its `id` read from that text when the crate is
//! compiled, the one definition of the name every report made with the default figures
//! carries, available as a constant ([`crate::CALIBRATION`]) to whatever needs it without
//! loading the calibration (the bindings' static texts, the report's `calibracion`), and no
//! copy of it to keep in step.

/// The embedded calibration's text, `score-core/calibration/mx-2026.toml`.
pub const EMBEDDED_TOML: &str = include_str!("../../calibration/mx-2026.toml");

/// Where the embedded text's `id` lies.
const ID_RANGO: (usize, usize) = rango_del_id(EMBEDDED_TOML.as_bytes());
/// The embedded text's `id` alone, so that the constant does not carry the whole text.
const ID_BYTES: [u8; ID_RANGO.1 - ID_RANGO.0] = copia(EMBEDDED_TOML.as_bytes(), ID_RANGO.0);
/// The embedded calibration's `id`, read from its text when the crate is compiled.
pub const EMBEDDED_ID: &str = texto(&ID_BYTES);

/// Where the top-level `id = "…"` of a calibration text lies (its value's first byte and the
/// byte after its last), found before the first table header; the compilation stops with a
/// message when the text has none there, or when its value is not a plain quoted text (the
/// reader refuses any `id` but letters, digits, `.`, `_` and `-`).
const fn rango_del_id(texto: &[u8]) -> (usize, usize) {
    let mut i = 0;
    while i < texto.len() {
        // The start of a line, past its indentation.
        while i < texto.len() && (texto[i] == b' ' || texto[i] == b'\t') {
            i += 1;
        }
        if i < texto.len() && texto[i] == b'[' {
            break;
        }
        if i + 2 < texto.len() && texto[i] == b'i' && texto[i + 1] == b'd' && (texto[i + 2] == b' ' || texto[i + 2] == b'=') {
            let mut j = i + 2;
            while j < texto.len() && texto[j] == b' ' {
                j += 1;
            }
            if j < texto.len() && texto[j] == b'=' {
                j += 1;
                while j < texto.len() && texto[j] == b' ' {
                    j += 1;
                }
                assert!(j < texto.len() && texto[j] == b'"', "the calibration's `id` is not a quoted text");
                let desde = j + 1;
                let mut hasta = desde;
                while hasta < texto.len() && texto[hasta] != b'"' {
                    let b = texto[hasta];
                    assert!(b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-', "the calibration's `id` is not a plain name");
                    hasta += 1;
                }
                assert!(hasta < texto.len() && hasta > desde, "the calibration's `id` is not a quoted text");
                return (desde, hasta);
            }
        }
        // The next line.
        while i < texto.len() && texto[i] != b'\n' {
            i += 1;
        }
        i += 1;
    }
    panic!("the embedded calibration has no top-level `id`")
}

/// The bytes of `texto` from `desde`, `N` of them: the id alone, so that the constant does not
/// carry the whole text with it.
const fn copia<const N: usize>(texto: &[u8], desde: usize) -> [u8; N] {
    let mut out = [0; N];
    let mut k = 0;
    while k < N {
        out[k] = texto[desde + k];
        k += 1;
    }
    out
}

/// `bytes` as text, at compile time.
const fn texto(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(texto) => texto,
        Err(_) => panic!("the calibration's `id` is not UTF-8"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time reading finds a top-level `id` before the first table only (that it
    /// is the one the calibration's reader finds: `tests/calibration.rs`).
    #[test]
    fn the_id_read_at_compile_time_is_the_top_level_one() {
        let texto = "# id = \"no\"\nidentidad = \"no\"\n  id   =   \"mx-1.2_3\"\n[general]\nid = \"no\"\n";
        let (desde, hasta) = rango_del_id(texto.as_bytes());
        assert_eq!(&texto[desde..hasta], "mx-1.2_3");
    }

    #[test]
    #[should_panic(expected = "no top-level `id`")]
    fn an_id_inside_a_table_is_not_the_documents() {
        rango_del_id(b"[general]\nid = \"x\"\n");
    }
}
