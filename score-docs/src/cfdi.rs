//! Reads a CFDI 3.3/4.0 payroll receipt (Nómina 1.2 complement) into [`CfdiFacts`].
//!
//! One streaming pass over quick-xml's events with namespaces resolved: the elements of
//! interest are recognised by namespace and local name (never by prefix), their attributes
//! collected, and everything else skipped. What makes a document payroll is the Nómina
//! complement, not `TipoDeComprobante` (the SAT's own demos say `I` or `P`). Totals are read
//! as stated; whether they add up is a check of the profile, not a reason to refuse.

use crate::error::{DocError, DocErrorCode};
use crate::facts::{CfdiFacts, Deduccion};
use crate::xml::{self, MAX_DEPTH};
use crate::date::Date;
use quick_xml::NsReader;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
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

fn ns_of(resolved: &ResolveResult<'_>) -> Ns {
    match resolved {
        ResolveResult::Bound(ns) => match ns.as_ref() {
            NS_CFDI3 | NS_CFDI4 => Ns::Cfdi,
            NS_NOMINA12 => Ns::Nomina12,
            NS_NOMINA11 => Ns::Nomina11,
            NS_TFD => Ns::Tfd,
            _ => Ns::Other,
        },
        _ => Ns::Other,
    }
}

/// The attributes collected from one Nómina complement.
#[derive(Default)]
struct Nomina {
    version: Option<String>,
    tipo_nomina: Option<String>,
    fecha_pago: Option<String>,
    fecha_inicial_pago: Option<String>,
    fecha_final_pago: Option<String>,
    num_dias_pagados: Option<String>,
    total_percepciones: Option<String>,
    total_deducciones: Option<String>,
    total_otros_pagos: Option<String>,
    curp: Option<String>,
    tipo_regimen: Option<String>,
    periodicidad_pago: Option<String>,
    clave_ent_fed: Option<String>,
    fecha_inicio_rel_laboral: Option<String>,
    antiguedad: Option<String>,
    deducciones: Vec<(Option<String>, Option<String>)>,
}

/// Everything collected in the pass.
#[derive(Default)]
struct Collected {
    version: Option<String>,
    fecha: Option<String>,
    emisor_rfc: Option<String>,
    receptor_rfc: Option<String>,
    uuid: Option<String>,
    nominas: Vec<Nomina>,
}

/// Calls `f(local_name, value)` for each attribute without a namespace prefix (CFDI
/// attributes have none), after checking every attribute's value for entities.
fn each_attribute(e: &BytesStart<'_>, mut f: impl FnMut(&[u8], Cow<'_, str>)) -> Result<(), DocError> {
    for attr in e.attributes() {
        let attr = attr.map_err(|err| xml::invalid_xml(format_args!("atributo mal formado ({err})")))?;
        let value = xml::unescape(&attr.value)?;
        if attr.key.prefix().is_none() {
            f(attr.key.local_name().into_inner(), value);
        }
    }
    Ok(())
}

fn keep(slot: &mut Option<String>, value: Cow<'_, str>) {
    *slot = Some(value.trim().to_owned());
}

fn not_payroll(message: &str) -> DocError {
    DocError::new(DocErrorCode::DocumentNotPayroll, None, message)
}

fn unsupported(message: String) -> DocError {
    DocError::new(DocErrorCode::DocumentUnsupportedVersion, None, message)
}

/// Reads one receipt. See the crate docs for the rules and the errors.
pub fn read_cfdi(data: &[u8]) -> Result<CfdiFacts, DocError> {
    let text = xml::document_text(data)?;
    let mut reader = NsReader::from_reader(text.as_bytes());
    let mut got = Collected::default();
    let mut depth = 0usize;
    let mut root_seen = false;
    loop {
        let (resolved, event) = reader.read_resolved_event().map_err(xml::invalid_xml)?;
        let ns = ns_of(&resolved);
        match event {
            Event::DocType(_) => return Err(xml::unsafe_xml("una declaración <!DOCTYPE>")),
            Event::GeneralRef(r) if !xml::is_allowed_reference(&r) => {
                return Err(xml::unsafe_xml("una referencia a una entidad"));
            }
            Event::Start(_) | Event::Empty(_) if depth >= MAX_DEPTH => return Err(xml::too_deep()),
            Event::Start(e) => {
                depth += 1;
                element(&mut got, ns, depth, &mut root_seen, &e)?;
            }
            Event::Empty(e) => {
                element(&mut got, ns, depth + 1, &mut root_seen, &e)?;
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Eof => break,
            _ => {}
        }
    }
    if !root_seen {
        return Err(xml::invalid_xml("no tiene ningún elemento"));
    }
    facts(got)
}

/// Records the attributes of one element of interest.
fn element(got: &mut Collected, ns: Ns, depth: usize, root_seen: &mut bool, e: &BytesStart<'_>) -> Result<(), DocError> {
    let local = e.local_name();
    let local = local.as_ref();
    if depth == 1 {
        if *root_seen {
            return Err(xml::invalid_xml("tiene más de un elemento raíz"));
        }
        *root_seen = true;
        if ns != Ns::Cfdi || local != b"Comprobante" {
            return Err(not_payroll("El XML no es un CFDI: su raíz no es cfdi:Comprobante."));
        }
        let mut legacy_version = None;
        each_attribute(e, |name, value| match name {
            b"Version" => keep(&mut got.version, value),
            b"version" => keep(&mut legacy_version, value),
            b"Fecha" => keep(&mut got.fecha, value),
            _ => {}
        })?;
        if got.version.is_none() {
            let found = legacy_version.unwrap_or_else(|| "sin versión".to_owned());
            return Err(unsupported(format!(
                "CFDI versión {found}: solo se leen recibos CFDI 3.3 y 4.0 con el complemento Nómina 1.2."
            )));
        }
        return Ok(());
    }
    match (ns, local) {
        (Ns::Cfdi, b"Emisor") if depth == 2 => {
            each_attribute(e, |name, value| if name == b"Rfc" { keep(&mut got.emisor_rfc, value) })
        }
        (Ns::Cfdi, b"Receptor") if depth == 2 => {
            each_attribute(e, |name, value| if name == b"Rfc" { keep(&mut got.receptor_rfc, value) })
        }
        (Ns::Tfd, b"TimbreFiscalDigital") => {
            each_attribute(e, |name, value| if name == b"UUID" { keep(&mut got.uuid, value) })
        }
        (Ns::Nomina11, b"Nomina") => Err(unsupported(
            "Complemento Nómina 1.1: solo se lee la Nómina 1.2 (vigente desde 2017).".to_owned(),
        )),
        (Ns::Nomina12, b"Nomina") => {
            let mut n = Nomina::default();
            each_attribute(e, |name, value| match name {
                b"Version" => keep(&mut n.version, value),
                b"TipoNomina" => keep(&mut n.tipo_nomina, value),
                b"FechaPago" => keep(&mut n.fecha_pago, value),
                b"FechaInicialPago" => keep(&mut n.fecha_inicial_pago, value),
                b"FechaFinalPago" => keep(&mut n.fecha_final_pago, value),
                b"NumDiasPagados" => keep(&mut n.num_dias_pagados, value),
                b"TotalPercepciones" => keep(&mut n.total_percepciones, value),
                b"TotalDeducciones" => keep(&mut n.total_deducciones, value),
                b"TotalOtrosPagos" => keep(&mut n.total_otros_pagos, value),
                _ => {}
            })?;
            got.nominas.push(n);
            Ok(())
        }
        (Ns::Nomina12, b"Receptor") => {
            let Some(n) = got.nominas.last_mut() else { return Ok(()) };
            each_attribute(e, |name, value| match name {
                b"Curp" => keep(&mut n.curp, value),
                b"TipoRegimen" => keep(&mut n.tipo_regimen, value),
                b"PeriodicidadPago" => keep(&mut n.periodicidad_pago, value),
                b"ClaveEntFed" => keep(&mut n.clave_ent_fed, value),
                b"FechaInicioRelLaboral" => keep(&mut n.fecha_inicio_rel_laboral, value),
                ANTIGUEDAD => keep(&mut n.antiguedad, value),
                _ => {}
            })
        }
        (Ns::Nomina12, b"Deduccion") => {
            let Some(n) = got.nominas.last_mut() else { return Ok(()) };
            let (mut tipo, mut importe) = (None, None);
            each_attribute(e, |name, value| match name {
                b"TipoDeduccion" => keep(&mut tipo, value),
                b"Importe" => keep(&mut importe, value),
                _ => {}
            })?;
            n.deducciones.push((tipo, importe));
            Ok(())
        }
        // Every other element still has its attribute values checked for entities.
        _ => each_attribute(e, |_, _| {}),
    }
}

fn required(value: Option<String>, field: &str, element: &str) -> Result<String, DocError> {
    match value {
        Some(v) if !v.is_empty() => Ok(v),
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

fn date(value: Option<String>, field: &str) -> Result<String, DocError> {
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
fn facts(got: Collected) -> Result<CfdiFacts, DocError> {
    let version = got.version.unwrap_or_default();
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
    let mut add_deductions = |list: Vec<(Option<String>, Option<String>)>| -> Result<(), DocError> {
        for (tipo, importe) in list {
            let tipo = required(tipo, "TipoDeduccion", "nomina12:Deduccion")?;
            let importe = amount(Some(required(importe, "Importe", "nomina12:Deduccion")?.as_str()), "Importe")?;
            deducciones.push(Deduccion { tipo, importe });
        }
        Ok(())
    };
    add_deductions(first.deducciones)?;
    // A final settlement carries a second complement (ordinary + extraordinary): its totals
    // and deductions add to the first one's; dates, regime and worker come from the first.
    for other in nominas {
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
        tipo_nomina: required(first.tipo_nomina, "TipoNomina", "nomina12:Nomina")?,
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
        antiguedad: first.antiguedad.filter(|a| !a.is_empty()),
        clave_ent_fed: required(first.clave_ent_fed, "ClaveEntFed", "nomina12:Receptor")?,
        tipo_regimen: required(first.tipo_regimen, "TipoRegimen", "nomina12:Receptor")?,
        deducciones,
    })
}
