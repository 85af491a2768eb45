#!/usr/bin/env bash
# Installs what score-ocr runs when any of it is missing (Debian packages): poppler-utils
# (pdfinfo, pdftotext, pdftoppm), tesseract-ocr and its Spanish model tesseract-ocr-spa.
# Used by every suite that reads printed documents (score-ocr, score-py, the server).
set -euo pipefail
missing=()
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
command -v tesseract >/dev/null 2>&1 || missing+=(tesseract-ocr)
if ! tesseract --list-langs 2>/dev/null | grep -qx spa; then missing+=(tesseract-ocr-spa); fi
if [ "${#missing[@]}" -gt 0 ]; then
  printf '==> installing %s (Debian)\n' "${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
