//! Reading a calibration document: the TOML text parsed into toml's own tables
//! (`toml::de::DeTable`, which keeps each number's digits) and walked by hand into the
//! document's shape, carrying the path of each key. Whatever does not fit (text that is not TOML,
//! a key the document does not know or one it misses, a value of the wrong type) is refused
//! with `CALIBRATION_INVALID` at its key (`productos[2].tasa_anual.valor`, written out only
//! then: [`Ruta`]) and a Spanish message; the checks beyond the shape are `validar`'s.
//!
//! A hand walk rather than serde's derive: the derive, monomorphized for every table of the
//! document through a path-tracking deserializer, was most of the WebAssembly module.

use super::documento::*;
use super::ruta::Ruta;
use super::validar::{falla, falla_en};
use super::valor::Valor;
use crate::error::ScoreError;
use std::collections::BTreeMap;
use toml::de::{DeTable, DeValue};

type R<T> = Result<T, ScoreError>;

/// The document of a TOML text.
pub(super) fn documento(text: &str) -> R<Documento> {
    let raiz = DeTable::parse(text)
        .map_err(|e| falla("", format!("La calibración no es TOML válido: {}", e.message().trim())))?;
    let t = Tabla::claves(raiz.get_ref(), &Ruta::Raiz, &CLAVES_DOCUMENTO)?;
    let mut d = Documento { id: t.texto("id")?, vigente_desde: t.texto("vigente_desde")?, ..Documento::default() };
    d.descripcion = t.opcional("descripcion").map(|(v, p)| texto(v, &p)).transpose()?;
    let (v, p) = t.requerido("general")?;
    d.general = general(v, &p)?;
    let (v, p) = t.requerido("curvas")?;
    let c = Tabla::de(v, &p, Curvas::default().campos().map(|(n, _)| n).as_slice())?;
    for (n, curva_) in d.curvas.campos_mut() {
        let (v, p) = c.requerido(n)?;
        *curva_ = curva(v, &p)?;
    }
    let (v, p) = t.requerido("gastos_cierre")?;
    let g = Tabla::de(v, &p, &["notario", "registro", "avaluo"])?;
    d.gastos_cierre = GastosCierre { notario: g.cifra("notario")?, registro: g.cifra("registro")?, avaluo: g.cifra("avaluo")? };
    let (v, p) = t.requerido("productos")?;
    d.productos = lista(v, &p, producto)?;
    let (v, p) = t.requerido("estados")?;
    d.estados = lista(v, &p, estado)?;
    let (v, p) = t.requerido("fuentes")?;
    d.fuentes = fuentes(v, &p)?;
    Ok(d)
}

const CLAVES_DOCUMENTO: [&str; 9] =
    ["id", "vigente_desde", "descripcion", "general", "curvas", "gastos_cierre", "productos", "estados", "fuentes"];

/// A table of the document at `path` whose keys are all known.
struct Tabla<'a, 'i> {
    tabla: &'a DeTable<'i>,
    path: &'a Ruta<'a>,
}

impl<'a, 'i> Tabla<'a, 'i> {
    /// `v`, which must be a table with no key outside `claves`.
    fn de(v: &'a DeValue<'i>, path: &'a Ruta<'a>, claves: &[&str]) -> R<Tabla<'a, 'i>> {
        match v {
            DeValue::Table(t) => Tabla::claves(t, path, claves),
            otro => Err(tipo_equivocado(path, otro, "una tabla")),
        }
    }

    fn claves(tabla: &'a DeTable<'i>, path: &'a Ruta<'a>, claves: &[&str]) -> R<Tabla<'a, 'i>> {
        if let Some(k) = tabla.keys().find(|k| !claves.contains(&k.get_ref().as_ref())) {
            let p = path.clave(k.get_ref()).to_string();
            return Err(falla(&p, format!("La calibración no conoce la clave `{p}` (¿un error de escritura?).")));
        }
        Ok(Tabla { tabla, path })
    }

    /// The value at `clave`, if the table has it, with its path.
    fn opcional(&self, clave: &'a str) -> Option<(&'a DeValue<'i>, Ruta<'a>)> {
        self.tabla.get(clave).map(|v| (v.get_ref(), self.path.clave(clave)))
    }

    /// The value at `clave`, which the table must have.
    fn requerido(&self, clave: &'a str) -> R<(&'a DeValue<'i>, Ruta<'a>)> {
        self.opcional(clave).ok_or_else(|| {
            let p = self.path.clave(clave).to_string();
            falla(&p, format!("Falta `{p}` en la calibración."))
        })
    }

    fn texto(&self, clave: &'a str) -> R<String> {
        let (v, p) = self.requerido(clave)?;
        texto(v, &p)
    }

    fn cifra(&self, clave: &'a str) -> R<Cifra> {
        let (v, p) = self.requerido(clave)?;
        cifra(v, &p)
    }
}

/// What a value is, for a message.
fn describir(v: &DeValue<'_>) -> String {
    match v {
        DeValue::String(s) => format!("el texto «{s}»"),
        DeValue::Integer(i) => format!("el número entero {i}"),
        DeValue::Float(f) => format!("el número {f}"),
        DeValue::Boolean(b) => format!("el valor lógico {b}"),
        DeValue::Datetime(d) => format!("la fecha {d}"),
        DeValue::Array(_) => "una lista".to_owned(),
        DeValue::Table(_) => "una tabla".to_owned(),
    }
}

fn tipo_equivocado(path: &Ruta<'_>, v: &DeValue<'_>, se_espera: &str) -> ScoreError {
    falla_en(path, format!("`{path}` tiene un tipo equivocado ({}; se espera {se_espera}).", describir(v)))
}

fn texto(v: &DeValue<'_>, path: &Ruta<'_>) -> R<String> {
    match v {
        DeValue::String(s) => Ok(s.as_ref().to_owned()),
        otro => Err(tipo_equivocado(path, otro, "un texto")),
    }
}

/// A number, or a decimal written as text (for more digits than a double keeps).
fn valor(v: &DeValue<'_>, path: &Ruta<'_>) -> R<Valor> {
    let leido = match v {
        DeValue::Integer(i) => Valor::de_entero(i.as_str(), i.radix()),
        DeValue::Float(f) => Valor::de_doble(f.as_str()),
        DeValue::String(s) => Valor::de_texto(s),
        otro => return Err(tipo_equivocado(path, otro, "un número o un número decimal escrito como texto")),
    };
    leido.map_err(|m| falla_en(path, format!("`{path}`: {m}")))
}

fn opcional<'a, T>(t: &Tabla<'a, '_>, clave: &'a str, leer: fn(&DeValue<'_>, &Ruta<'_>) -> R<T>) -> R<Option<T>> {
    t.opcional(clave).map(|(v, p)| leer(v, &p)).transpose()
}

const CLAVES_CIFRA: [&str; 7] = ["valor", "independiente", "mixto", "pensionado", "fuente", "estimacion", "nota"];

/// `{ valor = …, fuente = … }`.
fn cifra(v: &DeValue<'_>, path: &Ruta<'_>) -> R<Cifra> {
    let t = Tabla::de(v, path, &CLAVES_CIFRA)?;
    let (v, p) = t.requerido("valor")?;
    Ok(Cifra {
        valor: valor(v, &p)?,
        independiente: opcional(&t, "independiente", valor)?,
        mixto: opcional(&t, "mixto", valor)?,
        pensionado: opcional(&t, "pensionado", valor)?,
        fuente: opcional(&t, "fuente", texto)?,
        estimacion: opcional(&t, "estimacion", texto)?,
        nota: opcional(&t, "nota", texto)?,
    })
}

/// `{ puntos = [[x, y], …], fuente = … }`.
fn curva(v: &DeValue<'_>, path: &Ruta<'_>) -> R<Curva> {
    let t = Tabla::de(v, path, &["puntos", "fuente", "estimacion", "nota"])?;
    let (v, p) = t.requerido("puntos")?;
    Ok(Curva {
        puntos: lista(v, &p, punto)?,
        fuente: opcional(&t, "fuente", texto)?,
        estimacion: opcional(&t, "estimacion", texto)?,
        nota: opcional(&t, "nota", texto)?,
    })
}

/// `[x, y]`.
fn punto(v: &DeValue<'_>, path: &Ruta<'_>) -> R<(Valor, Valor)> {
    match v {
        DeValue::Array(a) if a.len() == 2 => Ok((valor(a[0].get_ref(), &path.indice(0))?, valor(a[1].get_ref(), &path.indice(1))?)),
        DeValue::Array(a) => Err(falla_en(path, format!("`{path}` debe ser un punto [x, y]; tiene {} valores.", a.len()))),
        otro => Err(tipo_equivocado(path, otro, "un punto [x, y]")),
    }
}

/// A list whose items `leer` reads, each at `path[i]`.
fn lista<T>(v: &DeValue<'_>, path: &Ruta<'_>, leer: fn(&DeValue<'_>, &Ruta<'_>) -> R<T>) -> R<Vec<T>> {
    match v {
        DeValue::Array(a) => a.iter().enumerate().map(|(i, item)| leer(item.get_ref(), &path.indice(i))).collect(),
        otro => Err(tipo_equivocado(path, otro, "una lista")),
    }
}

fn general(v: &DeValue<'_>, path: &Ruta<'_>) -> R<General> {
    let mut g = General::default();
    let mut claves = g.campos().map(|(n, _)| n).to_vec();
    claves.push("uma_vigente_desde");
    let t = Tabla::de(v, path, &claves)?;
    for (n, c) in g.campos_mut() {
        *c = t.cifra(n)?;
    }
    g.uma_vigente_desde = t.texto("uma_vigente_desde")?;
    Ok(g)
}

/// The keys of a product that are not figures.
const CLAVES_PRODUCTO: [&str; 6] = ["clave", "nombre", "tipo", "tasa_por_umas", "pago_por_umas", "banco"];

fn producto(v: &DeValue<'_>, path: &Ruta<'_>) -> R<ProductoCalibrado> {
    let mut p = ProductoCalibrado::SIN_CIFRAS;
    let mut claves = CLAVES_PRODUCTO.to_vec();
    claves.extend(p.campos().map(|(n, _)| n));
    let t = Tabla::de(v, path, &claves)?;
    p.clave = t.texto("clave")?;
    p.nombre = t.texto("nombre")?;
    let (v, ruta) = t.requerido("tipo")?;
    p.tipo = tipo(v, &ruta)?;
    p.tasa_por_umas = opcional(&t, "tasa_por_umas", curva)?;
    p.pago_por_umas = opcional(&t, "pago_por_umas", curva)?;
    p.banco = opcional(&t, "banco", texto)?;
    for (n, c) in p.campos_mut() {
        *c = opcional(&t, n, cifra)?;
    }
    Ok(p)
}

fn tipo(v: &DeValue<'_>, path: &Ruta<'_>) -> R<TipoProducto> {
    let nombre = texto(v, path)?;
    TipoProducto::TODOS.into_iter().find(|t| t.as_str() == nombre).ok_or_else(|| {
        let admitidos: Vec<String> = TipoProducto::TODOS.iter().map(|t| format!("`{}`", t.as_str())).collect();
        falla_en(path, format!("`{path}` no admite «{nombre}»: se espera uno de {}.", admitidos.join(", ")))
    })
}

fn estado(v: &DeValue<'_>, path: &Ruta<'_>) -> R<EstadoCalibrado> {
    let t = Tabla::de(v, path, &["clave", "factor", "precio_m2", "isai"])?;
    Ok(EstadoCalibrado { clave: t.texto("clave")?, factor: t.cifra("factor")?, precio_m2: t.cifra("precio_m2")?, isai: t.cifra("isai")? })
}

/// `[fuentes.<clave>]` tables: any key names a source.
fn fuentes(v: &DeValue<'_>, path: &Ruta<'_>) -> R<BTreeMap<String, Fuente>> {
    let DeValue::Table(todas) = v else { return Err(tipo_equivocado(path, v, "una tabla")) };
    let mut out = BTreeMap::new();
    for (clave, v) in todas.iter() {
        let p = path.clave(clave.get_ref());
        let t = Tabla::de(v.get_ref(), &p, &["editor", "titulo", "fecha", "direccion"])?;
        let fuente = Fuente { editor: t.texto("editor")?, titulo: t.texto("titulo")?, fecha: t.texto("fecha")?, direccion: t.texto("direccion")? };
        out.insert(clave.get_ref().as_ref().to_owned(), fuente);
    }
    Ok(out)
}
