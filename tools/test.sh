#!/usr/bin/env bash
# The whole test suite: lint, then pytest (test_toolchain.py regenerates every language's parsers and diffs
# them; Hypothesis with the `ci` profile when CI=true, `dev` otherwise; the seed is printed and can be replayed
# with HYPOTHESIS_SEED=<seed>).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install.sh
echo "== ruff (the install step took ${SECONDS} s)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
seed="${HYPOTHESIS_SEED:-$(( (RANDOM << 15) | RANDOM ))}"
echo "== pytest (hypothesis seed: $seed; ${SECONDS} s since the start)"
exec .venv/bin/python -m pytest -p no:cacheprovider --durations=25 --hypothesis-seed="$seed" "$@"
