//! Payroll receipts (CFDI with the Nómina 1.2 complement): `read_cfdi` and
//! `profile_from_cfdi`, conversions around score-docs; printed receipts and bank statements
//! (PDF, PNG, JPEG): `read_document`, around score-ocr. The facts and the profile are
//! score-docs' serde shapes, handed to Python as the dicts `json.loads` makes of their JSON, so
//! every key and number is the one in fixtures/documents/ (the same digits on every surface);
//! a `score_docs::DocError` becomes `platform_score.ScoreError` with its `.code` and `.field`.

use crate::new_error;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use score_docs::{BankLayout, Date, DocError, DocErrorCode, DocumentKind};

/// The `platform_score.ScoreError` for a document error (`.index` is None: a receipt of a
/// batch is named by `.field`, `receipts[i]`).
fn py_doc_error(py: Python<'_>, e: &DocError) -> PyErr {
    new_error(py, format!("{}: {}", e.code, e.message), e.code.as_str(), e.field.as_deref(), None, None)
}

fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import(intern!(py, "json"))?.call_method1(intern!(py, "loads"), (text,))
}

/// read_cfdi(data: bytes) -> dict: the facts of one payroll receipt.
#[pyfunction]
fn read_cfdi<'py>(py: Python<'py>, data: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let facts = score_docs::read_cfdi(data).map_err(|e| py_doc_error(py, &e))?;
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

/// profile_from_cfdi(receipts, *, reference_date) -> dict: the verified partial profile of
/// one worker's receipts (each `bytes`), seniority counted to `reference_date`.
#[pyfunction]
#[pyo3(signature = (receipts, *, reference_date))]
fn profile_from_cfdi<'py>(
    py: Python<'py>,
    receipts: Vec<Vec<u8>>,
    reference_date: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let reference = reference(reference_date)?;
    let profile = py
        .detach(|| score_docs::profile_from_cfdi_bytes(&receipts, reference))
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
    m.add_function(wrap_pyfunction!(read_cfdi, m)?)?;
    m.add_function(wrap_pyfunction!(profile_from_cfdi, m)?)?;
    m.add_function(wrap_pyfunction!(read_document, m)?)?;
    m.add("DOCUMENT_ERROR_CODES", PyTuple::new(m.py(), DocErrorCode::ALL.iter().map(|c| c.as_str()))?)?;
    Ok(())
}
