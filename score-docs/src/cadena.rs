//! The cadena original of a CFDI 3.3 or 4.0 with the Nómina 1.2 complement: the text the
//! issuer's `Sello` signs, built as the SAT's XSLT builds it (`cadenaoriginal_3_3.xslt`,
//! `cadenaoriginal_4_0.xslt` and `nomina12.xslt`, published at
//! http://www.sat.gob.mx/sitio_internet/cfd/).
//!
//! Those stylesheets visit a fixed list of attributes per element, in their order (not the
//! document's), and a fixed list of child elements; each value is written as `|` followed by
//! the value with XPath's `normalize-space` applied (leading and trailing spaces, tabs, CR and
//! LF removed, inner runs collapsed to one space). A required attribute (`Requerido`) is
//! written even when absent (as a bare `|`); an optional one (`Opcional`) only when present,
//! even if empty. The whole is `|` + … + `||`. The Addenda is not visited (no seal covers it),
//! nor is the stamp (`tfd:TimbreFiscalDigital`, which has no text). Any other complement has
//! its own stylesheet, which this reader does not carry: such a receipt's cadena is not built
//! and its seal is reported invalid rather than guessed.

use crate::cfdi::{Ns, Tree};

/// One attribute the stylesheet visits: its name and whether it is `Requerido`.
type Attr = (&'static str, bool);
const R: bool = true;
const O: bool = false;

/// What the stylesheet does with an element: its attributes, then its children.
struct Rule {
    attrs: &'static [Attr],
    kids: &'static [Kid],
}

/// A child visit: the path of local names below the element (`Impuestos/Traslados/Traslado`
/// is three steps), or every descendant with that name when `any_depth` (XPath `.//`).
/// `rule` is `None` for a part whose stylesheet this reader does not carry
/// (`ComplementoConcepto`'s contents): any occurrence makes the cadena unbuildable.
struct Kid {
    path: &'static [&'static str],
    any_depth: bool,
    rule: Option<&'static Rule>,
}

const fn kid(path: &'static [&'static str], rule: &'static Rule) -> Kid {
    Kid { path, any_depth: false, rule: Some(rule) }
}

const fn leaf(attrs: &'static [Attr]) -> Rule {
    Rule { attrs, kids: &[] }
}

// CFDI 3.3 and 4.0 (cadenaoriginal_3_3.xslt, cadenaoriginal_4_0.xslt).
const RELACIONADO: Rule = leaf(&[("UUID", R)]);
const RELACIONADOS: Rule = Rule { attrs: &[("TipoRelacion", R)], kids: &[kid(&["CfdiRelacionado"], &RELACIONADO)] };
const ADUANERA: Rule = leaf(&[("NumeroPedimento", R)]);
const PREDIAL: Rule = leaf(&[("Numero", R)]);
const PARTE: Rule = Rule {
    attrs: &[
        ("ClaveProdServ", R),
        ("NoIdentificacion", O),
        ("Cantidad", R),
        ("Unidad", O),
        ("Descripcion", R),
        ("ValorUnitario", O),
        ("Importe", O),
    ],
    kids: &[Kid { path: &["InformacionAduanera"], any_depth: true, rule: Some(&ADUANERA) }],
};
const RETENCION_CONCEPTO: Rule = leaf(&[("Base", R), ("Impuesto", R), ("TipoFactor", R), ("TasaOCuota", R), ("Importe", R)]);
const TRASLADO_CONCEPTO: Rule = leaf(&[("Base", R), ("Impuesto", R), ("TipoFactor", R), ("TasaOCuota", O), ("Importe", O)]);
const RETENCION: Rule = leaf(&[("Impuesto", R), ("Importe", R)]);

/// `Concepto`'s attributes up to `Descuento` (CFDI 4.0 adds `ObjetoImp` after them).
const CONCEPTO: [Attr; 9] = [
    ("ClaveProdServ", R),
    ("NoIdentificacion", O),
    ("Cantidad", R),
    ("ClaveUnidad", R),
    ("Unidad", O),
    ("Descripcion", R),
    ("ValorUnitario", R),
    ("Importe", R),
    ("Descuento", O),
];
/// What both versions visit below a `Concepto` after its taxes (and 4.0's third parties).
const CONCEPTO_RESTO: Rule = Rule {
    attrs: &[],
    kids: &[
        kid(&["InformacionAduanera"], &ADUANERA),
        kid(&["CuentaPredial"], &PREDIAL),
        UNSUPPORTED,
        Kid { path: &["Parte"], any_depth: true, rule: Some(&PARTE) },
    ],
};
const TRASLADOS_CONCEPTO: Kid = kid(&["Impuestos", "Traslados", "Traslado"], &TRASLADO_CONCEPTO);
const RETENCIONES_CONCEPTO: Kid = kid(&["Impuestos", "Retenciones", "Retencion"], &RETENCION_CONCEPTO);
/// `Comprobante`'s attributes up to `TipoDeComprobante`, and after it (CFDI 4.0 puts
/// `Exportacion` between them).
const COMPROBANTE: [Attr; 13] = [
    ("Version", R),
    ("Serie", O),
    ("Folio", O),
    ("Fecha", R),
    ("FormaPago", O),
    ("NoCertificado", R),
    ("CondicionesDePago", O),
    ("SubTotal", R),
    ("Descuento", O),
    ("Moneda", R),
    ("TipoCambio", O),
    ("Total", R),
    ("TipoDeComprobante", R),
];
const COMPROBANTE_FIN: Rule = leaf(&[("MetodoPago", O), ("LugarExpedicion", R), ("Confirmacion", O)]);
const TOTAL_RETENIDOS: Rule = leaf(&[("TotalImpuestosRetenidos", O)]);
const TOTAL_TRASLADADOS: Rule = leaf(&[("TotalImpuestosTrasladados", O)]);

const EMISOR_33: Rule = leaf(&[("Rfc", R), ("Nombre", O), ("RegimenFiscal", R)]);
const RECEPTOR_33: Rule = leaf(&[("Rfc", R), ("Nombre", O), ("ResidenciaFiscal", O), ("NumRegIdTrib", O), ("UsoCFDI", R)]);
const CONCEPTO_33: Rule =
    Rule { attrs: &CONCEPTO, kids: &[TRASLADOS_CONCEPTO, RETENCIONES_CONCEPTO, kid(&[], &CONCEPTO_RESTO)] };
const IMPUESTOS_33: Rule = Rule {
    attrs: &[],
    kids: &[
        kid(&["Retenciones", "Retencion"], &RETENCION),
        kid(&[], &TOTAL_RETENIDOS),
        kid(&["Traslados", "Traslado"], &leaf(&[("Impuesto", R), ("TipoFactor", R), ("TasaOCuota", R), ("Importe", R)])),
        kid(&[], &TOTAL_TRASLADADOS),
    ],
};
const COMPROBANTE_33: Rule = Rule {
    attrs: &COMPROBANTE,
    kids: &[
        kid(&[], &COMPROBANTE_FIN),
        kid(&["CfdiRelacionados"], &RELACIONADOS),
        kid(&["Emisor"], &EMISOR_33),
        kid(&["Receptor"], &RECEPTOR_33),
        kid(&["Conceptos", "Concepto"], &CONCEPTO_33),
        kid(&["Impuestos"], &IMPUESTOS_33),
    ],
};

const EMISOR_40: Rule = leaf(&[("Rfc", R), ("Nombre", R), ("RegimenFiscal", R), ("FacAtrAdquirente", O)]);
const RECEPTOR_40: Rule = leaf(&[
    ("Rfc", R),
    ("Nombre", R),
    ("DomicilioFiscalReceptor", R),
    ("ResidenciaFiscal", O),
    ("NumRegIdTrib", O),
    ("RegimenFiscalReceptor", R),
    ("UsoCFDI", R),
]);
const TERCEROS: Rule = leaf(&[
    ("RfcACuentaTerceros", R),
    ("NombreACuentaTerceros", R),
    ("RegimenFiscalACuentaTerceros", R),
    ("DomicilioFiscalACuentaTerceros", R),
]);
const CONCEPTO_40: Rule = Rule {
    attrs: &CONCEPTO,
    kids: &[
        kid(&[], &leaf(&[("ObjetoImp", R)])),
        TRASLADOS_CONCEPTO,
        RETENCIONES_CONCEPTO,
        kid(&["ACuentaTerceros"], &TERCEROS),
        kid(&[], &CONCEPTO_RESTO),
    ],
};
const IMPUESTOS_40: Rule = Rule {
    attrs: &[],
    kids: &[
        kid(&["Retenciones", "Retencion"], &RETENCION),
        kid(&[], &TOTAL_RETENIDOS),
        kid(&["Traslados", "Traslado"], &TRASLADO_CONCEPTO),
        kid(&[], &TOTAL_TRASLADADOS),
    ],
};
const COMPROBANTE_40: Rule = Rule {
    attrs: &COMPROBANTE,
    kids: &[
        kid(&[], &leaf(&[("Exportacion", R)])),
        kid(&[], &COMPROBANTE_FIN),
        kid(&["InformacionGlobal"], &leaf(&[("Periodicidad", R), ("Meses", R), ("Año", R)])),
        kid(&["CfdiRelacionados"], &RELACIONADOS),
        kid(&["Emisor"], &EMISOR_40),
        kid(&["Receptor"], &RECEPTOR_40),
        kid(&["Conceptos", "Concepto"], &CONCEPTO_40),
        kid(&["Impuestos"], &IMPUESTOS_40),
    ],
};

const UNSUPPORTED: Kid = Kid { path: &["ComplementoConcepto"], any_depth: false, rule: None };

// Nómina 1.2 (nomina12.xslt).
const NOMINA: Rule = Rule {
    attrs: &[
        ("Version", R),
        ("TipoNomina", R),
        ("FechaPago", R),
        ("FechaInicialPago", R),
        ("FechaFinalPago", R),
        ("NumDiasPagados", R),
        ("TotalPercepciones", O),
        ("TotalDeducciones", O),
        ("TotalOtrosPagos", O),
    ],
    kids: &[
        kid(&["Emisor"], &NOMINA_EMISOR),
        kid(&["Receptor"], &NOMINA_RECEPTOR),
        kid(&["Percepciones"], &PERCEPCIONES),
        kid(&["Deducciones"], &DEDUCCIONES),
        kid(&["OtrosPagos", "OtroPago"], &OTRO_PAGO),
        kid(&["Incapacidades", "Incapacidad"], &leaf(&[("DiasIncapacidad", R), ("TipoIncapacidad", R), ("ImporteMonetario", O)])),
    ],
};
const NOMINA_EMISOR: Rule = Rule {
    attrs: &[("Curp", O), ("RegistroPatronal", O), ("RfcPatronOrigen", O)],
    kids: &[kid(&["EntidadSNCF"], &leaf(&[("OrigenRecurso", R), ("MontoRecursoPropio", O)]))],
};
const NOMINA_RECEPTOR: Rule = Rule {
    attrs: &[
        ("Curp", R),
        ("NumSeguridadSocial", O),
        ("FechaInicioRelLaboral", O),
        ("Antigüedad", O),
        ("TipoContrato", R),
        ("Sindicalizado", O),
        ("TipoJornada", O),
        ("TipoRegimen", R),
        ("NumEmpleado", R),
        ("Departamento", O),
        ("Puesto", O),
        ("RiesgoPuesto", O),
        ("PeriodicidadPago", R),
        ("Banco", O),
        ("CuentaBancaria", O),
        ("SalarioBaseCotApor", O),
        ("SalarioDiarioIntegrado", O),
        ("ClaveEntFed", R),
    ],
    kids: &[kid(&["SubContratacion"], &leaf(&[("RfcLabora", R), ("PorcentajeTiempo", R)]))],
};
const PERCEPCIONES: Rule = Rule {
    attrs: &[
        ("TotalSueldos", O),
        ("TotalSeparacionIndemnizacion", O),
        ("TotalJubilacionPensionRetiro", O),
        ("TotalGravado", R),
        ("TotalExento", R),
    ],
    kids: &[
        kid(&["Percepcion"], &PERCEPCION),
        kid(
            &["JubilacionPensionRetiro"],
            &leaf(&[
                ("TotalUnaExhibicion", O),
                ("TotalParcialidad", O),
                ("MontoDiario", O),
                ("IngresoAcumulable", R),
                ("IngresoNoAcumulable", R),
            ]),
        ),
        kid(
            &["SeparacionIndemnizacion"],
            &leaf(&[
                ("TotalPagado", R),
                ("NumAñosServicio", R),
                ("UltimoSueldoMensOrd", R),
                ("IngresoAcumulable", R),
                ("IngresoNoAcumulable", R),
            ]),
        ),
    ],
};
const PERCEPCION: Rule = Rule {
    attrs: &[("TipoPercepcion", R), ("Clave", R), ("Concepto", R), ("ImporteGravado", R), ("ImporteExento", R)],
    kids: &[
        kid(&["AccionesOTitulos"], &leaf(&[("ValorMercado", R), ("PrecioAlOtorgarse", R)])),
        kid(&["HorasExtra"], &leaf(&[("Dias", R), ("TipoHoras", R), ("HorasExtra", R), ("ImportePagado", R)])),
    ],
};
const DEDUCCIONES: Rule = Rule {
    attrs: &[("TotalOtrasDeducciones", O), ("TotalImpuestosRetenidos", O)],
    kids: &[kid(&["Deduccion"], &leaf(&[("TipoDeduccion", R), ("Clave", R), ("Concepto", R), ("Importe", R)]))],
};
const OTRO_PAGO: Rule = Rule {
    attrs: &[("TipoOtroPago", R), ("Clave", R), ("Concepto", R), ("Importe", R)],
    kids: &[
        kid(&["SubsidioAlEmpleo"], &leaf(&[("SubsidioCausado", R)])),
        kid(&["CompensacionSaldosAFavor"], &leaf(&[("SaldoAFavor", R), ("Año", R), ("RemanenteSalFav", R)])),
    ],
};

/// Why a cadena could not be built: the name of the part no stylesheet here covers.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unsupported(pub String);

/// The cadena original of the receipt in `tree` (whose root is `cfdi:Comprobante`).
pub(crate) fn cadena_original(tree: &Tree<'_>) -> Result<String, Unsupported> {
    let mut out = String::with_capacity(4096);
    out.push('|');
    let rule = if tree.cfdi4 { &COMPROBANTE_40 } else { &COMPROBANTE_33 };
    apply(tree, 0, Ns::Cfdi, rule, &mut out)?;
    for complemento in tree.kids(0, Ns::Cfdi, "Complemento") {
        for &item in &tree.elems[complemento].children {
            let e = &tree.elems[item];
            match (e.ns, e.local) {
                (Ns::Nomina12, "Nomina") => apply(tree, item, Ns::Nomina12, &NOMINA, &mut out)?,
                (Ns::Tfd, "TimbreFiscalDigital") => {}
                _ => return Err(Unsupported(e.local.to_owned())),
            }
        }
    }
    out.push_str("||");
    Ok(out)
}

fn apply(tree: &Tree<'_>, i: usize, ns: Ns, rule: &Rule, out: &mut String) -> Result<(), Unsupported> {
    for &(name, required) in rule.attrs {
        match tree.attr(i, name) {
            Some(value) => {
                out.push('|');
                normalize_space(value, out);
            }
            None if required => out.push('|'),
            None => {}
        }
    }
    for k in rule.kids {
        if k.any_depth {
            let mut found = Vec::new();
            descendants(tree, i, ns, k.path[0], &mut found);
            for d in found {
                apply(tree, d, ns, k.rule.ok_or_else(|| Unsupported(k.path[0].to_owned()))?, out)?;
            }
        } else {
            visit(tree, i, ns, k, k.path, out)?;
        }
    }
    Ok(())
}

/// Applies `rule` to each element at `path` below `i`, in document order.
fn visit(tree: &Tree<'_>, i: usize, ns: Ns, k: &Kid, path: &[&str], out: &mut String) -> Result<(), Unsupported> {
    let Some((first, rest)) = path.split_first() else {
        let rule = k.rule.ok_or_else(|| Unsupported(tree.elems[i].local.to_owned()))?;
        return apply(tree, i, ns, rule, out);
    };
    for &c in &tree.elems[i].children {
        let e = &tree.elems[c];
        if e.ns == ns && e.local == *first {
            visit(tree, c, ns, k, rest, out)?;
        }
    }
    Ok(())
}

/// Every descendant of `i` named `ns:local`, in document order.
fn descendants(tree: &Tree<'_>, i: usize, ns: Ns, local: &str, found: &mut Vec<usize>) {
    for &c in &tree.elems[i].children {
        if tree.elems[c].ns == ns && tree.elems[c].local == local {
            found.push(c);
        }
        descendants(tree, c, ns, local, found);
    }
}

/// XPath's `normalize-space`: XML white space trimmed and inner runs collapsed to one space.
fn normalize_space(value: &str, out: &mut String) {
    let mut words = value.split([' ', '\t', '\r', '\n']).filter(|w| !w.is_empty());
    if let Some(w) = words.next() {
        out.push_str(w);
        for w in words {
            out.push(' ');
            out.push_str(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_are_normalised_like_xpath() {
        let mut out = String::new();
        normalize_space("  A \t B\r\n\nC ", &mut out);
        assert_eq!(out, "A B C");
        out.clear();
        normalize_space(" \n ", &mut out);
        assert_eq!(out, "");
    }
}
