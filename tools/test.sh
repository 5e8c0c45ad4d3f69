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
echo "== gofmt, rustfmt (the hand-written Go and Rust; generated code is the compiler's)"
unformatted="$(gofmt -l tools/go_fix tools/packaging/go tools/testees/generated_go)"
[ -z "$unformatted" ] || { echo "gofmt: not formatted: $unformatted" >&2; exit 1; }
rustfmt --edition 2021 --check --config-path tools/packaging/rust/rustfmt.toml \
  tools/packaging/rust/src/*.rs tools/packaging/rust/src/bin/*.rs tools/packaging/rust/runtime/src/lib.rs \
  tools/testees/generated_rust/src/main.rs
seed="${HYPOTHESIS_SEED:-$(( (RANDOM << 15) | RANDOM ))}"
echo "== pytest (hypothesis seed: $seed; ${SECONDS} s since the start)"
exec .venv/bin/python -m pytest -p no:cacheprovider --durations=25 --hypothesis-seed="$seed" "$@"
