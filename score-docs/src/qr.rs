//! The QR code of a printed CFDI: by the SAT's rule (Anexo 20), every printed receipt carries
//! the verification URL
//! `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=UUID&re=RFC&rr=RFC&tt=TOTAL&fe=LAST8`.
//! Its values are exact where OCR is not (no look-alike characters), so a print's UUID and
//! RFCs come from it, and its total is checked against the totals read by OCR. It is still
//! paper: anyone can print any QR code, so nothing read from it is verified until the XML or
//! the SAT's service confirms the UUID.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::text;

/// The host of the SAT's verification service, as the URL names it.
const HOST: &str = "verificacfdi.facturaelectronica.sat.gob.mx";

/// The values of a printed CFDI's QR code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodigoQr {
    /// `id`: the folio fiscal (upper case).
    pub uuid: String,
    /// `re`: the issuer's RFC.
    pub emisor_rfc: String,
    /// `rr`: the receiver's RFC.
    pub receptor_rfc: String,
    /// `tt`: the CFDI's `Total` (for a payroll receipt: perceptions − deductions + other
    /// payments, the net pay).
    #[serde(with = "score_core::money::number")]
    pub total: Decimal,
    /// `fe`: the seal's last eight characters (kept to be quoted to the SAT's service).
    pub sello_final: Option<String>,
}

/// `%XX` escapes decoded (bytes, then UTF-8), `+` as a blank; `None` when not UTF-8.
fn percent_decode(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The values of the SAT's verification URL in `content` (what a QR code decodes to), or
/// `None` when it is not that URL or a value is missing or malformed. The RFCs must have an
/// RFC's shape (an `&` in a company's name is written `&amp;` or `%26`, as Anexo 20 allows).
pub fn parse_verification_url(content: &str) -> Option<CodigoQr> {
    let content = content.trim();
    let rest = content.strip_prefix("https://").or_else(|| content.strip_prefix("http://"))?;
    let (host, query) = rest.split_once('?')?;
    let host = host.split('/').next()?;
    if !host.eq_ignore_ascii_case(HOST) {
        return None;
    }
    let query = query.replace("&amp;", "%26");
    let mut values = std::collections::HashMap::new();
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=')?;
        values.insert(key.to_ascii_lowercase(), percent_decode(value)?);
    }
    let uuid = text::parse_uuid(values.get("id")?.trim())?;
    let rfc = |key: &str| -> Option<String> {
        let value = values.get(key)?.trim().to_uppercase();
        let letters = value.chars().take_while(|c| c.is_alphabetic() || *c == '&').count();
        let ok = matches!((value.chars().count(), letters), (12, 3) | (13, 4))
            && value.chars().skip(letters).all(|c| c.is_ascii_alphanumeric());
        ok.then_some(value)
    };
    // CFDI 3.3 writes tt with leading zeros and six decimals ("0000004498.970000").
    let total: Decimal = values.get("tt")?.trim().parse().ok()?;
    if total.is_sign_negative() {
        return None;
    }
    let sello_final = values.get("fe").map(|f| f.trim().to_owned()).filter(|f| !f.is_empty());
    Some(CodigoQr { uuid, emisor_rfc: rfc("re")?, receptor_rfc: rfc("rr")?, total: total.normalize(), sello_final })
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5FB2822E-396D-4725-8521-CDC4BDD20CCF&re=EKU9003173C9&rr=XOJI740919U48&tt=0000004498.970000&fe=rH8/bw==";

    #[test]
    fn the_sat_url_of_cfdi_3_3_and_4_0() {
        let qr = parse_verification_url(URL).expect("reads");
        assert_eq!(qr.uuid, "5FB2822E-396D-4725-8521-CDC4BDD20CCF");
        assert_eq!((qr.emisor_rfc.as_str(), qr.receptor_rfc.as_str()), ("EKU9003173C9", "XOJI740919U48"));
        assert_eq!(qr.total, Decimal::new(449_897, 2));
        assert_eq!(qr.sello_final.as_deref(), Some("rH8/bw=="));
        let v40 = URL.replace("tt=0000004498.970000", "tt=4498.97").replace("id=5FB2822E", "id=5fb2822e");
        assert_eq!(parse_verification_url(&v40), Some(qr.clone()));
        let ampersand = URL.replace("re=EKU9003173C9", "re=A&amp;B9003173C9");
        assert_eq!(parse_verification_url(&ampersand).map(|q| q.emisor_rfc), Some("A&B9003173C9".to_owned()));
        let escaped = URL.replace("re=EKU9003173C9", "re=A%26B9003173C9");
        assert_eq!(parse_verification_url(&escaped).map(|q| q.emisor_rfc), Some("A&B9003173C9".to_owned()));
    }

    #[test]
    fn anything_else_is_not_the_sat_url() {
        for bad in [
            URL.replace("verificacfdi.facturaelectronica.sat.gob.mx", "verificacfdi.example.com"),
            URL.replace("&tt=0000004498.970000", ""),
            URL.replace("tt=0000004498.970000", "tt=mucho"),
            URL.replace("tt=0000004498.970000", "tt=-1"),
            URL.replace("rr=XOJI740919U48", "rr=XOJI"),
            URL.replace("id=5FB2822E-396D-4725-8521-CDC4BDD20CCF", "id=nada"),
            URL.replace("tt=", "tt=%FF"),
            "https://www.sat.gob.mx/".to_owned(),
            "texto cualquiera".to_owned(),
            String::new(),
        ] {
            assert_eq!(parse_verification_url(&bad), None, "{bad}");
        }
    }
}
