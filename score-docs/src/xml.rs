//! The safe XML layer: what any document must pass before a single fact is read from it.
//!
//! quick-xml never expands entities or fetches anything by itself; on top of it this module
//! refuses, instead of skipping, every construct that could make another XML processor do
//! so: a `<!DOCTYPE` (which is where internal entities, billion laughs, and external
//! entities, XXE, are declared) and any entity reference other than the five predefined ones
//! and character references. Size and nesting are bounded before and while reading.

use crate::error::{DocError, DocErrorCode};
use std::borrow::Cow;

/// Largest document read, in bytes (1 MiB). A payroll receipt is 3–20 KB; a final settlement
/// with many perception lines stays far below this.
pub const MAX_BYTES: usize = 1 << 20;
/// Deepest element nesting read. A CFDI with Nómina nests 5 levels
/// (Comprobante/Complemento/Nomina/Deducciones/Deduccion).
pub const MAX_DEPTH: usize = 32;

pub(crate) fn unsafe_xml(what: &str) -> DocError {
    DocError::new(
        DocErrorCode::DocumentUnsafeXml,
        None,
        format!("El XML trae {what}; por seguridad no se leen documentos con DTD ni entidades (un CFDI nunca los lleva)."),
    )
}

pub(crate) fn invalid_xml(detail: impl std::fmt::Display) -> DocError {
    DocError::new(DocErrorCode::DocumentInvalidXml, None, format!("El archivo no es XML válido: {detail}."))
}

/// Checks the size and the encoding, and returns the text without a byte-order mark.
pub(crate) fn document_text(data: &[u8]) -> Result<&str, DocError> {
    if data.len() > MAX_BYTES {
        return Err(DocError::new(
            DocErrorCode::DocumentTooLarge,
            None,
            format!(
                "El archivo pesa {} bytes; el máximo para un recibo de nómina es {} bytes (1 MiB).",
                data.len(),
                MAX_BYTES
            ),
        ));
    }
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    std::str::from_utf8(data).map_err(|e| invalid_xml(format_args!("no está codificado en UTF-8 (byte {})", e.valid_up_to())))
}

pub(crate) fn too_deep() -> DocError {
    DocError::new(
        DocErrorCode::DocumentTooLarge,
        None,
        format!("El XML anida más de {MAX_DEPTH} niveles de elementos; un CFDI de nómina anida 5."),
    )
}

/// Whether `name` (the text between `&` and `;`) is a predefined entity or a well-formed
/// character reference: the only references a CFDI may carry.
pub(crate) fn is_allowed_reference(name: &[u8]) -> bool {
    match name {
        b"lt" | b"gt" | b"amp" | b"apos" | b"quot" => true,
        [b'#', b'x', hex @ ..] => !hex.is_empty() && hex.len() <= 6 && hex.iter().all(u8::is_ascii_hexdigit),
        [b'#', dec @ ..] => !dec.is_empty() && dec.len() <= 7 && dec.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Splits a start tag's attribute text (`a="1" b='2'`) into (qualified name, raw value) pairs,
/// appended to `out`. A hand-written scanner (memchr for the closing quote) rather than
/// quick-xml's attribute iterator, which was half of a receipt's reading time on the long
/// seal and certificate values. Refuses what XML refuses there: a name without `=`, a value
/// without quotes, a `<` in a value, two attributes without a space between them, and the same
/// attribute twice.
pub(crate) fn scan_attributes<'a>(raw: &'a [u8], out: &mut Vec<(&'a [u8], &'a [u8])>) -> Result<(), DocError> {
    let (mut i, n) = (0, raw.len());
    loop {
        while i < n && is_space(raw[i]) {
            i += 1;
        }
        if i >= n {
            return Ok(());
        }
        let start = i;
        while i < n && raw[i] != b'=' && !is_space(raw[i]) {
            i += 1;
        }
        let name = &raw[start..i];
        while i < n && is_space(raw[i]) {
            i += 1;
        }
        if i >= n || raw[i] != b'=' {
            return Err(invalid_xml("un atributo sin valor"));
        }
        i += 1;
        while i < n && is_space(raw[i]) {
            i += 1;
        }
        let quote = match raw.get(i) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(invalid_xml("un valor de atributo sin comillas")),
        };
        i += 1;
        let len = memchr::memchr(quote, &raw[i..]).ok_or_else(|| invalid_xml("un valor de atributo sin cerrar"))?;
        let value = &raw[i..i + len];
        if memchr::memchr(b'<', value).is_some() {
            return Err(invalid_xml("un '<' dentro de un atributo"));
        }
        if out.iter().any(|(other, _)| *other == name) {
            return Err(invalid_xml("un atributo repetido"));
        }
        out.push((name, value));
        i += len + 1;
        if i < n && !is_space(raw[i]) {
            return Err(invalid_xml("dos atributos sin espacio entre ellos"));
        }
    }
}

/// An attribute value with its references replaced: the predefined entities and character
/// references; any other entity is refused as unsafe, a malformed reference as invalid XML.
pub(crate) fn unescape(text: &str) -> Result<Cow<'_, str>, DocError> {
    if memchr::memchr(b'&', text.as_bytes()).is_none() {
        return Ok(Cow::Borrowed(text));
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after.find(';').ok_or_else(|| invalid_xml("un '&' sin ';' en un atributo"))?;
        let name = &after[..end];
        if !is_allowed_reference(name.as_bytes()) {
            return Err(if name.starts_with('#') { invalid_xml("una referencia de carácter mal formada") } else { unsafe_xml("una entidad") });
        }
        out.push(match name {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "apos" => '\'',
            "quot" => '"',
            _ => {
                let code = match name.strip_prefix("#x") {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => name[1..].parse().ok(),
                };
                code.and_then(char::from_u32).ok_or_else(|| invalid_xml("una referencia a un carácter inexistente"))?
            }
        });
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(unescape("A&amp;B &#209;&#xD1;").ok().as_deref(), Some("A&B ÑÑ"));
        assert_eq!(unescape("&lol;").map_err(|e| e.code).err(), Some(DocErrorCode::DocumentUnsafeXml));
        assert_eq!(unescape("&#xD800;").map_err(|e| e.code).err(), Some(DocErrorCode::DocumentInvalidXml));
        assert_eq!(unescape("a & b").map_err(|e| e.code).err(), Some(DocErrorCode::DocumentInvalidXml));
    }

    #[test]
    fn attributes() {
        let mut out = Vec::new();
        assert!(scan_attributes(b" a=\"1\"  b = '2' xmlns:c=\"u\"", &mut out).is_ok());
        assert_eq!(out, vec![(&b"a"[..], &b"1"[..]), (&b"b"[..], &b"2"[..]), (&b"xmlns:c"[..], &b"u"[..])]);
        for bad in [&b"a"[..], b"a=1", b"a=\"1", b"a=\"1\"b=\"2\"", b"a=\"<\"", b"a=\"1\" a=\"2\""] {
            out.clear();
            assert_eq!(scan_attributes(bad, &mut out).map_err(|e| e.code).err(), Some(DocErrorCode::DocumentInvalidXml));
        }
    }
}
