# score-ocr: printed documents' text (Poppler, Tesseract) for score-docs. See score-ocr/README.md.
TEST_TARGETS += test-ocr

.PHONY: test-ocr
test-ocr:
	bash score-ocr/scripts/test.sh

# OCR accuracy over 105 generated documents (benches/ocr/accuracy.py; figures in
# benches/RESULTS.md). Needs the tools of test-ocr and Pillow (installed into .venv).
.PHONY: bench-ocr
bench-ocr:
	$(CARGO) build --release -p score-ocr --example read_document --locked
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/python -c 'import PIL' 2>/dev/null || .venv/bin/pip install -q pillow
	.venv/bin/python benches/ocr/accuracy.py
