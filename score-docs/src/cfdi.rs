//! Reads a CFDI 3.3/4.0 payroll receipt (Nómina 1.2 complement) into [`CfdiFacts`].
//!
//! One streaming pass over quick-xml's events with namespaces resolved checks the whole file
//! (no DTD, no entities, well-formed, UTF-8 as a CFDI must be) and keeps the part the seal
//! covers as a small tree: every element of `cfdi:Comprobante` except the Addenda, which no
//! seal covers and anyone can append, so it is never read. Elements are recognised by
//! namespace and local name (never by prefix), and the facts come only from the root's
//! `cfdi:Emisor`, `cfdi:Receptor` and the complements directly under `cfdi:Complemento`. What
//! makes a document payroll is the Nómina complement, not `TipoDeComprobante` (the SAT's own
//! demos say `I` or `P`). Totals are read as stated; whether they add up is a check of the
//! profile, not a reason to refuse. The same tree gives the seal its cadena original
//! ([`crate::sello`]).

use crate::certificados_sat::CertificadosSat;
use crate::date::Date;
use crate::error::{DocError, DocErrorCode};
use crate::facts::{CfdiFacts, Deduccion, Sello};
use crate::xml::{self, MAX_DEPTH};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use rust_decimal::Decimal;
use std::borrow::Cow;
use std::str::FromStr;

const NS_CFDI3: &[u8] = b"http://www.sat.gob.mx/cfd/3";
const NS_CFDI4: &[u8] = b"http://www.sat.gob.mx/cfd/4";
const NS_NOMINA12: &[u8] = b"http://www.sat.gob.mx/nomina12";
/// Nómina 1.1 (2014–2016, with CFDI 3.2).
const NS_NOMINA11: &[u8] = b"http://www.sat.gob.mx/nomina";
const NS_TFD: &[u8] = b"http://www.sat.gob.mx/TimbreFiscalDigital";

/// Which namespace an element is in, as far as this reader cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Ns {
    Cfdi,
    Nomina12,
    Nomina11,
    Tfd,
    Other,
}

fn ns_of(uri: Option<&[u8]>) -> Ns {
    match uri {
        Some(NS_CFDI3 | NS_CFDI4) => Ns::Cfdi,
        Some(NS_NOMINA12) => Ns::Nomina12,
        Some(NS_NOMINA11) => Ns::Nomina11,
        Some(NS_TFD) => Ns::Tfd,
        _ => Ns::Other,
    }
}

/// One element of the receipt: its namespace, local name, unprefixed attributes (references
/// replaced, as written) and children, by index into [`Tree::elems`].
#[derive(Debug)]
pub(crate) struct Elem<'a> {
    pub ns: Ns,
    pub local: &'a str,
    pub attrs: Vec<(&'a str, Cow<'a, str>)>,
    pub children: Vec<usize>,
}

/// The receipt as the seal sees it: every element of `cfdi:Comprobante` except the Addenda
/// (which no seal covers and this reader never reads), the root at index 0.
#[derive(Debug, Default)]
pub(crate) struct Tree<'a> {
    pub elems: Vec<Elem<'a>>,
    /// `true` for CFDI 4.0's namespace, `false` for 3.3's.
    pub cfdi4: bool,
}

impl<'a> Tree<'a> {
    /// The value of attribute `name` of element `i`, as written.
    pub fn attr(&self, i: usize, name: &str) -> Option<&str> {
        self.elems[i].attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_ref())
    }
    /// The children of `i` named `ns:local`, in document order.
    pub fn kids(&self, i: usize, ns: Ns, local: &'static str) -> impl Iterator<Item = usize> + '_ {
        self.elems[i].children.iter().copied().filter(move |&c| self.elems[c].ns == ns && self.elems[c].local == local)
    }
    /// The Nómina 1.2 complements, the stamp and anything else under `cfdi:Complemento`
    /// (the root's children only: nothing elsewhere is sealed).
    pub fn complement_items(&self) -> impl Iterator<Item = usize> + '_ {
        self.kids(0, Ns::Cfdi, "Complemento").flat_map(|c| self.elems[c].children.iter().copied())
    }
    fn trimmed(&self, i: usize, name: &str) -> Slot<'_> {
        self.attr(i, name).map(|v| Cow::Borrowed(v.trim()))
    }
}

type Slot<'a> = Option<Cow<'a, str>>;

/// The namespace bindings in scope: `(depth, prefix, uri)`, innermost last.
#[derive(Default)]
struct Scopes<'a>(Vec<(usize, &'a [u8], &'a [u8])>);

impl<'a> Scopes<'a> {
    fn resolve(&self, prefix: &[u8]) -> Option<&'a [u8]> {
        self.0.iter().rev().find(|(_, p, _)| *p == prefix).map(|(_, _, uri)| *uri)
    }
    fn leave(&mut self, depth: usize) {
        while self.0.last().is_some_and(|(d, _, _)| *d >= depth) {
            self.0.pop();
        }
    }
}

fn not_payroll(message: &str) -> DocError {
    DocError::new(DocErrorCode::DocumentNotPayroll, None, message)
}

fn unsupported(message: String) -> DocError {
    DocError::new(DocErrorCode::DocumentUnsupportedVersion, None, message)
}

/// The part of `text` that `part` (a slice quick-xml borrowed from it) is, with `text`'s
/// lifetime: no copy and no second UTF-8 check (the cut points are ASCII delimiters).
fn within<'a>(text: &'a str, part: &[u8]) -> Result<&'a str, DocError> {
    let offset = (part.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    text.get(offset..offset.wrapping_add(part.len())).ok_or_else(|| xml::invalid_xml("un nombre o atributo fuera del texto"))
}

/// Reads one receipt. See the crate docs for the rules and the errors.
pub fn read_cfdi(data: &[u8]) -> Result<CfdiFacts, DocError> {
    read_cfdi_con(data, CertificadosSat::incluidos())
}

/// [`read_cfdi`], with the receipt's certificate chained to the CA certificates `ca` (an
/// operator's current set) instead of the ones this crate carries.
pub fn read_cfdi_con(data: &[u8], ca: &CertificadosSat) -> Result<CfdiFacts, DocError> {
    let text = xml::document_text(data)?;
    let tree = read_tree(text)?;
    let mut facts = facts(&tree)?;
    facts.sello = crate::sello::check(&tree, &facts, ca);
    Ok(facts)
}

/// The streaming pass: the XML checked whole (safety, well-formedness), the sealed part of
/// the receipt kept as a [`Tree`].
pub(crate) fn read_tree(text: &str) -> Result<Tree<'_>, DocError> {
    let mut reader = Reader::from_str(text);
    let mut tree = Tree::default();
    let mut scopes = Scopes::default();
    let mut attrs: Vec<(&[u8], &[u8])> = Vec::with_capacity(32);
    // The open elements: their index in the tree, `None` inside the Addenda.
    let mut open: Vec<Option<usize>> = Vec::with_capacity(MAX_DEPTH);
    loop {
        match reader.read_event().map_err(xml::invalid_xml)? {
            Event::DocType(_) => return Err(xml::unsafe_xml("una declaración <!DOCTYPE>")),
            Event::GeneralRef(r) if !xml::is_allowed_reference(&r) => {
                return Err(xml::unsafe_xml("una referencia a una entidad"));
            }
            Event::Decl(d) => {
                if let Some(Ok(encoding)) = d.encoding() {
                    if !encoding.eq_ignore_ascii_case(b"utf-8") {
                        return Err(xml::invalid_xml(format_args!(
                            "declara la codificación \"{}\"; un CFDI va en UTF-8",
                            String::from_utf8_lossy(&encoding)
                        )));
                    }
                }
            }
            Event::Start(_) | Event::Empty(_) if open.len() >= MAX_DEPTH => return Err(xml::too_deep()),
            Event::Start(e) => {
                let kept = start(text, &e, &mut scopes, &mut attrs, &mut tree, &open)?;
                open.push(kept);
            }
            Event::Empty(e) => {
                start(text, &e, &mut scopes, &mut attrs, &mut tree, &open)?;
                scopes.leave(open.len() + 1);
            }
            Event::End(_) => {
                scopes.leave(open.len());
                open.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !open.is_empty() {
        // A cut-off file would otherwise give the facts of its first part.
        return Err(xml::invalid_xml("termina sin cerrar sus elementos (¿archivo incompleto?)"));
    }
    if tree.elems.is_empty() {
        return Err(xml::invalid_xml("no tiene ningún elemento"));
    }
    Ok(tree)
}

/// One start tag: its attributes scanned (and their references checked, read or not), its
/// namespace declarations put in scope, and, outside the Addenda, the element kept. Returns
/// the element's index in the tree, `None` when it is not kept.
fn start<'a>(
    text: &'a str,
    e: &BytesStart<'_>,
    scopes: &mut Scopes<'a>,
    attrs: &mut Vec<(&'a [u8], &'a [u8])>,
    tree: &mut Tree<'a>,
    open: &[Option<usize>],
) -> Result<Option<usize>, DocError> {
    let depth = open.len() + 1;
    let qname = within(text, e.name().into_inner())?;
    let raw = within(text, e.attributes_raw())?.as_bytes();
    attrs.clear();
    xml::scan_attributes(raw, attrs)?;
    let has_reference = memchr::memchr(b'&', raw).is_some();
    for &(name, value) in attrs.iter() {
        let prefix = if name == b"xmlns" { Some(&b""[..]) } else { name.strip_prefix(b"xmlns:") };
        if let Some(prefix) = prefix {
            scopes.0.push((depth, prefix, value));
        } else if has_reference {
            // Every value is checked for entities, whether or not it is read.
            xml::unescape(within(text, value)?)?;
        }
    }
    let (prefix, local) = match qname.find(':') {
        Some(i) => (&qname[..i], &qname[i + 1..]),
        None => ("", qname),
    };
    let uri = scopes.resolve(prefix.as_bytes());
    let ns = ns_of(uri);
    let parent = match open.last() {
        None => {
            if !tree.elems.is_empty() {
                return Err(xml::invalid_xml("tiene más de un elemento raíz"));
            }
            if ns != Ns::Cfdi || local != "Comprobante" {
                return Err(not_payroll("El XML no es un CFDI: su raíz no es cfdi:Comprobante."));
            }
            tree.cfdi4 = uri == Some(NS_CFDI4);
            None
        }
        // Inside the Addenda: checked above, never kept.
        Some(None) => return Ok(None),
        Some(Some(p)) => Some(*p),
    };
    if depth == 2 && ns == Ns::Cfdi && local == "Addenda" {
        return Ok(None);
    }
    let mut kept = Vec::with_capacity(attrs.len());
    for &(name, value) in attrs.iter() {
        if memchr::memchr(b':', name).is_none() && name != b"xmlns" {
            kept.push((within(text, name)?, xml::unescape(within(text, value)?)?));
        }
    }
    let index = tree.elems.len();
    tree.elems.push(Elem { ns, local, attrs: kept, children: Vec::new() });
    if let Some(p) = parent {
        tree.elems[p].children.push(index);
    }
    if index == 0 && tree.attr(0, "Version").is_none() {
        let found = tree.attr(0, "version").unwrap_or("sin versión").trim().to_owned();
        return Err(unsupported(format!(
            "CFDI versión {found}: solo se leen recibos CFDI 3.3 y 4.0 con el complemento Nómina 1.2."
        )));
    }
    Ok(Some(index))
}

fn required(value: Slot<'_>, field: &str, element: &str) -> Result<String, DocError> {
    match value {
        Some(v) if !v.is_empty() => Ok(v.into_owned()),
        _ => Err(DocError::new(
            DocErrorCode::DocumentInvalidXml,
            Some(field),
            format!("El recibo no trae el atributo obligatorio {element}@{field}."),
        )),
    }
}

/// A non-negative amount as the SAT writes it (`t_Importe`: digits, optionally a point and
/// up to 6 decimals), read exactly.
fn amount(value: Option<&str>, field: &str) -> Result<Decimal, DocError> {
    let Some(text) = value else { return Ok(Decimal::ZERO) };
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 18 || frac.len() > 6 || !digits(whole) || !digits(frac) || text.ends_with('.') {
        return Err(DocError::new(
            DocErrorCode::DocumentInvalidXml,
            Some(field),
            format!("El atributo {field} no es un importe válido: \"{text}\"."),
        ));
    }
    Decimal::from_str(text).map_err(|_| {
        DocError::new(DocErrorCode::DocumentInvalidXml, Some(field), format!("El atributo {field} no es un importe válido: \"{text}\"."))
    })
}

fn date(value: Slot<'_>, field: &str) -> Result<String, DocError> {
    let value = required(value, field, "nomina12:Nomina")?;
    match Date::parse(&value) {
        Some(_) => Ok(value),
        None => Err(DocError::new(
            DocErrorCode::DocumentInvalidXml,
            Some(field),
            format!("El atributo {field} no es una fecha AAAA-MM-DD válida: \"{value}\"."),
        )),
    }
}

/// Builds the facts from the sealed part of the receipt, checking what the schemas require.
fn facts(tree: &Tree<'_>) -> Result<CfdiFacts, DocError> {
    let version = tree.trimmed(0, "Version").map(Cow::into_owned).unwrap_or_default();
    if version != "3.3" && version != "4.0" {
        return Err(unsupported(format!(
            "CFDI versión {version}: solo se leen recibos CFDI 3.3 y 4.0 con el complemento Nómina 1.2."
        )));
    }
    let items: Vec<usize> = tree.complement_items().collect();
    if items.iter().any(|&i| tree.elems[i].ns == Ns::Nomina11 && tree.elems[i].local == "Nomina") {
        return Err(unsupported("Complemento Nómina 1.1: solo se lee la Nómina 1.2 (vigente desde 2017).".to_owned()));
    }
    let nominas: Vec<usize> =
        items.iter().copied().filter(|&i| tree.elems[i].ns == Ns::Nomina12 && tree.elems[i].local == "Nomina").collect();
    let Some(&first) = nominas.first() else {
        return Err(not_payroll(
            "El CFDI no trae el complemento de Nómina en cfdi:Complemento (la Addenda no la cubre el sello y no se lee): no es un recibo de nómina.",
        ));
    };
    let nomina_version = required(tree.trimmed(first, "Version"), "Version", "nomina12:Nomina")?;
    if nomina_version != "1.2" {
        return Err(unsupported(format!("Complemento Nómina {nomina_version}: solo se lee la Nómina 1.2.")));
    }
    let receptor = tree.kids(first, Ns::Nomina12, "Receptor").next();
    let from_receptor = |name: &str| receptor.and_then(|r| tree.trimmed(r, name));
    let mut total_percepciones = Decimal::ZERO;
    let mut total_deducciones = Decimal::ZERO;
    let mut total_otros_pagos = Decimal::ZERO;
    let mut deducciones = Vec::new();
    // A final settlement carries a second complement (ordinary + extraordinary): its totals
    // and deductions add to the first one's; dates, regime and worker come from the first, and
    // the receipt is extraordinary if either complement is (its total is not recurring pay).
    let mut tipo_nomina = required(tree.trimmed(first, "TipoNomina"), "TipoNomina", "nomina12:Nomina")?;
    for &n in &nominas {
        if n != first && tree.attr(n, "TipoNomina").map(str::trim) == Some("E") {
            tipo_nomina = "E".to_owned();
        }
        total_percepciones += amount(tree.attr(n, "TotalPercepciones").map(str::trim), "TotalPercepciones")?;
        total_deducciones += amount(tree.attr(n, "TotalDeducciones").map(str::trim), "TotalDeducciones")?;
        total_otros_pagos += amount(tree.attr(n, "TotalOtrosPagos").map(str::trim), "TotalOtrosPagos")?;
        for list in tree.kids(n, Ns::Nomina12, "Deducciones") {
            for d in tree.kids(list, Ns::Nomina12, "Deduccion") {
                let tipo = required(tree.trimmed(d, "TipoDeduccion"), "TipoDeduccion", "nomina12:Deduccion")?;
                let importe = required(tree.trimmed(d, "Importe"), "Importe", "nomina12:Deduccion")?;
                deducciones.push(Deduccion { tipo, importe: amount(Some(&importe), "Importe")? });
            }
        }
    }
    let num_dias_text = required(tree.trimmed(first, "NumDiasPagados"), "NumDiasPagados", "nomina12:Nomina")?;
    let num_dias_pagados = amount(Some(&num_dias_text), "NumDiasPagados")?;
    let fecha_inicio_rel_laboral = match from_receptor("FechaInicioRelLaboral") {
        Some(v) if !v.is_empty() => Some(date(Some(v), "FechaInicioRelLaboral")?),
        _ => None,
    };
    let fecha = required(tree.trimmed(0, "Fecha"), "Fecha", "cfdi:Comprobante")?;
    if Date::parse_prefix(&fecha).is_none() {
        return Err(DocError::new(
            DocErrorCode::DocumentInvalidXml,
            Some("Fecha"),
            format!("El atributo Fecha no es una fecha válida: \"{fecha}\"."),
        ));
    }
    let party = |local: &'static str| tree.kids(0, Ns::Cfdi, local).next().and_then(|e| tree.trimmed(e, "Rfc"));
    let timbre = items.iter().copied().find(|&i| tree.elems[i].ns == Ns::Tfd && tree.elems[i].local == "TimbreFiscalDigital");
    Ok(CfdiFacts {
        uuid: timbre.and_then(|t| tree.trimmed(t, "UUID")).filter(|u| !u.is_empty()).map(|u| u.to_ascii_uppercase()),
        version: Some(version),
        fecha: Some(fecha),
        emisor_rfc: required(party("Emisor"), "Rfc", "cfdi:Emisor")?.to_uppercase(),
        receptor_rfc: required(party("Receptor"), "Rfc", "cfdi:Receptor")?.to_uppercase(),
        receptor_curp: required(from_receptor("Curp"), "Curp", "nomina12:Receptor")?.to_uppercase(),
        nomina_version,
        tipo_nomina,
        fecha_pago: date(tree.trimmed(first, "FechaPago"), "FechaPago")?,
        fecha_inicial_pago: date(tree.trimmed(first, "FechaInicialPago"), "FechaInicialPago")?,
        fecha_final_pago: date(tree.trimmed(first, "FechaFinalPago"), "FechaFinalPago")?,
        num_dias_pagados,
        periodicidad_pago: required(from_receptor("PeriodicidadPago"), "PeriodicidadPago", "nomina12:Receptor")?,
        total_percepciones,
        total_deducciones,
        total_otros_pagos,
        neto: total_percepciones - total_deducciones + total_otros_pagos,
        fecha_inicio_rel_laboral,
        antiguedad: from_receptor("Antigüedad").filter(|a| !a.is_empty()).map(Cow::into_owned),
        clave_ent_fed: required(from_receptor("ClaveEntFed"), "ClaveEntFed", "nomina12:Receptor")?,
        tipo_regimen: required(from_receptor("TipoRegimen"), "TipoRegimen", "nomina12:Receptor")?,
        deducciones,
        sello: Sello::default(),
    })
}
