#!/usr/bin/env bash
# The main job: install everything, then run paimon-conform (no arguments: build a
# sample with the reference encoder, validate it, and check the golden corpus).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh
exec .venv/bin/paimon-conform "$@"
