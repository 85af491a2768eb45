#!/usr/bin/env bash
# score-ocr's suite with the real tools: installs Debian's poppler-utils (pdfinfo, pdftotext,
# pdftoppm), tesseract-ocr and its Spanish model tesseract-ocr-spa when missing, then runs
# `cargo test -p score-ocr` (printed receipts to PDF, PNG and scanned PDF, and every limit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
log() { printf '==> %s\n' "$*"; }

bash score-ocr/scripts/install-tools.sh
log "score-ocr with $(tesseract --version 2>&1 | head -1) and pdftoppm $(pdftoppm -v 2>&1 | head -1 | awk '{print $3}')"
cargo test -p score-ocr --locked
