//! Payroll receipts (CFDI with the Nómina 1.2 complement): `read_cfdi` and
//! `profile_from_cfdi`, conversions around score-docs; printed receipts and bank statements
//! (PDF, PNG, JPEG): `read_document`, around score-ocr. The facts and the profile are
//! score-docs' serde shapes, handed to Python as the dicts `json.loads` makes of their JSON, so
//! every key and number is the one in fixtures/documents/ (the same digits on every surface);
//! a `score_docs::DocError` becomes `platform_score.ScoreError` with its `.code` and `.field`.
//! `CertificadosSat` is the set of CA certificates receipts are chained to (`ca_sat=`; score-docs'
//! carried SAT CAs when omitted).

use crate::new_error;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use score_docs::{BankLayout, Date, DocError, DocErrorCode, DocumentKind};
use std::path::PathBuf;

/// The `platform_score.ScoreError` for a document error (`.index` is None: a receipt of a
/// batch is named by `.field`, `receipts[i]`).
fn py_doc_error(py: Python<'_>, e: &DocError) -> PyErr {
    new_error(py, format!("{}: {}", e.code, e.message), e.code.as_str(), e.field.as_deref(), None, None)
}

fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import(intern!(py, "json"))?.call_method1(intern!(py, "loads"), (text,))
}

/// CertificadosSat(certificados: Sequence[bytes]): the CA certificates (DER as the SAT publishes
/// them, or PEM) that receipts' certificates are chained to, in place of the SAT's carried ones
/// (a bank's own trust set, the tests' CA); `CertificadosSat.from_dir(path)` loads a folder as
/// the server's `SAT_CA_DIR`. A file that is not a CA certificate raises `ScoreError`
/// `DOCUMENT_UNREADABLE` naming it.
#[pyclass(module = "platform_score", frozen, name = "CertificadosSat")]
pub(crate) struct PyCertificadosSat(score_docs::CertificadosSat);

#[pymethods]
impl PyCertificadosSat {
    #[new]
    fn new(py: Python<'_>, certificados: Vec<Vec<u8>>) -> PyResult<Self> {
        let files = certificados.iter().enumerate().map(|(i, der)| (format!("certificados[{i}]"), der));
        score_docs::CertificadosSat::from_files(files).map(Self).map_err(|e| py_doc_error(py, &e))
    }

    /// Every file of the folder `path` (hidden and README files skipped), in name order.
    #[staticmethod]
    fn from_dir(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let unreadable = |e: std::io::Error| {
            let message = format!("No se pudo leer la carpeta de certificados {}: {e}", path.display());
            py_doc_error(py, &DocError::new(DocErrorCode::DocumentUnreadable, None, message))
        };
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&path).map_err(unreadable)? {
            let file = entry.map_err(unreadable)?.path();
            let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if file.is_file() && !name.starts_with('.') && !name.to_ascii_lowercase().starts_with("readme") {
                files.push((name, std::fs::read(&file).map_err(unreadable)?));
            }
        }
        files.sort();
        score_docs::CertificadosSat::from_files(files).map(Self).map_err(|e| py_doc_error(py, &e))
    }

    /// The SAT's CA certificates score-docs carries (the default of every `ca_sat=`).
    #[staticmethod]
    fn incluidos() -> Self {
        Self(score_docs::CertificadosSat::incluidos().clone())
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __repr__(&self) -> String {
        format!("CertificadosSat({} certificados)", self.0.len())
    }
}

/// `ca_sat`, or score-docs' carried SAT CAs.
fn ca_of<'a>(ca_sat: Option<&'a PyCertificadosSat>) -> &'a score_docs::CertificadosSat {
    match ca_sat {
        Some(c) => &c.0,
        None => score_docs::CertificadosSat::incluidos(),
    }
}

/// read_cfdi(data: bytes, *, ca_sat=None) -> dict: the facts of one payroll receipt, its
/// certificate chained to `ca_sat` (the carried SAT CAs when None).
#[pyfunction]
#[pyo3(signature = (data, *, ca_sat = None))]
fn read_cfdi<'py>(py: Python<'py>, data: &[u8], ca_sat: Option<PyRef<'py, PyCertificadosSat>>) -> PyResult<Bound<'py, PyAny>> {
    let facts = score_docs::read_cfdi_con(data, ca_of(ca_sat.as_deref())).map_err(|e| py_doc_error(py, &e))?;
    json_loads(py, &facts.to_json())
}

/// The reference date as `YYYY-MM-DD`, from a `str` or anything with `isoformat()`
/// (`datetime.date`).
fn reference(value: &Bound<'_, PyAny>) -> PyResult<Date> {
    let text: String = match value.extract::<String>() {
        Ok(text) => text,
        Err(_) => value.call_method0(intern!(value.py(), "isoformat"))?.extract()?,
    };
    Date::parse(text.get(..10).unwrap_or(&text)).ok_or_else(|| {
        PyValueError::new_err(format!("reference_date debe ser una fecha AAAA-MM-DD válida, no {text:?}."))
    })
}

/// profile_from_cfdi(receipts, *, reference_date, ca_sat=None) -> dict: the verified partial
/// profile of one worker's receipts (each `bytes`), seniority counted to `reference_date`, their
/// certificates chained to `ca_sat` (the carried SAT CAs when None).
#[pyfunction]
#[pyo3(signature = (receipts, *, reference_date, ca_sat = None))]
fn profile_from_cfdi<'py>(
    py: Python<'py>,
    receipts: Vec<Vec<u8>>,
    reference_date: &Bound<'py, PyAny>,
    ca_sat: Option<PyRef<'py, PyCertificadosSat>>,
) -> PyResult<Bound<'py, PyAny>> {
    let reference = reference(reference_date)?;
    let ca = ca_of(ca_sat.as_deref());
    let profile = py
        .detach(|| score_docs::profile_from_cfdi_bytes_con(&receipts, reference, ca))
        .map_err(|e| py_doc_error(py, &e))?;
    json_loads(py, &profile.to_json())
}

/// read_document(data: bytes, *, kind=None) -> dict: the facts of a printed payroll receipt
/// (`tipo` "recibo_nomina": read_cfdi's keys plus `fuente`, `confianza`, `verificado`,
/// `comprobaciones`, `neto_impreso`) or bank statement (`tipo` "estado_cuenta"), from a PDF,
/// PNG or JPEG; `kind` ("recibo_nomina" or "estado_cuenta") skips telling them apart. Runs
/// Poppler and Tesseract as child processes with score-ocr's default limits, the GIL released.
#[pyfunction]
#[pyo3(signature = (data, *, kind = None))]
fn read_document<'py>(py: Python<'py>, data: &[u8], kind: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    let kind = kind.map(str::parse::<DocumentKind>).transpose().map_err(|e| py_doc_error(py, &e))?;
    let document = py
        .detach(|| score_ocr::read_document(data, kind, &BankLayout::builtin(), &score_ocr::Limits::default()))
        .map_err(|e| py_doc_error(py, &e))?;
    json_loads(py, &document.to_json())
}

/// Adds the document functions and `DOCUMENT_ERROR_CODES` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyCertificadosSat>()?;
    m.add_function(wrap_pyfunction!(read_cfdi, m)?)?;
    m.add_function(wrap_pyfunction!(profile_from_cfdi, m)?)?;
    m.add_function(wrap_pyfunction!(read_document, m)?)?;
    m.add("DOCUMENT_ERROR_CODES", PyTuple::new(m.py(), DocErrorCode::ALL.iter().map(|c| c.as_str()))?)?;
    Ok(())
}
