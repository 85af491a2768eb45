//! The SAT's CA certificates, and whether a receipt's certificate (its CSD) was issued by one.
//!
//! A CSD is issued by one of the SAT's certification authorities ("A.C. del Servicio de
//! Administración Tributaria", AC0 to AC5 so far), each certified in turn by Banco de México's
//! root (ARC). A certificate made by anyone with an issuer's RFC in its subject passes every
//! check of [`crate::sello`]; only its issuer's signature tells it apart. Checked here: that
//! the certificate's issuer name is the subject of a loaded CA certificate, that this CA's RSA
//! key signed it (SHA-256, -384 or -512), and that the CA was in force on the receipt's
//! `Fecha`. The loaded CA certificates are trust anchors as loaded: their own signatures by
//! Banco de México are not checked at run time (the carried ones are pinned by SHA-256 in
//! ca-sat/README.md, and a test checks AC5's signature by ARC5).
//!
//! [`CertificadosSat::incluidos`] are the certificates in ca-sat/ (compiled in, so every
//! surface gives the same answer); an operator loads a current set with
//! [`CertificadosSat::from_files`] (the server's `SAT_CA_DIR`).

use crate::error::{DocError, DocErrorCode};
use crate::facts::MotivoCaSat;
use crate::sello::{Hash, timestamp, verify};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rsa::pkcs1::RsaPublicKey;
use sha2::{Digest, Sha256};
use std::sync::{Mutex, OnceLock};
use x509_cert::Certificate;
use x509_cert::der::{Decode, asn1};
use x509_cert::name::Name;

/// The certificates carried in ca-sat/, as the SAT publishes them (DER): the CAs whose CSDs can
/// be in force for a CFDI 3.3 or 4.0 (AC0 and AC1 expired before CFDI 3.3 began in 2017).
const INCLUIDOS: [(&str, &[u8]); 4] = [
    ("AC2_SAT.cer", include_bytes!("../ca-sat/AC2_SAT.cer")),
    ("AC3_SAT.cer", include_bytes!("../ca-sat/AC3_SAT.cer")),
    ("AC4_SAT.cer", include_bytes!("../ca-sat/AC4_SAT.cer")),
    ("AC5_SAT.cer", include_bytes!("../ca-sat/AC5_SAT.cer")),
];

const SHA256_WITH_RSA: asn1::ObjectIdentifier = asn1::ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
const SHA384_WITH_RSA: asn1::ObjectIdentifier = asn1::ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.12");
const SHA512_WITH_RSA: asn1::ObjectIdentifier = asn1::ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.13");

/// One CA: its name, RSA key and validity (`AAAA-MM-DDTHH:MM:SS`, UTC).
#[derive(Debug, Clone)]
struct Ac {
    /// The certificate as loaded (DER), handed back by [`CertificadosSat::der`].
    der: Vec<u8>,
    subject: Name,
    modulus: Vec<u8>,
    exponent: Vec<u8>,
    desde: String,
    hasta: String,
}

/// A set of the SAT's CA certificates that receipts' certificates are chained to.
#[derive(Debug)]
pub struct CertificadosSat {
    acs: Vec<Ac>,
    /// Certificates already found signed (SHA-256 of their DER, the CA's index): an employer
    /// seals every receipt with one CSD, and checking the SAT's RSA-4096 signature again for
    /// each would cost about as much as the seal itself. Only successes are kept, at most
    /// [`KNOWN_MAX`]; a certificate is trusted again only for the same bytes.
    known: Mutex<Vec<([u8; 32], usize)>>,
}

/// Signed certificates remembered at most (then forgotten all at once).
const KNOWN_MAX: usize = 1024;

impl Clone for CertificadosSat {
    fn clone(&self) -> Self {
        CertificadosSat { acs: self.acs.clone(), known: Mutex::new(Vec::new()) }
    }
}

impl CertificadosSat {
    /// The certificates carried in ca-sat/ (the SAT's AC2 to AC5; see ca-sat/README.md).
    pub fn incluidos() -> &'static CertificadosSat {
        static INCLUIDOS_LEIDOS: OnceLock<CertificadosSat> = OnceLock::new();
        INCLUIDOS_LEIDOS.get_or_init(|| {
            // Checked by the tests: every carried file is a CA certificate with an RSA key.
            CertificadosSat::from_files(INCLUIDOS.iter().map(|&(name, der)| (name, der)))
                .unwrap_or(CertificadosSat { acs: Vec::new(), known: Mutex::new(Vec::new()) })
        })
    }

    /// The certificates in `files` (`(name, bytes)`: DER as the SAT publishes them, or PEM),
    /// instead of the carried ones. `DOCUMENT_UNREADABLE` (with the file's name) when one is
    /// not an X.509 certificate with an RSA key, or when there are none.
    pub fn from_files<'a, N, B>(files: impl IntoIterator<Item = (N, B)>) -> Result<CertificadosSat, DocError>
    where
        N: AsRef<str> + 'a,
        B: AsRef<[u8]> + 'a,
    {
        let mut acs = Vec::new();
        for (name, bytes) in files {
            let name = name.as_ref();
            let ac = pem_or_der(bytes.as_ref()).and_then(|der| ac(&der)).ok_or_else(|| {
                DocError::new(
                    DocErrorCode::DocumentUnreadable,
                    Some(name),
                    format!("{name} no es un certificado X.509 con llave RSA (DER o PEM) de una autoridad certificadora."),
                )
            })?;
            acs.push(ac);
        }
        if acs.is_empty() {
            return Err(DocError::new(
                DocErrorCode::DocumentUnreadable,
                None,
                "No se dio ningún certificado de las autoridades certificadoras del SAT.".to_owned(),
            ));
        }
        Ok(CertificadosSat { acs, known: Mutex::new(Vec::new()) })
    }

    /// How many CA certificates are loaded.
    pub fn len(&self) -> usize {
        self.acs.len()
    }

    /// Each CA certificate loaded (DER), in load order: what a server hands its pages so that
    /// the receipts read in the browser are chained to the same CAs as on the server.
    pub fn der(&self) -> impl Iterator<Item = &[u8]> {
        self.acs.iter().map(|ac| ac.der.as_slice())
    }

    /// Whether no CA is loaded: never for a set from [`CertificadosSat::from_files`] (which
    /// refuses none), nor for the carried one (the tests load every carried file).
    pub fn is_empty(&self) -> bool {
        self.acs.is_empty()
    }

    /// Whether the certificate `certificado` (DER or PEM) was issued by one of these CAs in
    /// force on `fecha` (`AAAA-MM-DDTHH:MM:SS`, compared as text), or why not: what a receipt's
    /// `ca_sat_verificada` says of its certificate, for a certificate on its own.
    pub fn verifica(&self, certificado: &[u8], fecha: &str) -> Result<(), MotivoCaSat> {
        let der = pem_or_der(certificado).ok_or(MotivoCaSat::SinCertificado)?;
        let cert = Certificate::from_der(&der).map_err(|_| MotivoCaSat::SinCertificado)?;
        self.chain(&cert, &der, fecha)
    }

    /// Whether `cert` (whose DER is `der`) was issued by one of these CAs in force on `fecha`
    /// (`AAAA-MM-DDTHH:MM:SS` as the receipt writes it), or why not.
    pub(crate) fn chain(&self, cert: &Certificate, der: &[u8], fecha: &str) -> Result<(), MotivoCaSat> {
        let issuer = &cert.tbs_certificate.issuer;
        if !self.acs.iter().any(|ac| ac.subject == *issuer) {
            return Err(MotivoCaSat::AcDesconocida);
        }
        let algorithm = cert.signature_algorithm.oid;
        let hash = match algorithm {
            SHA256_WITH_RSA => Hash::Sha256,
            SHA384_WITH_RSA => Hash::Sha384,
            SHA512_WITH_RSA => Hash::Sha512,
            _ => return Err(MotivoCaSat::AlgoritmoNoAdmitido),
        };
        let (Some(tbs), Some(signature)) = (first_element(der), cert.signature.as_bytes()) else {
            return Err(MotivoCaSat::FirmaAcInvalida);
        };
        let digest: [u8; 32] = Sha256::digest(der).into();
        let remembered = self.known.lock().ok().and_then(|known| known.iter().find(|(d, _)| *d == digest).map(|&(_, i)| i));
        let index = match remembered {
            Some(index) => index,
            None => {
                let found = self.acs.iter().position(|ac| ac.subject == *issuer && verify(hash, &ac.modulus, &ac.exponent, tbs, signature));
                let Some(index) = found else { return Err(MotivoCaSat::FirmaAcInvalida) };
                if let Ok(mut known) = self.known.lock() {
                    if known.len() >= KNOWN_MAX {
                        known.clear();
                    }
                    known.push((digest, index));
                }
                index
            }
        };
        let ac = self.acs.get(index).ok_or(MotivoCaSat::FirmaAcInvalida)?;
        if fecha < ac.desde.as_str() || fecha > ac.hasta.as_str() {
            return Err(MotivoCaSat::AcVencida);
        }
        Ok(())
    }
}

/// A CA from its certificate's DER: `None` when it is not a certificate with an RSA key.
fn ac(der: &[u8]) -> Option<Ac> {
    let cert = Certificate::from_der(der).ok()?;
    let spki = &cert.tbs_certificate.subject_public_key_info;
    let key = RsaPublicKey::from_der(spki.subject_public_key.as_bytes()?).ok()?;
    let validity = &cert.tbs_certificate.validity;
    Some(Ac {
        der: der.to_vec(),
        subject: cert.tbs_certificate.subject.clone(),
        modulus: key.modulus.as_bytes().to_vec(),
        exponent: key.public_exponent.as_bytes().to_vec(),
        desde: timestamp(validity.not_before),
        hasta: timestamp(validity.not_after),
    })
}

/// DER as it is, or the first PEM block's base64 decoded.
fn pem_or_der(bytes: &[u8]) -> Option<Vec<u8>> {
    let Ok(text) = std::str::from_utf8(bytes) else { return Some(bytes.to_vec()) };
    let Some(begin) = text.find("-----BEGIN CERTIFICATE-----") else { return Some(bytes.to_vec()) };
    let body = &text[begin + "-----BEGIN CERTIFICATE-----".len()..];
    let body = &body[..body.find("-----END CERTIFICATE-----")?];
    let compact: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    STANDARD.decode(compact).ok()
}

/// The first element inside the DER SEQUENCE `der`, header included: a certificate's
/// `tbsCertificate` exactly as signed (not re-encoded).
fn first_element(der: &[u8]) -> Option<&[u8]> {
    let (outer, _) = header(der)?;
    let inner = der.get(outer..)?;
    let (header_len, len) = header(inner)?;
    inner.get(..header_len + len)
}

/// A DER element's header: (its length, the content's length), for tag 0x30 (SEQUENCE).
fn header(der: &[u8]) -> Option<(usize, usize)> {
    if *der.first()? != 0x30 {
        return None;
    }
    let first = usize::from(*der.get(1)?);
    if first < 0x80 {
        return Some((2, first));
    }
    let count = first & 0x7f;
    if count == 0 || count > 4 {
        return None;
    }
    let len = der.get(2..2 + count)?.iter().fold(0usize, |n, &b| (n << 8) | usize::from(b));
    Some((2 + count, len))
}
