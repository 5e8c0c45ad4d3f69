"""Damaged input ends in a finding or a usage error naming the file and field, never in a traceback or an
internal error: deep JSON, schema files of the wrong shape, long hex arguments, unwritable outputs, and
truncations and byte flips of every golden binary and every third-party corpus file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from support import background
from support.environment import GOLDEN
from support.jobs import damaged_goldens_job

from paimon_conform import cli
from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.registry import LAYOUTS
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


def test_damaged_goldens_and_corpus_files_never_end_in_an_internal_error():
    """The CLI over damaged copies of every golden binary and corpus file (support/damaged_goldens.py, in a child
    process started beside the first tests): every outcome is a finding, a LayoutError or a usage error; an
    exception outside the kit's hierarchy fails the test."""
    result = background.result("damaged-goldens", damaged_goldens_job)
    assert result["targets"] > 200
    assert set(LAYOUTS) <= set(result["kinds"]), "every layout the registry knows is damaged here"
    assert result["runs"] > 2 * result["targets"]
    assert result["bad_codes"] == []
    assert result["crashes"] == []


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
