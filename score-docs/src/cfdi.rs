//! Reads a CFDI 3.3/4.0 payroll receipt (Nómina 1.2 complement) into [`CfdiFacts`].
//!
//! One streaming pass over quick-xml's events with namespaces resolved: the elements of
//! interest are recognised by namespace and local name (never by prefix), their attributes
//! collected, and everything else skipped. What makes a document payroll is the Nómina
//! complement, not `TipoDeComprobante` (the SAT's own demos say `I` or `P`). Totals are read
//! as stated; whether they add up is a check of the profile, not a reason to refuse.

use crate::date::Date;
use crate::error::{DocError, DocErrorCode};
use crate::facts::{CfdiFacts, Deduccion};
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
/// `Antigüedad` in UTF-8 (a byte-string literal cannot hold the ü).
const ANTIGUEDAD: &[u8] = "Antigüedad".as_bytes();

/// Which namespace an element is in, as far as this reader cares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ns {
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

type Slot<'a> = Option<Cow<'a, str>>;

/// The attributes collected from one Nómina complement.
#[derive(Default)]
struct Nomina<'a> {
    version: Slot<'a>,
    tipo_nomina: Slot<'a>,
    fecha_pago: Slot<'a>,
    fecha_inicial_pago: Slot<'a>,
    fecha_final_pago: Slot<'a>,
    num_dias_pagados: Slot<'a>,
    total_percepciones: Slot<'a>,
    total_deducciones: Slot<'a>,
    total_otros_pagos: Slot<'a>,
    curp: Slot<'a>,
    tipo_regimen: Slot<'a>,
    periodicidad_pago: Slot<'a>,
    clave_ent_fed: Slot<'a>,
    fecha_inicio_rel_laboral: Slot<'a>,
    antiguedad: Slot<'a>,
    deducciones: Vec<(Slot<'a>, Slot<'a>)>,
}

/// Everything collected in the pass, borrowed from the document where no reference had to be
/// replaced.
#[derive(Default)]
struct Collected<'a> {
    version: Slot<'a>,
    fecha: Slot<'a>,
    emisor_rfc: Slot<'a>,
    receptor_rfc: Slot<'a>,
    uuid: Slot<'a>,
    nominas: Vec<Nomina<'a>>,
}

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
    let text = xml::document_text(data)?;
    let mut reader = Reader::from_str(text);
    let mut got = Collected::default();
    let mut scopes = Scopes::default();
    let mut attrs: Vec<(&[u8], &[u8])> = Vec::with_capacity(32);
    let mut depth = 0usize;
    let mut root_seen = false;
    loop {
        match reader.read_event().map_err(xml::invalid_xml)? {
            Event::DocType(_) => return Err(xml::unsafe_xml("una declaración <!DOCTYPE>")),
            Event::GeneralRef(r) if !xml::is_allowed_reference(&r) => {
                return Err(xml::unsafe_xml("una referencia a una entidad"));
            }
            Event::Start(_) | Event::Empty(_) if depth >= MAX_DEPTH => return Err(xml::too_deep()),
            Event::Start(e) => {
                depth += 1;
                start(text, &e, depth, &mut scopes, &mut attrs, &mut got, &mut root_seen)?;
            }
            Event::Empty(e) => {
                start(text, &e, depth + 1, &mut scopes, &mut attrs, &mut got, &mut root_seen)?;
                scopes.leave(depth + 1);
            }
            Event::End(_) => {
                scopes.leave(depth);
                depth = depth.saturating_sub(1);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if depth != 0 {
        // A cut-off file would otherwise give the facts of its first part.
        return Err(xml::invalid_xml("termina sin cerrar sus elementos (¿archivo incompleto?)"));
    }
    if !root_seen {
        return Err(xml::invalid_xml("no tiene ningún elemento"));
    }
    facts(got)
}

/// One start tag: its attributes scanned, its namespace declarations put in scope, its name
/// resolved, and the attributes of interest kept.
fn start<'a>(
    text: &'a str,
    e: &BytesStart<'_>,
    depth: usize,
    scopes: &mut Scopes<'a>,
    attrs: &mut Vec<(&'a [u8], &'a [u8])>,
    got: &mut Collected<'a>,
    root_seen: &mut bool,
) -> Result<(), DocError> {
    let qname = within(text, e.name().into_inner())?.as_bytes();
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
    let (prefix, local) = match memchr::memchr(b':', qname) {
        Some(i) => (&qname[..i], &qname[i + 1..]),
        None => (&b""[..], qname),
    };
    let ns = ns_of(scopes.resolve(prefix));
    element(text, got, ns, local, depth, root_seen, attrs)
}

/// Calls `f(name, value)` for each attribute without a namespace prefix (CFDI attributes have
/// none), with references replaced.
fn each_attribute<'a>(
    text: &'a str,
    attrs: &[(&'a [u8], &'a [u8])],
    mut f: impl FnMut(&[u8], Cow<'a, str>) -> Result<(), DocError>,
) -> Result<(), DocError> {
    for &(name, value) in attrs {
        if memchr::memchr(b':', name).is_none() && name != b"xmlns" {
            f(name, xml::unescape(within(text, value)?)?)?;
        }
    }
    Ok(())
}

/// Keeps a value, trimmed (the scanner already refused the same attribute twice).
fn keep<'a>(slot: &mut Slot<'a>, value: Cow<'a, str>) -> Result<(), DocError> {
    *slot = Some(match value {
        Cow::Borrowed(v) => Cow::Borrowed(v.trim()),
        Cow::Owned(v) => Cow::Owned(v.trim().to_owned()),
    });
    Ok(())
}

/// Records the attributes of one element of interest.
fn element<'a>(
    text: &'a str,
    got: &mut Collected<'a>,
    ns: Ns,
    local: &[u8],
    depth: usize,
    root_seen: &mut bool,
    attrs: &[(&'a [u8], &'a [u8])],
) -> Result<(), DocError> {
    if depth == 1 {
        if *root_seen {
            return Err(xml::invalid_xml("tiene más de un elemento raíz"));
        }
        *root_seen = true;
        if ns != Ns::Cfdi || local != b"Comprobante" {
            return Err(not_payroll("El XML no es un CFDI: su raíz no es cfdi:Comprobante."));
        }
        let mut legacy_version = None;
        each_attribute(text, attrs, |name, value| match name {
            b"Version" => keep(&mut got.version, value),
            b"version" => keep(&mut legacy_version, value),
            b"Fecha" => keep(&mut got.fecha, value),
            _ => Ok(()),
        })?;
        if got.version.is_none() {
            let found = legacy_version.unwrap_or(Cow::Borrowed("sin versión"));
            return Err(unsupported(format!(
                "CFDI versión {found}: solo se leen recibos CFDI 3.3 y 4.0 con el complemento Nómina 1.2."
            )));
        }
        return Ok(());
    }
    match (ns, local) {
        (Ns::Cfdi, b"Emisor") if depth == 2 => {
            each_attribute(text, attrs, |name, value| if name == b"Rfc" { keep(&mut got.emisor_rfc, value) } else { Ok(()) })
        }
        (Ns::Cfdi, b"Receptor") if depth == 2 => {
            each_attribute(text, attrs, |name, value| if name == b"Rfc" { keep(&mut got.receptor_rfc, value) } else { Ok(()) })
        }
        (Ns::Tfd, b"TimbreFiscalDigital") => {
            each_attribute(text, attrs, |name, value| if name == b"UUID" { keep(&mut got.uuid, value) } else { Ok(()) })
        }
        (Ns::Nomina11, b"Nomina") => Err(unsupported(
            "Complemento Nómina 1.1: solo se lee la Nómina 1.2 (vigente desde 2017).".to_owned(),
        )),
        (Ns::Nomina12, b"Nomina") => {
            let mut n = Nomina::default();
            each_attribute(text, attrs, |name, value| match name {
                b"Version" => keep(&mut n.version, value),
                b"TipoNomina" => keep(&mut n.tipo_nomina, value),
                b"FechaPago" => keep(&mut n.fecha_pago, value),
                b"FechaInicialPago" => keep(&mut n.fecha_inicial_pago, value),
                b"FechaFinalPago" => keep(&mut n.fecha_final_pago, value),
                b"NumDiasPagados" => keep(&mut n.num_dias_pagados, value),
                b"TotalPercepciones" => keep(&mut n.total_percepciones, value),
                b"TotalDeducciones" => keep(&mut n.total_deducciones, value),
                b"TotalOtrosPagos" => keep(&mut n.total_otros_pagos, value),
                _ => Ok(()),
            })?;
            got.nominas.push(n);
            Ok(())
        }
        (Ns::Nomina12, b"Receptor") => {
            let Some(n) = got.nominas.last_mut() else { return Ok(()) };
            each_attribute(text, attrs, |name, value| match name {
                b"Curp" => keep(&mut n.curp, value),
                b"TipoRegimen" => keep(&mut n.tipo_regimen, value),
                b"PeriodicidadPago" => keep(&mut n.periodicidad_pago, value),
                b"ClaveEntFed" => keep(&mut n.clave_ent_fed, value),
                b"FechaInicioRelLaboral" => keep(&mut n.fecha_inicio_rel_laboral, value),
                ANTIGUEDAD => keep(&mut n.antiguedad, value),
                _ => Ok(()),
            })
        }
        (Ns::Nomina12, b"Deduccion") => {
            let Some(n) = got.nominas.last_mut() else { return Ok(()) };
            let (mut tipo, mut importe) = (None, None);
            each_attribute(text, attrs, |name, value| match name {
                b"TipoDeduccion" => keep(&mut tipo, value),
                b"Importe" => keep(&mut importe, value),
                _ => Ok(()),
            })?;
            n.deducciones.push((tipo, importe));
            Ok(())
        }
        _ => Ok(()),
    }
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

/// Builds the facts from what the pass collected, checking what the schemas require.
fn facts(got: Collected<'_>) -> Result<CfdiFacts, DocError> {
    let version = got.version.map(Cow::into_owned).unwrap_or_default();
    if version != "3.3" && version != "4.0" {
        return Err(unsupported(format!(
            "CFDI versión {version}: solo se leen recibos CFDI 3.3 y 4.0 con el complemento Nómina 1.2."
        )));
    }
    let mut nominas = got.nominas.into_iter();
    let Some(first) = nominas.next() else {
        return Err(not_payroll("El CFDI no trae el complemento de Nómina: no es un recibo de nómina."));
    };
    let nomina_version = required(first.version, "Version", "nomina12:Nomina")?;
    if nomina_version != "1.2" {
        return Err(unsupported(format!("Complemento Nómina {nomina_version}: solo se lee la Nómina 1.2.")));
    }
    let mut total_percepciones = amount(first.total_percepciones.as_deref(), "TotalPercepciones")?;
    let mut total_deducciones = amount(first.total_deducciones.as_deref(), "TotalDeducciones")?;
    let mut total_otros_pagos = amount(first.total_otros_pagos.as_deref(), "TotalOtrosPagos")?;
    let mut deducciones = Vec::with_capacity(first.deducciones.len());
    let mut add_deductions = |list: Vec<(Slot<'_>, Slot<'_>)>| -> Result<(), DocError> {
        for (tipo, importe) in list {
            let tipo = required(tipo, "TipoDeduccion", "nomina12:Deduccion")?;
            let importe = amount(Some(required(importe, "Importe", "nomina12:Deduccion")?.as_str()), "Importe")?;
            deducciones.push(Deduccion { tipo, importe });
        }
        Ok(())
    };
    add_deductions(first.deducciones)?;
    // A final settlement carries a second complement (ordinary + extraordinary): its totals
    // and deductions add to the first one's; dates, regime and worker come from the first, and
    // the receipt is extraordinary if either complement is (its total is not recurring pay).
    let mut tipo_nomina = required(first.tipo_nomina, "TipoNomina", "nomina12:Nomina")?;
    for other in nominas {
        if other.tipo_nomina.as_deref() == Some("E") {
            tipo_nomina = "E".to_owned();
        }
        total_percepciones += amount(other.total_percepciones.as_deref(), "TotalPercepciones")?;
        total_deducciones += amount(other.total_deducciones.as_deref(), "TotalDeducciones")?;
        total_otros_pagos += amount(other.total_otros_pagos.as_deref(), "TotalOtrosPagos")?;
        add_deductions(other.deducciones)?;
    }
    let num_dias_text = required(first.num_dias_pagados, "NumDiasPagados", "nomina12:Nomina")?;
    let num_dias_pagados = amount(Some(&num_dias_text), "NumDiasPagados")?;
    let fecha_inicio_rel_laboral = match first.fecha_inicio_rel_laboral {
        Some(v) if !v.is_empty() => Some(date(Some(v), "FechaInicioRelLaboral")?),
        _ => None,
    };
    let fecha = required(got.fecha, "Fecha", "cfdi:Comprobante")?;
    if Date::parse_prefix(&fecha).is_none() {
        return Err(DocError::new(
            DocErrorCode::DocumentInvalidXml,
            Some("Fecha"),
            format!("El atributo Fecha no es una fecha válida: \"{fecha}\"."),
        ));
    }
    Ok(CfdiFacts {
        uuid: got.uuid.filter(|u| !u.is_empty()).map(|u| u.to_ascii_uppercase()),
        version,
        fecha,
        emisor_rfc: required(got.emisor_rfc, "Rfc", "cfdi:Emisor")?.to_uppercase(),
        receptor_rfc: required(got.receptor_rfc, "Rfc", "cfdi:Receptor")?.to_uppercase(),
        receptor_curp: required(first.curp, "Curp", "nomina12:Receptor")?.to_uppercase(),
        nomina_version,
        tipo_nomina,
        fecha_pago: date(first.fecha_pago, "FechaPago")?,
        fecha_inicial_pago: date(first.fecha_inicial_pago, "FechaInicialPago")?,
        fecha_final_pago: date(first.fecha_final_pago, "FechaFinalPago")?,
        num_dias_pagados,
        periodicidad_pago: required(first.periodicidad_pago, "PeriodicidadPago", "nomina12:Receptor")?,
        total_percepciones,
        total_deducciones,
        total_otros_pagos,
        neto: total_percepciones - total_deducciones + total_otros_pagos,
        fecha_inicio_rel_laboral,
        antiguedad: first.antiguedad.filter(|a| !a.is_empty()).map(Cow::into_owned),
        clave_ent_fed: required(first.clave_ent_fed, "ClaveEntFed", "nomina12:Receptor")?,
        tipo_regimen: required(first.tipo_regimen, "TipoRegimen", "nomina12:Receptor")?,
        deducciones,
    })
}
