//! The calibration: every figure of the Mexican market the model reads (minimum wage, UMA,
//! poverty line, curves, state table, closing costs, each credit product's rules), as one
//! human-edited TOML document with each figure's source or the reason of its estimate.
//!
//! A leaf of the crate: it reads and checks the document and knows nothing of the model. The
//! default, [`Calibration::default`], is the embedded `calibration/mx-2026.toml`, parsed when
//! asked for (the crate keeps no global state), so every surface works with no file. A bad
//! document is refused with `CALIBRATION_INVALID`, the path of the key at fault
//! (`productos[2].tasa_anual`) as the error's `field` and a Spanish message.

mod cifras;
pub(crate) mod documento;
mod validar;
mod valor;

use crate::error::ScoreError;
use documento::Documento;
use validar::falla;

/// The embedded calibration's text, `score-core/calibration/mx-2026.toml`.
pub const EMBEDDED_TOML: &str = include_str!("../../calibration/mx-2026.toml");

/// A checked calibration document. Build it with [`Calibration::from_toml`] or take the
/// embedded one with [`Calibration::default`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calibration {
    pub(crate) documento: Documento,
}

impl Calibration {
    /// Reads and checks a calibration written as TOML.
    ///
    /// # Errors
    /// `CALIBRATION_INVALID`, with the key at fault as `field`: text that is not TOML, a key
    /// the document does not know or one it misses, a value of the wrong type, a figure out of
    /// its range (a negative or impossible rate), a curve that is not monotone, a product
    /// without the keys its `tipo` needs or with a repeated `clave`, a figure without its source.
    pub fn from_toml(text: &str) -> Result<Calibration, ScoreError> {
        let documento = leer(text)?;
        validar::documento(&documento)?;
        if text != EMBEDDED_TOML {
            aplicable(&documento)?;
        }
        Ok(Calibration { documento })
    }

    /// The calibration embedded in the crate: the figures in force that the model ships with.
    pub fn embedded() -> Calibration {
        // A test reads the embedded text; it cannot fail here.
        #[allow(clippy::expect_used)]
        Calibration::from_toml(EMBEDDED_TOML).expect("the embedded calibration is valid (calibration::tests)")
    }

    /// The name of this set of figures: the `calibracion` of every report made with it.
    pub fn id(&self) -> &str {
        &self.documento.id
    }

    /// The date from which its figures apply, `AAAA-MM-DD`.
    pub fn vigente_desde(&self) -> &str {
        &self.documento.vigente_desde
    }

    /// Writes this calibration's id as the `calibracion` of a report made under it. The batch
    /// paths score on threads that take a plain function, and the bindings mark each report
    /// as it comes back; this version scores every calibration with the embedded figures
    /// ([`Calibration::from_toml`] refuses others), so the id is all that differs.
    pub fn stamp(&self, report: &mut crate::ScoreReport) {
        if report.calibracion != self.documento.id {
            report.calibracion = self.documento.id.clone().into();
        }
    }

    /// The document written back as TOML: read again, it is the same calibration.
    pub fn to_toml(&self) -> String {
        // Every value of the document is a string, a number, a table or an array of them.
        #[allow(clippy::expect_used)]
        toml::to_string(&self.documento).expect("a calibration always writes as TOML")
    }

    /// Every figure by the path of its key (`productos[2].tasa_anual`,
    /// `curvas.deudas.puntos[3][1]`), in document order.
    pub fn cifras(&self) -> Vec<(String, rust_decimal::Decimal)> {
        cifras::de(&self.documento)
    }

    /// The document as JSON (for `GET /api/v1/calibracion`): every figure with its source.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(&self.documento).unwrap_or(serde_json::Value::Null)
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration::embedded()
    }
}

/// Whether the model of this version can score with the document's figures: it applies the
/// embedded calibration's figures, so a document may rename itself (`id`, `vigente_desde`,
/// `descripcion`), its products (`nombre`) and cite other sources, and a figure that differs
/// from the embedded one is refused at its path rather than silently left unapplied.
fn aplicable(documento: &Documento) -> Result<(), ScoreError> {
    let incluida = leer(EMBEDDED_TOML)?;
    let incluidas: std::collections::BTreeMap<String, rust_decimal::Decimal> = cifras::de(&incluida).into_iter().collect();
    let propias = cifras::de(documento);
    let distinta = |path: &str, propia: String, incluida_: String| {
        falla(
            path,
            format!(
                "`{path}` {propia} y en la calibración incluida («{}») {incluida_}: esta versión del modelo \
                 califica con las cifras incluidas y todavía no aplica una cifra distinta.",
                incluida.id
            ),
        )
    };
    for (path, valor) in &propias {
        match incluidas.get(path) {
            Some(incluido) if incluido == valor => {}
            Some(incluido) => return Err(distinta(path, format!("vale {valor}"), format!("vale {incluido}"))),
            None => return Err(distinta(path, format!("vale {valor}"), "no existe".into())),
        }
    }
    if let Some(path) = incluidas.keys().find(|p| !propias.iter().any(|(q, _)| q == *p)) {
        return Err(distinta(path, "falta".into(), format!("vale {}", incluidas[path])));
    }
    Ok(())
}

/// The document's shape, read with the path of whatever does not fit it.
fn leer(text: &str) -> Result<Documento, ScoreError> {
    let deserializer = toml::Deserializer::parse(text).map_err(|e| {
        falla("", format!("La calibración no es TOML válido: {}", e.message().trim()))
    })?;
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        let (path, message) = explicar(&path, e.inner().message());
        falla(&path, message)
    })
}

/// A serde error's path and its message in Spanish: the key a missing or unknown key names is
/// appended to the path of its table.
fn explicar(path: &str, inner: &str) -> (String, String) {
    let unir = |clave: &str| match path {
        "" => clave.to_owned(),
        p if p == clave || p.ends_with(&format!(".{clave}")) => p.to_owned(),
        p => format!("{p}.{clave}"),
    };
    let nombrada = |prefijo: &str| inner.strip_prefix(prefijo).and_then(|r| r.split('`').next()).map(str::to_owned);
    if let Some(clave) = nombrada("missing field `") {
        let p = unir(&clave);
        return (p.clone(), format!("Falta `{p}` en la calibración."));
    }
    if let Some(clave) = nombrada("unknown field `") {
        let p = unir(&clave);
        return (p.clone(), format!("La calibración no conoce la clave `{p}` (¿un error de escritura?)."));
    }
    if let Some(clave) = nombrada("unknown variant `") {
        return (path.to_owned(), format!("`{path}` no admite «{clave}»: {}", inner.split(", expected").nth(1).map_or(String::new(), |r| format!("se espera{r}"))));
    }
    if let Some(resto) = inner.strip_prefix("invalid type: ") {
        return (path.to_owned(), format!("`{path}` tiene un tipo equivocado ({resto})."));
    }
    (path.to_owned(), format!("`{path}`: {inner}"))
}
