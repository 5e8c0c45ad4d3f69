#!/usr/bin/env bash
# Install everything the kit needs, idempotently:
#   * Python 3.11 virtualenv in .venv with the pinned packages
#     (pyproject.toml + requirements/constraints.txt), the kit installed editable;
#   * a second virtualenv, .venv-connector, for Paimon's Spark connector: the kit on the PySpark the connector is
#     built for (requirements/connector.txt);
#   * the pinned Kaitai compiler and js-yaml (tools/kaitai/package-lock.json, npm ci);
#   * Java Paimon of every release in tools/java/releases.tsv (0.9.0 ... 2.0.0) and the Hadoop, lz4 and SLF4J jars
#     they run with, and Paimon's Spark connector, resolved through Maven into the Maven cache (SHA-256 checked,
#     tools/java_releases.py); the Paimon 0.9.0 bridge jar of the pypaimon==0.2.0 sdist and the 1.0-SNAPSHOT jar of
#     a wheel; our Java programs compiled with javac (tools/paimon_java.py).
# Debian packages (node, npm, a JDK, Maven, Chromium) are installed with apt-get only when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)
command -v javac >/dev/null || need_apt+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need_apt+=(maven)
command -v chromium >/dev/null || need_apt+=(chromium)  # the matrix page is checked in a real browser
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install: apt-get install ${need_apt[*]}"
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Rust (cargo from rustup, which fetches the compiler generated/rust/rust-toolchain.toml pins): the crate with its
# dump program, the testee on it, and the check build tools/rust_fix.py runs when the code is regenerated. About
# 45 s on a fresh clone, mostly one core: it runs beside the Python installs below, and is waited for before the
# end (wait_rust) with its messages shown if it failed.
command -v cargo >/dev/null || { echo "install: Rust (cargo, from https://rustup.rs) is required on PATH" >&2; exit 2; }
rust_log="$(mktemp)"
(
  set -e
  (cd generated/rust && cargo build --release --locked --quiet --features dump && cargo check --lib --locked --quiet)
  (cd tools/testees/generated_rust && CARGO_TARGET_DIR="$PWD/../../../generated/rust/target" \
    cargo build --release --locked --quiet)
) > "$rust_log" 2>&1 &
rust_pid=$!
trap 'kill "$rust_pid" 2>/dev/null || true; rm -f "$rust_log"' EXIT  # an install that stops early stops it too
wait_rust() {
  if ! wait "$rust_pid"; then
    cat "$rust_log" >&2
    echo "install: the Rust builds failed" >&2
    rm -f "$rust_log"
    exit 2
  fi
  rm -f "$rust_log"
}

PY="${PYTHON:-python3}"
want="$(cat .python-version)"
have="$("$PY" -c 'import platform; print(platform.python_version())')"
case "$have" in
  3.11.*) ;;
  *) echo "install: Python 3.11 is required (pinned $want); $PY is $have" >&2; exit 2 ;;
esac
[ "$have" = "$want" ] || echo "install: note: Python $have, pinned $want"

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements/constraints.txt -nt "$stamp" ] \
   || [ generated/python/pyproject.toml -nt "$stamp" ]; then
  # the generated parsers are their own distribution (generated/python, paimon-layouts), which the kit requires
  # --no-compile: pip would byte-compile every module of every package up front (pyspark alone has thousands,
  # ~10 s); Python compiles what is imported, once
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-compile -c requirements/constraints.txt \
    -e generated/python -e '.[test,peers,spark,docs]'
  touch "$stamp"
fi

# the Spark connector's own virtualenv: the kit without extras, on the PySpark the connector is built for
# (requirements/connector.txt says why it is a second one)
if [ ! -x .venv-connector/bin/python ]; then
  "$PY" -m venv .venv-connector
fi
stamp=.venv-connector/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements/constraints.txt -nt "$stamp" ] \
   || [ requirements/connector.txt -nt "$stamp" ] || [ generated/python/pyproject.toml -nt "$stamp" ]; then
  pins="$(mktemp)"
  grep -v -E '^(pyspark|py4j)==' requirements/constraints.txt > "$pins"
  grep -E '^[a-z]' requirements/connector.txt >> "$pins"
  .venv-connector/bin/python -m pip install -q --disable-pip-version-check --no-compile -c "$pins" -e generated/python -e . pyspark
  rm -f "$pins"
  touch "$stamp"
fi

if [ ! -d tools/kaitai/node_modules/kaitai-struct-compiler ] || [ tools/kaitai/package-lock.json -nt tools/kaitai/node_modules ]; then
  npm ci --no-audit --no-fund --prefix tools/kaitai >/dev/null 2>&1 || npm ci --no-audit --no-fund --prefix tools/kaitai
fi

# the generated packages' dependencies, from their lock files (Maven Central, npm), so that CI builds them offline
(cd generated/java && mvn -q -B package dependency:build-classpath -DskipTests -Dmdep.outputFile=target/classpath.txt) >/dev/null
npm ci --no-audit --no-fund --prefix generated/javascript >/dev/null 2>&1 || npm ci --no-audit --no-fund --prefix generated/javascript
# Go (1.23 or newer: generated/go/go.mod) is not a Debian package of that age; it must be on PATH
command -v go >/dev/null || { echo "install: Go >= 1.23 is required on PATH (https://go.dev/dl/)" >&2; exit 2; }
(cd generated/go && go mod download && go build ./...) >/dev/null
wait_rust

# the kit's bytecode, written once here (pip does this for a regular install; an editable one leaves it to the
# first run, and a PYTHONDONTWRITEBYTECODE environment would recompile the kit on every command)
.venv/bin/python -m compileall -q src generated >/dev/null

.venv/bin/python tools/paimon_java.py >/dev/null
echo "install: ready (.venv, .venv-connector, tools/kaitai/node_modules, deps/jars, the Maven cache, build/java, the Go and Cargo caches)"
