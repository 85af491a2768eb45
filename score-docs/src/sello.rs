//! The seal of a CFDI: whether `Sello` is the issuer's signature of the receipt as it stands.
//!
//! A CFDI 3.3/4.0 is sealed by its issuer with the private key of a CSD (certificado de sello
//! digital): `Sello` is RSA PKCS#1 v1.5 with SHA-256 over the cadena original
//! ([`crate::cadena`]), base64; `Certificado` is the CSD (X.509, DER, base64) and
//! `NoCertificado` its number. The SAT then stamps the receipt (`tfd:TimbreFiscalDigital`,
//! whose `SelloCFD` repeats the issuer's `Sello`). Any change to a sealed attribute after
//! sealing (amount, date, RFC) breaks the signature.
//!
//! Checked here: the signature with the certificate's key; the certificate's number (its
//! serial's hex pairs read as ASCII, as the SAT numbers CSDs) is `NoCertificado`; the RFC of
//! its subject (`x500UniqueIdentifier`, `RFC` or `RFC / RFC of the legal representative`) is
//! the issuer's; `Fecha` falls within its validity (compared as written, in the issuer's local
//! time, against the certificate's UTC times); the stamp is there with a UUID and certifies
//! this seal. Whether the certificate was issued by one of the SAT's CAs is checked apart
//! ([`crate::certificados_sat`]) and reported in `ca_sat_verificada`. Not checked: the stamp's
//! own seal (`SelloSAT`, by the PAC's or the SAT's stamping certificate, which no package
//! carries; see README.md, "The seal").

use crate::cadena::cadena_original;
use crate::certificados_sat::CertificadosSat;
use crate::cfdi::{Ns, Tree};
use crate::facts::{CfdiFacts, MotivoSello, Sello};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rsa::pkcs1::RsaPublicKey;
use x509_cert::Certificate;
use x509_cert::der::{Decode, asn1};
use x509_cert::time::Time;

/// `x500UniqueIdentifier` (2.5.4.45): where the SAT writes the holder's RFC.
const OID_UNIQUE_IDENTIFIER: asn1::ObjectIdentifier = asn1::ObjectIdentifier::new_unwrap("2.5.4.45");

/// Checks the seal of the receipt read into `tree` and `facts`, and chains its certificate to
/// the CA certificates `ca`.
pub(crate) fn check(tree: &Tree<'_>, facts: &CfdiFacts, ca: &CertificadosSat) -> Sello {
    let stated = |name| tree.attr(0, name).map(str::trim).filter(|v| !v.is_empty());
    let (Some(sello), Some(certificado), Some(no_certificado)) = (stated("Sello"), stated("Certificado"), stated("NoCertificado"))
    else {
        return Sello::rechazado(MotivoSello::SinSello, stated("NoCertificado").map(str::to_owned), None);
    };
    let Some((der, cert)) = decode_base64(certificado).and_then(|der| Certificate::from_der(&der).ok().map(|c| (der, c))) else {
        return Sello::rechazado(MotivoSello::CertificadoNoCorresponde, Some(no_certificado.to_owned()), None);
    };
    let numero = certificate_number(&cert);
    let rfc = subject_rfc(&cert);
    let written = facts.fecha.as_deref().unwrap_or_default();
    let fecha = written.get(..19).unwrap_or(written);
    let ca_sat_motivo = ca.chain(&cert, &der, fecha).err();
    let result = |motivo: Option<MotivoSello>| Sello {
        valido: motivo.is_none(),
        motivo,
        no_certificado: Some(numero.clone()),
        rfc_certificado: rfc.clone(),
        ca_sat_verificada: ca_sat_motivo.is_none(),
        ca_sat_motivo,
    };
    let fail = |motivo| result(Some(motivo));
    let spki = &cert.tbs_certificate.subject_public_key_info;
    let Some(key) = spki.subject_public_key.as_bytes().and_then(|der| RsaPublicKey::from_der(der).ok()) else {
        return fail(MotivoSello::CertificadoNoCorresponde);
    };
    let (modulus, exponent) = (key.modulus.as_bytes(), key.public_exponent.as_bytes());
    // CSDs are 2048-bit RSA; both implementations below refuse anything shorter alike.
    if modulus.len() < 256 {
        return fail(MotivoSello::CertificadoNoCorresponde);
    }
    let signed = match (cadena_original(tree), decode_base64(sello)) {
        (Ok(cadena), Some(signature)) => verify(Hash::Sha256, modulus, exponent, cadena.as_bytes(), &signature),
        _ => false,
    };
    if !signed {
        return fail(MotivoSello::SelloInvalido);
    }
    if numero != no_certificado || rfc.as_deref() != Some(facts.emisor_rfc.as_str()) {
        return fail(MotivoSello::CertificadoNoCorresponde);
    }
    let validity = &cert.tbs_certificate.validity;
    if fecha < timestamp(validity.not_before).as_str() || fecha > timestamp(validity.not_after).as_str() {
        return fail(MotivoSello::CertificadoVencido);
    }
    let timbre = tree.complement_items().find(|&i| tree.elems[i].ns == Ns::Tfd && tree.elems[i].local == "TimbreFiscalDigital");
    let Some(timbre) = timbre.filter(|_| facts.uuid.is_some()) else { return fail(MotivoSello::SinTimbre) };
    if tree.attr(timbre, "SelloCFD").map(str::trim) != Some(sello) {
        return fail(MotivoSello::SelloInvalido);
    }
    result(None)
}

/// Base64 as the SAT writes it (line breaks and spaces tolerated).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    if text.bytes().any(|b| b.is_ascii_whitespace()) {
        let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        STANDARD.decode(compact).ok()
    } else {
        STANDARD.decode(text).ok()
    }
}

/// The SAT's number of a certificate: the serial's bytes are ASCII digits
/// (`3330303031…` is `30001…`); any other serial is shown in hexadecimal.
fn certificate_number(cert: &Certificate) -> String {
    let serial = cert.tbs_certificate.serial_number.as_bytes();
    if !serial.is_empty() && serial.iter().all(u8::is_ascii_digit) {
        serial.iter().map(|&b| char::from(b)).collect()
    } else {
        serial.iter().map(|b| format!("{b:02X}")).collect()
    }
}

/// The holder's RFC in the subject's `x500UniqueIdentifier` (the part before ` / `).
fn subject_rfc(cert: &Certificate) -> Option<String> {
    let value = cert
        .tbs_certificate
        .subject
        .0
        .iter()
        .flat_map(|rdn| rdn.0.iter())
        .find(|atv| atv.oid == OID_UNIQUE_IDENTIFIER)?
        .value
        .clone();
    let text = value
        .decode_as::<asn1::PrintableStringRef<'_>>()
        .map(|s| s.as_str().to_owned())
        .or_else(|_| value.decode_as::<asn1::Utf8StringRef<'_>>().map(|s| s.as_str().to_owned()))
        .or_else(|_| value.decode_as::<asn1::Ia5StringRef<'_>>().map(|s| s.as_str().to_owned()))
        .ok()?;
    let rfc = text.split('/').next()?.trim().to_uppercase();
    (!rfc.is_empty()).then_some(rfc)
}

/// The hash of an RSA PKCS#1 v1.5 signature: SHA-256 for seals; the SAT's CAs sign
/// certificates with SHA-256 and newer ones may use SHA-384 or SHA-512.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    Sha256,
    Sha384,
    Sha512,
}

/// RSA PKCS#1 v1.5 of `message` with `hash` by the key (`modulus`, `exponent`), big-endian.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn verify(hash: Hash, modulus: &[u8], exponent: &[u8], message: &[u8], signature: &[u8]) -> bool {
    use ring::signature::{RSA_PKCS1_2048_8192_SHA256, RSA_PKCS1_2048_8192_SHA384, RSA_PKCS1_2048_8192_SHA512, RsaPublicKeyComponents};
    let algorithm = match hash {
        Hash::Sha256 => &RSA_PKCS1_2048_8192_SHA256,
        Hash::Sha384 => &RSA_PKCS1_2048_8192_SHA384,
        Hash::Sha512 => &RSA_PKCS1_2048_8192_SHA512,
    };
    RsaPublicKeyComponents { n: modulus, e: exponent }.verify(algorithm, message, signature).is_ok()
}

/// RSA PKCS#1 v1.5 of `message` with `hash` by the key (`modulus`, `exponent`), big-endian.
#[cfg(target_arch = "wasm32")]
pub(crate) fn verify(hash: Hash, modulus: &[u8], exponent: &[u8], message: &[u8], signature: &[u8]) -> bool {
    use rsa::{BigUint, Pkcs1v15Sign, RsaPublicKey};
    use sha2::{Digest, Sha256, Sha384, Sha512};
    let Ok(key) = RsaPublicKey::new(BigUint::from_bytes_be(modulus), BigUint::from_bytes_be(exponent)) else { return false };
    match hash {
        Hash::Sha256 => key.verify(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(message), signature),
        Hash::Sha384 => key.verify(Pkcs1v15Sign::new::<Sha384>(), &Sha384::digest(message), signature),
        Hash::Sha512 => key.verify(Pkcs1v15Sign::new::<Sha512>(), &Sha512::digest(message), signature),
    }
    .is_ok()
}

/// A certificate time as `AAAA-MM-DDTHH:MM:SS`, comparable as text with `Fecha`.
pub(crate) fn timestamp(time: Time) -> String {
    let t = time.to_date_time();
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", t.year(), t.month(), t.day(), t.hour(), t.minutes(), t.seconds())
}
