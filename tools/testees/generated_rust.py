#!/usr/bin/env python3
"""Build and start the Rust testee built on the generated parsers (tools/testees/generated_rust, a crate that
takes generated/rust by path).

    paimon-conform testee --kind roaring32 --kind deletion-vectors -- python tools/testees/generated_rust.py
    python tools/testees/generated_rust.py --build-only   # only build it
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(build_only: bool = False) -> int:
    source = Path(__file__).with_name("generated_rust")
    target = ROOT / "generated" / "rust" / "target"  # the crate's own build output: its dependencies built once
    cmd = ["cargo", "build", "--release", "--locked", "--quiet"]
    done = subprocess.run(
        cmd, cwd=source, capture_output=True, text=True, env=os.environ | {"CARGO_TARGET_DIR": str(target)}
    )
    if done.returncode != 0:
        print(f"generated_rust: cargo build failed:\n{done.stderr[-3000:]}", file=sys.stderr)
        return 2
    binary = target / "release" / "testee-generated-rust"
    if build_only:  # the suite builds first, so that no hello waits for a compiler
        return 0
    os.execv(binary, [str(binary)])  # noqa: S606 - the testee becomes the built program (no shell)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] == ["--build-only"]))
