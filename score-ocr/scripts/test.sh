#!/usr/bin/env bash
# score-ocr's suite with the real tools: installs Debian's poppler-utils (pdfinfo, pdftotext,
# pdftoppm), tesseract-ocr and its Spanish model tesseract-ocr-spa when missing, then runs
# `cargo test -p score-ocr` (printed receipts to PDF, PNG and scanned PDF, and every limit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
log() { printf '==> %s\n' "$*"; }

missing=()
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
command -v tesseract >/dev/null 2>&1 || missing+=(tesseract-ocr)
if ! tesseract --list-langs 2>/dev/null | grep -qx spa; then missing+=(tesseract-ocr-spa); fi
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]} (Debian)"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
log "score-ocr with $(tesseract --version 2>&1 | head -1) and pdftoppm $(pdftoppm -v 2>&1 | head -1 | awk '{print $3}')"
cargo test -p score-ocr --locked
