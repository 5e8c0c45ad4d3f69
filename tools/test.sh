#!/usr/bin/env bash
# The whole test suite: lint, generated-code check, then pytest (Hypothesis with the
# `ci` profile when CI=true, `dev` otherwise; the seed is printed and can be replayed
# with HYPOTHESIS_SEED=<seed>).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh
echo "== ruff (the install step took ${SECONDS} s)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== generated parsers"
.venv/bin/python tools/gen_parsers.py --check
seed="${HYPOTHESIS_SEED:-$(( (RANDOM << 15) | RANDOM ))}"
echo "== pytest (hypothesis seed: $seed; ${SECONDS} s since the start)"
exec .venv/bin/python -m pytest -p no:cacheprovider --durations=25 --hypothesis-seed="$seed" "$@"
