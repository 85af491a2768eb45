# score-ocr: printed documents' text (Poppler, Tesseract) for score-docs. See score-ocr/README.md.
TEST_TARGETS += test-ocr

.PHONY: test-ocr
test-ocr:
	bash score-ocr/scripts/test.sh
