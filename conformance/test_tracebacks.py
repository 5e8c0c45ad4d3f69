"""Damaged input ends in a finding or a usage error naming the file and field, never in a traceback or an
internal error: deep JSON, schema files of the wrong shape, long hex arguments, unwritable outputs, and
truncations and byte flips of every golden binary and every third-party corpus file.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.environment import CORPUS, GOLDEN, require_corpus

from paimon_conform import cli
from paimon_conform.core import errors
from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.registry import LAYOUTS, get
from paimon_conform.table.metadata import MetadataProblem, read_snapshot
from paimon_conform.table.schema import parse_schema

EVIDENCE = ("contract",)

TABLE = GOLDEN / "tables" / "java-0.9.0" / "append-fixed3-avro"
DEEP = "[" * 100_000 + "]" * 100_000


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "paimon_conform.cli", *args], capture_output=True, text=True, timeout=300
    )


def assert_no_crash(done: subprocess.CompletedProcess) -> None:
    text = done.stdout + done.stderr
    assert "internal error" not in text, text[-2000:]
    assert "Traceback" not in text, text[-2000:]


# ------------------------------------------------------------------------------------------- JSON


def test_deep_snapshot_json_is_a_finding(tmp_path):
    path = tmp_path / "snapshot-1"
    path.write_text(DEEP)
    with pytest.raises(MetadataProblem, match="nested 100000 levels") as err:
        read_snapshot(path)
    assert err.value.code == "SNAPSHOT_MALFORMED"
    root = shutil.copytree(TABLE, tmp_path / "t")
    (root / "snapshot" / "snapshot-2").write_text(DEEP)
    done = run_cli("validate", str(root), "--report", "json")
    assert_no_crash(done)
    assert done.returncode == 1
    codes = {f["code"] for r in json.loads(done.stdout)["files"] for f in r["findings"]}
    assert "SNAPSHOT_MALFORMED" in codes


SCHEMA = {
    "version": 3,
    "id": 0,
    "fields": [{"id": 0, "name": "k", "type": "INT NOT NULL"}, {"id": 1, "name": "dt", "type": "STRING"}],
    "highestFieldId": 1,
    "partitionKeys": ["dt"],
    "primaryKeys": [],
    "options": {"bucket": "-1"},
}


def changed(**parts) -> str:
    return json.dumps(SCHEMA | parts)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (DEEP, "nested 100000 levels"),
        ('{"id": 0, "fields": [], "options": ' + "[" * 5000 + "]" * 5000 + "}", "nested 5001 levels"),
        (changed(partitionKeys=["nope"]), "partitionKeys[0]: 'nope' is not a column"),
        (changed(primaryKeys=["k", "gone"]), "primaryKeys[1]: 'gone' is not a column"),
        (changed(primaryKeys="k"), "primaryKeys: a JSON str"),
        (changed(partitionKeys=[3]), "partitionKeys[0]: 3 is not a column"),
        (changed(options=["bucket", "2"]), "options: a JSON list"),
        (changed(options={"bucket": {"n": 2}}), "options.bucket: a JSON dict"),
        (changed(fields={"k": "INT"}), "fields: missing, or not a list"),
        (changed(fields=["k INT"]), "fields[0]: not an object"),
        (changed(fields=[{"id": 0, "name": 5, "type": "INT"}]), "fields[0].name: 5 is not a string"),
        (changed(fields=[{"id": "x", "name": "k", "type": "INT"}]), "fields[0].id: 'x' is not an integer"),
        (changed(fields=[{"id": 0, "name": "k", "type": 5}], partitionKeys=[]), "fields[0].type"),
        (changed(fields=[{"id": 0, "name": "k", "type": {"type": 5}}], partitionKeys=[]), "fields[0].type"),
        (changed(id=None), "id: None is not an integer"),
        (changed(id=1e400), "id: inf is not an integer"),
        ("[1, 2]", "<root>: a JSON list"),
        ("{", "not JSON"),
    ],
)
def test_schema_shape_errors_name_the_field(text, field):
    with pytest.raises(UsageError) as err:
        parse_schema(text, "schema/schema-0")
    assert field in str(err.value)
    assert str(err.value).startswith("schema/schema-0: not a Paimon schema file")


def test_a_good_schema_still_parses():
    schema = parse_schema(changed(id="0", options={"bucket": 2}), "s")
    assert (schema.id, schema.partition_keys, schema.options) == (0, ["dt"], {"bucket": "2"})
    assert [(f.id, f.name, f.nullable) for f in schema.fields] == [(0, "k", False), (1, "dt", True)]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (changed(partitionKeys=["nope"]), "partitionKeys[0]"),
        (changed(options=["bucket", "2"]), "options"),
        (DEEP, "nested 100000 levels"),
    ],
)
def test_cli_on_a_table_with_a_damaged_schema(tmp_path, text, field):
    root = shutil.copytree(TABLE, tmp_path / "t")
    (root / "schema" / "schema-0").write_text(text)
    done = run_cli("validate", str(root))
    assert_no_crash(done)
    assert done.returncode == 2
    assert field in done.stdout + done.stderr


# ------------------------------------------------------------------------------------------- arguments


def test_long_hex_arguments_are_always_hex(capsys):
    digits = "3a30" * 5000  # 20000 digits: far past any file-name limit
    for args in (["validate", f"hex:{digits}"], ["inspect", f"hex:{digits}", "--kind", "roaring32"]):
        code = cli.main(args)
        out = capsys.readouterr()
        assert code in (1, 2)
        assert "name too long" not in out.out + out.err
        assert "internal error" not in out.out + out.err
    assert cli.main(["validate", "hex:" + "0" * 4001]) == 2  # odd: not bytes
    assert "even number of hex digits" in capsys.readouterr().out


def test_a_hex_argument_is_named_by_its_first_bytes(capsys):
    digits = "00" * 3000
    assert cli.main(["validate", f"hex:{digits}"]) == 2
    out = capsys.readouterr().out
    assert "(3000 bytes)" in out
    assert digits not in out


@pytest.mark.parametrize("command", ["validate", "inspect", "query"])
def test_a_file_name_the_os_refuses_is_unusable_input(command, capsys):
    """A 300-character name (ENAMETOOLONG) and a name with NUL: exit 2 with the reason, not an internal error."""
    for name in ("a" * 300, "a\x00b"):
        args = [command, name] + (
            ["--where", "c = 1", "--kind", "bloom-filter", "--type", "INT"] if command == "query" else []
        )
        assert cli.main(args) == 2
        out = capsys.readouterr()
        assert "internal error" not in out.out + out.err


def test_output_into_a_missing_directory(tmp_path, capsys):
    out = tmp_path / "no" / "such" / "report.json"
    assert cli.main(["validate", str(TABLE), "--report", "json", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err
    assert "internal error" not in err
    case = tmp_path / "c.json"
    case.write_text(json.dumps({"case_format": 1, "kind": "roaring32", "ranges": [[1, 3]]}))
    assert cli.main(["encode", str(case), "-o", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not out.parent.exists()  # nothing is created
    assert cli.main(["validate", str(TABLE), "-o", str(tmp_path)]) == 2  # a directory: cannot be written
    assert "cannot write" in capsys.readouterr().err


def test_deep_json_cases_and_values(tmp_path, capsys):
    case = tmp_path / "deep.json"
    case.write_text('{"case_format": 1, "kind": "roaring32", "ranges": ' + DEEP + "}")
    assert cli.main(["encode", str(case), "-o", str(tmp_path / "o")]) == 2
    assert "nested" in capsys.readouterr().err
    assert cli.main(["hash", "--types", "INT", "--values", DEEP]) == 2
    assert "nested" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------- damaged bytes


def golden_targets() -> list[tuple[Path, list[str], str]]:
    """Every golden binary with the CLI arguments its sidecar implies, and every corpus file with its row's."""
    out = []
    for side in sorted(GOLDEN.glob("*/*/*.json")):
        path = side.with_suffix(".bin")
        if not path.is_file():
            continue
        case = json.loads(side.read_text())
        types = None if "must_reject" in case else get(case["kind"]).case_types(case)
        args = ["--kind", case["kind"]]
        if isinstance(types, dict):
            args += ["--types", ",".join(f"{k}={v}" for k, v in types.items())]
        elif types is not None:
            args += ["--type", str(types)]
        out.append((path, args, case["kind"]))
    for line in (require_corpus() / "MANIFEST.tsv").read_text().splitlines()[1:]:
        cols = line.split("\t")
        if cols[5] == "table":
            continue
        kind = cols[5].split()[0]
        extra = [str(CORPUS / a) if a.startswith("files/") else a for a in json.loads(cols[8])]
        out.append((CORPUS / cols[0], extra if "--kind" in extra else ["--kind", kind, *extra], kind))
    return out


def mutants(data: bytes, rnd: random.Random) -> list[bytes]:
    """Truncations (empty, inside the header, halfway, one byte short) and byte flips / big words."""
    out = [data[:n] for n in sorted({0, 1, 5, 9, len(data) // 2, len(data) - 1}) if n < len(data)]
    for _ in range(4):
        b = bytearray(data)
        if not b:
            break
        at = rnd.randrange(len(b))
        if rnd.random() < 0.5:
            b[at] ^= 1 << rnd.randrange(8)
        else:
            at -= at % 4
            b[at : at + 4] = rnd.choice([b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff", b"\x80\x00\x00\x00"])[: len(b) - at]
        out.append(bytes(b))
    return out


def test_damaged_goldens_and_corpus_files_never_end_in_an_internal_error(tmp_path, monkeypatch, capsys):
    """The CLI (in process) over damaged copies of every golden binary and corpus file: every outcome is a
    finding, a LayoutError or a usage error; an exception outside the kit's hierarchy fails the test."""
    crashes: list[str] = []
    real = errors.InternalError.__init__

    def record(self, file: str, field: str, cause: BaseException) -> None:
        crashes.append(f"{type(cause).__name__}: {cause} ({CURRENT[0]})")
        real(self, file, field, cause)

    CURRENT = [""]
    monkeypatch.setattr(errors.InternalError, "__init__", record)
    rnd = random.Random(20240501)
    target = tmp_path / "x.bin"
    targets = golden_targets()
    assert len(targets) > 200
    assert set(LAYOUTS) <= {kind for _, _, kind in targets}, "every layout the registry knows is damaged here"
    for path, args, kind in targets:
        for i, data in enumerate(mutants(path.read_bytes(), rnd)):
            target.write_bytes(data)
            CURRENT[0] = f"{path.name} mutant {i}"
            commands = [["validate", str(target), *args], ["inspect", str(target), "--json", *args]]
            if kind in ("file-index", "bloom-filter", "bitmap", "range-bitmap", "bsi"):
                column = "c" if kind != "file-index" else next((a.split("=")[0] for a in args if "=" in a), "c")
                lone = ["--column", "c"] if kind != "file-index" else []
                commands.append(["query", str(target), "--where", f"`{column}` > 5", *args, *lone])
            for command in commands:
                assert cli.main(command) in (0, 1, 2)
            capsys.readouterr()
    assert crashes == []


@pytest.mark.parametrize("magic", ["5e43f2d0", "d1d33964"])
def test_a_vector_of_the_magic_alone(tmp_path, magic, capsys):
    """Length word 4: the blob is the magic and no bitmap (CRoaring's deserialize raised an IndexError)."""
    import struct
    import zlib

    from paimon_conform.core.errors import LayoutError
    from paimon_conform.layouts.deletion_vectors import entry as dv

    blob = bytes.fromhex(magic)
    data = b"\x01" + struct.pack(">I", 4) + blob + struct.pack(">I", zlib.crc32(blob))
    with pytest.raises(LayoutError) as err:
        dv.read_vector(data, 1, 4 if magic == "5e43f2d0" else 12)
    assert (err.value.code, err.value.offset) == ("TRUNCATED", 9)
    with pytest.raises(LayoutError) as err:
        dv.load(data)
    assert (err.value.code, err.value.path) == ("TRUNCATED", "vectors[0].blob.bitmap")
    path = tmp_path / "dv.bin"
    path.write_bytes(data)
    assert cli.main(["validate", str(path)]) == 1
    assert "TRUNCATED [must]" in capsys.readouterr().out
