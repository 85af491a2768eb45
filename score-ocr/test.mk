# score-ocr: printed documents' text (Poppler, Tesseract) for score-docs. See score-ocr/README.md.
TEST_TARGETS += test-ocr

.PHONY: test-ocr
test-ocr:
	bash score-ocr/scripts/test.sh

# OCR accuracy over generated documents (figures in benches/RESULTS.md): the fixture receipts
# and generated bank statements in five image forms (benches/ocr/accuracy.py), then statements
# and receipts in the layouts the reader was written for, in layouts held out of its tuning and
# in newer held-out layouts (each group reported apart), as text PDFs and 300 dpi scans, with
# the QR code pages (benches/ocr/layouts.py). Needs the tools of
# test-ocr, Pillow, qrcode and numpy (installed into .venv).
.PHONY: bench-ocr
bench-ocr:
	$(CARGO) build --release -p score-ocr --example read_document --locked
	[ -x .venv/bin/python ] || python3 -m venv .venv
	.venv/bin/python -c 'import PIL, qrcode, numpy' 2>/dev/null || .venv/bin/pip install -q pillow qrcode numpy
	.venv/bin/python benches/ocr/accuracy.py
	.venv/bin/python benches/ocr/layouts.py
