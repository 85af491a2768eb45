"""read_document: printed payroll receipts and bank statements (PDF, PNG, JPEG) read with the
real Poppler and Tesseract, to read_cfdi's facts plus fuente and confianza; and the codes of
bad files and of a machine without the OCR tools."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import platform_score
from platform_score import ScoreError, read_cfdi, read_document

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "fixtures" / "documents"
sys.path.insert(0, str(DOCS))
from printer import printed, text_pdf  # noqa: E402  (the print shared with benches/ocr)


def print_pdf(name: str) -> tuple[dict, bytes]:
    facts = read_cfdi((DOCS / name).read_bytes())
    return facts, text_pdf(printed(facts), 8)


def test_a_printed_receipt_reads_to_read_cfdis_facts_plus_fuente_and_confianza() -> None:
    facts, pdf = print_pdf("quincenal-40-infonavit-1.xml")
    got = read_document(pdf)
    assert got["tipo"] == "recibo_nomina"
    assert got["fuente"] == "pdf" and got["confianza"] == 1
    # read_cfdi's facts, seniority included (P282W, what its dates give), but paper carries no seal.
    impreso = {"valido": False, "motivo": "IMPRESO", "no_certificado": None, "rfc_certificado": None, "ca_sat_verificada": False, "ca_sat_motivo": "SIN_CERTIFICADO"}
    assert {k: got[k] for k in facts} == dict(facts, sello=impreso)
    assert set(got) - set(facts) == {"tipo", "fuente", "confianza", "verificado", "comprobaciones", "neto_impreso"}
    # The same with the kind given.
    assert read_document(pdf, kind="recibo_nomina") == got


def test_a_photo_is_read_by_tesseract(tmp_path: Path) -> None:
    facts, pdf = print_pdf("mensual-40-pensionado-1.xml")
    (tmp_path / "r.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "300", "-gray", "-png", "-singlefile", "r.pdf", "page"], cwd=tmp_path, check=True)
    got = read_document((tmp_path / "page.png").read_bytes())
    assert got["fuente"] == "ocr"
    assert 0.5 < got["confianza"] <= 1
    for key in ["uuid", "fecha_pago", "total_percepciones", "total_deducciones", "neto"]:
        assert got[key] == facts[key], key


def test_bad_files_have_their_codes() -> None:
    with pytest.raises(ScoreError) as info:
        read_document(b"hola, no soy un PDF")
    assert info.value.code == "DOCUMENT_UNSUPPORTED_TYPE"
    with pytest.raises(ScoreError) as info:
        read_document(b"%PDF-1.4\n1 0 obj broken")
    assert info.value.code == "DOCUMENT_UNREADABLE"
    with pytest.raises(ScoreError) as info:
        read_document(print_pdf("sin-timbre-40.xml")[1], kind="factura")
    assert info.value.code == "DOCUMENT_UNSUPPORTED_TYPE"
    assert info.value.field == "kind"
    assert "DOCUMENT_OCR_UNAVAILABLE" in platform_score.DOCUMENT_ERROR_CODES


def test_without_the_ocr_tools_the_code_says_so(tmp_path: Path) -> None:
    # A process whose PATH has none of Poppler's or Tesseract's commands.
    script = (
        "import json, platform_score\n"
        "try:\n"
        "    platform_score.read_document(open(%r, 'rb').read())\n"
        "except platform_score.ScoreError as e:\n"
        "    print(json.dumps({'code': e.code, 'message': str(e)}))\n"
    )
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes(print_pdf("sin-timbre-40.xml")[1])
    done = subprocess.run(
        [sys.executable, "-c", script % str(pdf)], env={**os.environ, "PATH": str(tmp_path)}, capture_output=True, text=True, check=True
    )
    error = json.loads(done.stdout)
    assert error["code"] == "DOCUMENT_OCR_UNAVAILABLE"
    assert "pdf" in error["message"].lower()
