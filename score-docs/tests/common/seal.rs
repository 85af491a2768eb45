//! Test certificates and seals: an RSA key made from a seed, a certificate with the SAT's
//! subject shape for an RFC, and a receipt sealed with them as an issuer's software seals it
//! (`NoCertificado`, `Certificado`, `Sello`, and the stamp's `SelloCFD`). Used by the seal
//! tests and by examples/seal_fixtures.rs, which seals fixtures/documents/ (a module of its
//! own, not in common/mod.rs, which score-ocr's and the server's tests include without these
//! crates).

#![allow(dead_code)] // each test binary uses part of it

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rand::SeedableRng;
use rsa::pkcs1v15::SigningKey;
use rsa::{Pkcs1v15Sign, RsaPrivateKey};
use sha2::{Digest, Sha256};
use std::str::FromStr;
use x509_cert::attr::AttributeTypeAndValue;
use x509_cert::builder::{Builder, CertificateBuilder, Profile};
use x509_cert::der::asn1::{Any, ObjectIdentifier, PrintableStringRef, SetOfVec, UtcTime};
use x509_cert::der::{DateTime, Encode};
use x509_cert::name::{Name, RelativeDistinguishedName};
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::SubjectPublicKeyInfoOwned;
use x509_cert::time::{Time, Validity};

/// A 2048-bit RSA key, the same for the same seed (CSDs are 2048-bit).
pub fn key(seed: u64) -> RsaPrivateKey {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    RsaPrivateKey::new(&mut rng, 2048).expect("RSA key")
}

fn utc(year: u16) -> Time {
    Time::UtcTime(UtcTime::from_date_time(DateTime::new(year, 1, 1, 0, 0, 0).expect("date")).expect("UTC time"))
}

/// A CSD-shaped certificate (DER) for `rfc`, numbered `number` (20 digits, written as the
/// serial's ASCII bytes as the SAT does), valid from 1 January `from` to 1 January `to`, signed
/// by its own key in the name of "AC DE PRUEBAS (NO ES DEL SAT)" (no CA's certificate exists).
pub fn certificate(key: &RsaPrivateKey, rfc: &str, number: &str, from: u16, to: u16) -> Vec<u8> {
    let issuer = Name::from_str("CN=AC DE PRUEBAS (NO ES DEL SAT),O=platform-score").expect("issuer");
    certificate_issued(key, rfc, number, from, to, issuer, key)
}

/// [`certificate`] issued by the CA named `issuer`, signed with its key `ca_key`.
pub fn certificate_issued(
    key: &RsaPrivateKey,
    rfc: &str,
    number: &str,
    from: u16,
    to: u16,
    issuer: Name,
    ca_key: &RsaPrivateKey,
) -> Vec<u8> {
    let unique = AttributeTypeAndValue {
        oid: ObjectIdentifier::new_unwrap("2.5.4.45"),
        value: Any::from(PrintableStringRef::new(&format!("{rfc} / XAXX010101000")).expect("printable")),
    };
    let mut subject = Name::from_str(&format!("CN=PATRON DE PRUEBA {rfc},O=PATRON DE PRUEBA {rfc},OU=Unidad 1")).expect("name");
    subject.0.push(RelativeDistinguishedName(SetOfVec::try_from(vec![unique]).expect("rdn")));
    let signer = SigningKey::<Sha256>::new(ca_key.clone());
    let spki = SubjectPublicKeyInfoOwned::from_key(key.to_public_key()).expect("spki");
    let serial = SerialNumber::new(number.as_bytes()).expect("serial");
    let validity = Validity { not_before: utc(from), not_after: utc(to) };
    let profile = Profile::Leaf { issuer, enable_key_agreement: false, enable_key_encipherment: false };
    let builder = CertificateBuilder::new(profile, serial, validity, subject, spki, &signer).expect("builder");
    builder.build::<rsa::pkcs1v15::Signature>().expect("certificate").to_der().expect("DER")
}

/// A self-signed CA certificate (DER) named `name` (an RFC 4514 string), valid from 1 January
/// `from` to 1 January `to`: a stand-in for one of the SAT's CAs, made in the tests.
pub fn ca_certificate(key: &RsaPrivateKey, name: &str, from: u16, to: u16) -> Vec<u8> {
    let subject = Name::from_str(name).expect("name");
    let signer = SigningKey::<Sha256>::new(key.clone());
    let spki = SubjectPublicKeyInfoOwned::from_key(key.to_public_key()).expect("spki");
    let validity = Validity { not_before: utc(from), not_after: utc(to) };
    let serial = SerialNumber::new(b"1").expect("serial");
    let builder = CertificateBuilder::new(Profile::Root, serial, validity, subject, spki, &signer).expect("builder");
    builder.build::<rsa::pkcs1v15::Signature>().expect("certificate").to_der().expect("DER")
}

/// Sets attribute `name` of the first element whose start tag begins with `tag` (adding it
/// when absent).
pub fn set_attr(xml: &str, tag: &str, name: &str, value: &str) -> String {
    let Some(at) = xml.find(tag) else { return xml.to_owned() };
    let end = at + xml[at..].find('>').expect("tag end");
    let end = if xml.as_bytes()[end - 1] == b'/' { end - 1 } else { end };
    let head = &xml[at..end];
    let needle = format!(" {name}=\"");
    match head.find(&needle) {
        Some(i) => {
            let from = at + i + needle.len();
            let to = from + xml[from..].find('"').expect("closing quote");
            format!("{}{value}{}", &xml[..from], &xml[to..])
        }
        None => format!("{} {name}=\"{value}\"{}", &xml[..end], &xml[end..]),
    }
}

/// `xml` sealed with `key` and certificate `cert` numbered `number`: the seal over the
/// cadena original score-docs builds, repeated in the stamp's `SelloCFD` when there is one.
pub fn seal(xml: &str, key: &RsaPrivateKey, cert: &[u8], number: &str) -> String {
    let xml = set_attr(xml, "<cfdi:Comprobante", "NoCertificado", number);
    let xml = set_attr(&xml, "<cfdi:Comprobante", "Certificado", &STANDARD.encode(cert));
    let xml = set_attr(&xml, "<cfdi:Comprobante", "Sello", "");
    let cadena = score_docs::cadena_original(xml.as_bytes()).expect("cadena original");
    let signature = key.sign(Pkcs1v15Sign::new::<Sha256>(), &Sha256::digest(cadena.as_bytes())).expect("sign");
    let sello = STANDARD.encode(signature);
    let xml = set_attr(&xml, "<cfdi:Comprobante", "Sello", &sello);
    set_attr(&xml, "<tfd:TimbreFiscalDigital", "SelloCFD", &sello)
}
