"""Make the Rust that kaitai-struct-compiler 0.11 writes compile, by the compiler's own diagnostics.

Used by gen_parsers.py only:  rust_fix.fix(PACKAGE_DIR, CARGO_TARGET_DIR)

The Rust backend of ksc 0.11 mixes integer types in one expression (every other target widens them; Rust
refuses), moves values out of `Ref`s, applies `?` where there is nothing to try and leaves it out where there
is, and wraps or does not wrap a switch value in `Some` inconsistently. This checks the package
(`cargo check --message-format=json`), rewrites each error it knows at the span rustc names, and repeats until
the package compiles (at most ROUNDS rounds). Fixes:

* two integer (or float) operands of different types, in a comparison, an arithmetic operation or the two
  branches of an `if`: both become i128 (f64 if either is a float), which holds every value of either, so
  nothing is cut (Python, the reference, compares unbounded integers);
* a value of one numeric type where another is wanted (a field, an argument): cast to that type;
* `Some(x)` where the field is not an Option: `x`; a switch value assigned without `Some` where it is: `Some`;
* `*ref_to_vec` moved out of a `Ref`: cloned; `&u8 as u8`: dereferenced;
* `*instance()` of a `KResult`: `*instance()?`; `?` on a plain `Ref`: dropped;
* a temporary borrowed past its statement: bound to a variable first;
* a literal beyond the type ksc gives it (`(x as i32) == (1493475289347502 as i32)` would compare cut values):
  both operands as i128; a bare literal, typed i128.

An error it does not know stops it with that error: the package is not written half fixed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from target_fixes import FixError

ROUNDS = 30
INTEGERS = {"i8", "i16", "i32", "i64", "i128", "u8", "u16", "u32", "u64", "usize", "isize"}
FLOATS = {"f32", "f64"}
EXPECTED = re.compile(r"expected `([^`]+)`, found `([^`]+)`")


@dataclass(frozen=True)
class Edit:
    """Replace bytes [start, end) of `file` by `text`."""

    file: Path
    start: int
    end: int
    text: bytes


def diagnostics(pkg: Path, target_dir: Path) -> list[dict]:
    """The errors `cargo check` reports for the package's library."""
    env = os.environ | {"CARGO_TARGET_DIR": str(target_dir)}
    cmd = ["cargo", "check", "--lib", "--locked", "--quiet", "--message-format=json"]
    done = subprocess.run(cmd, cwd=pkg, capture_output=True, text=True, env=env, timeout=1800)
    errors = []
    for line in done.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-message" and msg["message"]["level"] == "error" and msg["message"]["spans"]:
            errors.append(msg["message"])
    if done.returncode != 0 and not errors:
        raise FixError(f"cargo check failed without a diagnostic:\n{done.stderr[-3000:]}")
    return errors


def _primary(msg: dict) -> dict:
    return next(s for s in msg["spans"] if s["is_primary"])


def _text(pkg: Path, span: dict) -> bytes:
    return (pkg / span["file_name"]).read_bytes()[span["byte_start"] : span["byte_end"]]


def _cast(pkg: Path, span: dict, to: str) -> Edit:
    text = _text(pkg, span)
    return Edit(
        pkg / span["file_name"], span["byte_start"], span["byte_end"], b"((" + text + b") as " + to.encode() + b")"
    )


def _common(a: str, b: str) -> str | None:
    """The type two numeric operands are both cast to, or None when one is not numeric."""
    if a in FLOATS | INTEGERS and b in FLOATS | INTEGERS:
        return "f64" if a in FLOATS or b in FLOATS else "i128"
    return None


def _mismatch(pkg: Path, msg: dict) -> list[Edit]:
    span = _primary(msg)
    m = EXPECTED.search(span.get("label") or "")
    if m is None:
        raise FixError(f"a mismatch without its types: {msg['rendered']}")
    expected, found = m.groups()
    others = [s for s in msg["spans"] if not s["is_primary"] and (s.get("label") or "").startswith("expected because")]
    common = _common(expected, found)
    if others and common:  # both sides of an operator or both branches of an `if`
        return [_cast(pkg, span, common), *(_cast(pkg, s, common) for s in others)]
    if common:  # a value where a field or a parameter of another type is wanted
        return [_cast(pkg, span, expected)]
    text = _text(pkg, span)
    if found.startswith("Option<") and text.startswith(b"Some(") and text.endswith(b")"):
        return [Edit(pkg / span["file_name"], span["byte_start"], span["byte_end"], text[5:-1])]
    raise FixError(f"a mismatch the fixer does not know: {msg['rendered']}")


def _suggestion(pkg: Path, msg: dict, help_text: str) -> Edit:
    """rustc's own suggested rewrite, from the help with this text."""
    for child in msg["children"]:
        if child["message"] == help_text and len(child["spans"]) == 1:
            s = child["spans"][0]
            if s.get("suggested_replacement") is not None:
                return Edit(pkg / s["file_name"], s["byte_start"], s["byte_end"], s["suggested_replacement"].encode())
    raise FixError(f"no suggestion {help_text!r}:\n{msg['rendered']}")


def _line_edit(pkg: Path, span: dict, pattern: bytes, repl: bytes) -> Edit:
    """Rewrite the whole line holding `span` by a regular expression that must match it."""
    path = pkg / span["file_name"]
    data = path.read_bytes()
    start = data.rfind(b"\n", 0, span["byte_start"]) + 1
    end = data.find(b"\n", span["byte_end"])
    line = data[start:end]
    new, n = re.subn(pattern, repl, line)
    if n != 1:
        raise FixError(f"{path.name}: the line {line[:200]!r} does not have the expected shape")
    return Edit(path, start, end, new)


def edits_for(pkg: Path, msg: dict) -> list[Edit]:
    """The rewrites that fix one error."""
    code = (msg.get("code") or {}).get("code")
    span = _primary(msg)
    path = pkg / span["file_name"]
    text = _text(pkg, span)
    text_msg = msg["message"]
    if code == "E0308":
        return _mismatch(pkg, msg)
    if code == "E0507" and "out of dereference of `Ref<" in text_msg and text.startswith(b"*"):
        return [Edit(path, span["byte_start"], span["byte_end"], b"(" + text + b").clone()")]
    if code == "E0606" and text_msg.startswith("casting `&"):
        return [_suggestion(pkg, msg, "dereference the expression")]
    if code == "E0614" and "`Result<" in text_msg:
        at = span["byte_end"] - 1 if text.startswith(b"(*") and text.endswith(b")") else span["byte_end"]
        return [Edit(path, at, at, b"?")]
    if code == "E0277" and "`?` operator can only be applied" in text_msg and text.endswith(b"?"):
        return [Edit(path, span["byte_end"] - 1, span["byte_end"], b"")]
    if code == "E0277" and text_msg.startswith("the trait bound `Option<") and text == b"into":
        return [_line_edit(pkg, span, rb"let t = (.*)\.into\(\);$", rb"let t = Some(\1.into());")]
    if code == "E0716":
        temp = re.escape(text)
        return [
            _line_edit(
                pkg, span, rb"let (\w+) = " + temp + rb"(.*);$", rb"let _t_\1 = " + text + rb"; let \1 = _t_\1\2;"
            )
        ]
    if text_msg.startswith("literal out of range for"):
        return [_wide_literal(pkg, span, text)]
    raise FixError(f"an error the fixer does not know:\n{msg['rendered']}")


def _wide_literal(pkg: Path, span: dict, literal: bytes) -> Edit:
    """`(x as T) op (LIT as T)` with LIT beyond T (ksc's type for the literal is too narrow, so the value would
    be cut): both operands as i128; a bare literal: typed i128."""
    path = pkg / span["file_name"]
    data = path.read_bytes()
    start, end = span["byte_start"], span["byte_end"]
    cast = re.match(rb" as (\w+)\)", data[end:])
    before = re.search(rb" as (\w+)\) (==|!=|<=|>=|<|>|\+|-|\*|/) \($", data[:start])
    if not literal.lstrip(b"-").isdigit():
        raise FixError(f"{path.name}: the literal {literal!r} is not a decimal integer")
    if cast is None:  # a bare literal (an `if` branch): typed i128, which the branches then share
        return Edit(path, start, end, literal + b"i128")
    if before is None or before.group(1) != cast.group(1):
        raise FixError(f"{path.name}: the literal {literal!r} is not an operand of the shape (x as T) op (LIT as T)")
    new = b" as i128) " + before.group(2) + b" (" + literal + b" as i128)"
    return Edit(path, before.start(), end + cast.end(), new)


def apply(edits: list[Edit]) -> int:
    """Apply the edits that do not overlap an earlier one (the rest wait for the next round); how many."""
    done = 0
    by_file: dict[Path, list[Edit]] = {}
    for e in edits:
        by_file.setdefault(e.file, []).append(e)
    for path, file_edits in by_file.items():
        data = path.read_bytes()
        taken: list[tuple[int, int]] = []
        for e in sorted(set(file_edits), key=lambda e: (-e.start, -e.end)):
            if any((e.start < b and a < e.end) or (e.start == e.end and a <= e.start < b) for a, b in taken):
                continue
            data = data[: e.start] + e.text + data[e.end :]
            taken.append((e.start, e.end))
            done += 1
        path.write_bytes(data)
    return done


def fix(pkg: Path, target_dir: Path) -> int:
    """Fix the package in `pkg` until it compiles; the number of rounds it took."""
    for round_no in range(1, ROUNDS + 1):
        errors = diagnostics(pkg, target_dir)
        if not errors:
            return round_no - 1
        edits = [e for msg in errors for e in edits_for(pkg, msg)]
        if not apply(edits):
            raise FixError(f"round {round_no}: no edit applies to {len(errors)} errors")
    raise FixError(f"still not compiling after {ROUNDS} rounds")
