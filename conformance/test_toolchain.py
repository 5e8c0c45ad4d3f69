"""The Kaitai toolchain: generated code is current, the wrapper's duties hold."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

from support.environment import ROOT, require

EVIDENCE = ("contract",)

SPECS = sorted((ROOT / "specs").glob("*.ksy")) + sorted((ROOT / "specs" / "common").glob("*.ksy"))


def test_generated_code_matches_specs():
    require("node")
    require("npm")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_parsers.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_spec_has_a_generated_module_and_style_meta():
    for spec in SPECS:
        text = spec.read_text()
        assert f"  id: {spec.stem}\n" in text
        for key in ("title:", "license:", "ks-version: '0.11'", "endian:"):
            assert key in text, f"{spec.name} lacks {key}"
        importlib.import_module(f"paimon_layouts.{spec.stem}")
        importlib.import_module(f"paimon_layouts.debug.{spec.stem}")


def test_wrapper_refuses_id_mismatch_and_compile_errors(tmp_path):
    require("node")
    ksc = ROOT / "tools" / "kaitai" / "ksc.js"
    bad_id = tmp_path / "foo.ksy"
    bad_id.write_text("meta:\n  id: bar\n  endian: le\nseq:\n  - id: x\n    type: u1\n")
    done = subprocess.run(["node", str(ksc), "-d", str(tmp_path / "out"), str(bad_id)], capture_output=True, text=True)
    assert done.returncode != 0
    assert "differs from the file name" in done.stderr
    bad_expr = tmp_path / "baz.ksy"
    bad_expr.write_text("meta:\n  id: baz\n  endian: le\nseq:\n  - id: x\n    size: nope\n")
    done = subprocess.run(
        ["node", str(ksc), "-d", str(tmp_path / "out"), str(bad_expr)], capture_output=True, text=True
    )
    assert done.returncode != 0


def test_wrapper_keeps_integers_beyond_32_bits_exact(tmp_path):
    require("node")
    spec = tmp_path / "big.ksy"
    spec.write_text("meta:\n  id: big\n  endian: be\nseq:\n  - id: magic\n    type: u8\n    valid: 1493475289347502\n")
    done = subprocess.run(
        ["node", str(ROOT / "tools" / "kaitai" / "ksc.js"), "-d", str(tmp_path), str(spec)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "1493475289347502" in (tmp_path / "big.py").read_text()


def test_generated_parser_is_a_usable_library():
    from paimon_layouts.deletion_vectors import DeletionVectors

    data = (ROOT / "golden" / "deletion_vectors" / "java-2.0.0" / "dvindex-32.bin").read_bytes()
    dv = DeletionVectors.from_bytes(data)
    assert [v.len_manifest for v in dv.vectors] == [24, 22]
    assert [c.body.values for c in dv.vectors[0].blob.bitmap.containers] == [[2, 3]]


def test_mutf8_processor_decodes_java_writeutf():
    from paimon_layouts.java_mutf8_string import JavaMutf8String
    from paimon_layouts.processors import decode_java_mutf8

    # "a\0😀" as DataOutputStream.writeUTF writes it: NUL as C0 80, the emoji as two 3-byte surrogates
    body = b"a" + b"\xc0\x80" + b"\xed\xa0\xbd\xed\xb8\x80"
    s = JavaMutf8String.from_bytes(len(body).to_bytes(2, "big") + body)
    assert s.value == "a\x00\U0001f600"
    assert decode_java_mutf8(b"\xed\xa0\xbd") == "\ufffd"  # a lone surrogate


def test_roaring_spec_is_importable_without_node():
    assert Path(importlib.import_module("paimon_layouts.roaring32").__file__).is_relative_to(ROOT / "generated")
