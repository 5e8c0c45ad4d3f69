"""The package's shape holds: its import graph has no cycle, and every import follows the declared
direction (PARTS below: core, formats, layouts, the table model, then read, then write and validate,
then Spark and the CLI). Every import of a `paimon_conform` module by another, at the top of a module
or inside a function (a deferred import is still an arrow), is read from the source with `ast`, so
that each module can be read, tested and moved knowing only what it imports. Imports under
`if TYPE_CHECKING:` name types for the checker only and are not arrows.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

from support.environment import ROOT

EVIDENCE = ("contract",)

PACKAGE = ROOT / "src" / "paimon_conform"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom, files: dict[str, Path]) -> list[str]:
    """The modules an `import from` depends on: `from . import a, b` on the submodules a and b (the package
    itself is every submodule's parent, not an arrow), `from .x import f` on x."""
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    names = [f"{target}.{a.name}" for a in node.names]
    submodules = [n for n in names if n in files]
    return submodules if len(submodules) == len(names) else [target, *submodules]


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node outside `if TYPE_CHECKING:` blocks."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def import_graph(files: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """Module → the modules of `files` (default: the package's) it imports, anywhere in its source."""
    files = files if files is not None else {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                targets = _resolve(module, is_package, node, files)
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[module] |= {t for t in targets if t in files and t != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_deferred_imports():
    """Control: imports inside functions count, and relative imports resolve."""
    graph = import_graph()
    assert (
        "paimon_conform.table.write.commit" in graph["paimon_conform.table.write.reference_table"]
    )  # inside write_table
    assert "paimon_conform.core.errors" in graph["paimon_conform.table.paths"]


def test_the_package_has_no_import_cycle():
    assert cycles(import_graph()) == []


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# The declared direction: each part of the package and the parts it may import (itself included).
# Lower parts never import higher ones: the core knows nothing of layouts, layouts nothing of tables,
# and of the table's roles, read uses only the model, write and validate use read, never each other.
# Each file format (formats/avro, orc, parquet) is a part of its own: it uses the core and the formats'
# shared modules, never another format; everything above the formats may use each (FORMATS below).
FORMATS = {"formats.avro", "formats.orc", "formats.parquet"}
PARTS = {
    "core": {"core"},
    **{f: {"core", "formats", f} for f in FORMATS},
    "formats": {"core", "formats", *FORMATS},
    "layouts": {"core", "formats", "layouts"},
    "table": {"core", "formats", "layouts", "table"},
    "table.read": {"core", "formats", "layouts", "table", "table.read"},
    "table.write": {"core", "formats", "layouts", "table", "table.read", "table.write"},
    "table.validate": {"core", "formats", "layouts", "table", "table.read", "table.validate"},
    "spark": {"core", "formats", "layouts", "table", "table.read", "table.write", "table.validate", "spark"},
    "interface": {
        "core",
        "formats",
        "layouts",
        "table",
        "table.read",
        "table.write",
        "table.validate",
        "spark",
        "interface",
    },
}


def part(module: str) -> str:
    """The part a module belongs to: `paimon_conform.table.read.scan` → `table.read`, the table model's
    modules → `table`, the command line, the golden check and the sample → `interface`."""
    rest = module.removeprefix("paimon_conform").removeprefix(".").split(".")
    if rest[0] == "table" and len(rest) >= 2 and rest[1] in ("read", "write", "validate"):
        return f"table.{rest[1]}"
    if len(rest) >= 2 and f"{rest[0]}.{rest[1]}" in FORMATS:
        return f"{rest[0]}.{rest[1]}"
    if rest[0] in PARTS:
        return rest[0]
    return "interface"


def allowed(source: str) -> set[str]:
    """The parts part `source` may import: those PARTS names, and every format where it names the formats."""
    parts = PARTS[source]
    return parts | FORMATS if "formats" in parts and source not in FORMATS else parts


def against_direction(graph: dict[str, set[str]]) -> list[str]:
    """Every import from one part into a part it may not import, and every layout that imports the
    registry (the registry lists the layouts; a layout never looks itself up there)."""
    bad = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            if part(target) not in allowed(part(module)) or (
                target == "paimon_conform.layouts.registry" and module.startswith("paimon_conform.layouts.")
            ):
                bad.append(f"{module} -> {target}")
    return bad


def test_imports_follow_the_declared_direction():
    assert against_direction(import_graph()) == []


def test_imports_against_the_direction_are_found():
    """Control: an arrow upwards, one between write and validate, and a layout looking itself up in the
    registry are each reported; arrows downwards and within a part are not."""
    graph = {
        "paimon_conform.core.types": {"paimon_conform.layouts.bsi.codec"},
        "paimon_conform.table.validate.table": {"paimon_conform.table.write.commit", "paimon_conform.table.read.scan"},
        "paimon_conform.layouts.file_index.entry": {
            "paimon_conform.layouts.registry",
            "paimon_conform.layouts.bsi.entry",
            "paimon_conform.formats.paimon_columns",
        },
        "paimon_conform.cli": {"paimon_conform.table.write.commit", "paimon_conform.golden"},
        "paimon_conform.formats.orc.tail": {"paimon_conform.formats.parquet.int96", "paimon_conform.core.codecs"},
        "paimon_conform.formats.paimon_columns": {"paimon_conform.formats.orc.worker"},
        "paimon_conform.table.read.data_files": {"paimon_conform.formats.avro.container"},
    }
    assert against_direction(graph) == [
        "paimon_conform.core.types -> paimon_conform.layouts.bsi.codec",
        "paimon_conform.formats.orc.tail -> paimon_conform.formats.parquet.int96",
        "paimon_conform.layouts.file_index.entry -> paimon_conform.layouts.registry",
        "paimon_conform.table.validate.table -> paimon_conform.table.write.commit",
    ]


def test_every_package_is_installed():
    """pyproject lists the packages one by one: a new subpackage missing there would be left out of
    the wheel, and the kit would fail to import where it is installed."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    on_disk = {_module(p) for p in PACKAGE.rglob("__init__.py")}
    assert on_disk <= listed


def test_a_role_package_belongs_to_its_role():
    """The `__init__` of table/read, table/write and table/validate is in its role, not in the model: an
    import it makes is judged as that role's."""
    assert part("paimon_conform.table.read") == "table.read"
    assert part("paimon_conform.table.validate.table") == "table.validate"
    assert part("paimon_conform.table.chain") == "table"
    assert part("paimon_conform.cli") == "interface"


# --------------------------------------------------------------------------- the suite and the tools

SUITE = ROOT / "conformance"
TOOLS = ROOT / "tools"
# Scripts run as `python tools/<folder>/<script>.py`: the one place a sys.path edit stays (tools/ on the path, so
# that paimon_java imports); everything the suite runs is importable through pyproject's pytest `pythonpath`.
PATH_EDITS_ALLOWED = {
    "benchmarks.bucket_hash",
    "benchmarks.file_index_build",
    "benchmarks.spark_pipeline",
    "benchmarks.table_validate_java",
    "benchmarks.validate_memory",
    "testees.java_paimon",
    "testees.paimon_spark",
    "connector.kit_tables",
    "docs.build",
}


def _suite_files() -> dict[str, Path]:
    """Module name (as imported with conformance/ and tools/ on the path) → file, for both folders."""
    files = {}
    for top in (SUITE, TOOLS):
        for p in top.rglob("*.py"):
            if "node_modules" in p.parts or "__pycache__" in p.parts:
                continue
            parts = list(p.relative_to(top).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return files


@cache
def suite_graph() -> tuple[dict[str, set[str]], dict[str, Path]]:
    """Module → the suite and tools modules it imports (anywhere in its source); and the files."""
    files = _suite_files()
    return import_graph(files), files


def suite_rules(graph: dict[str, set[str]]) -> list[str]:
    """Arrows the suite's shape forbids: anything into conftest (fixtures only, never a library), the tools into
    the suite, anything into a test module (shared helpers live in `support`)."""
    bad = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            tool = module in TOOL_MODULES
            if target == "conftest" or (tool and target not in TOOL_MODULES) or target.startswith("test_"):
                bad.append(f"{module} -> {target}")
    return bad


def path_edits(files: dict[str, Path]) -> list[str]:
    """Modules that change sys.path (a call on sys.path, or an assignment to it)."""
    out = []
    for module, path in sorted(files.items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            target = node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else None
            if isinstance(node, ast.Assign | ast.AugAssign):
                target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                target = target.value if isinstance(target, ast.Subscript) else target
            if target is not None and ast.unparse(target) == "sys.path":
                out.append(module)
                break
    return out


TOOL_MODULES = {m for m, p in _suite_files().items() if p.is_relative_to(TOOLS)}


def test_the_suite_and_the_tools_have_no_import_cycle():
    graph, _ = suite_graph()
    assert "support.type_matrix" in graph["test_type_matrix_peers"]  # control: the graph sees the suite's arrows
    assert "paimon_java" in graph["support.java_matrix"]
    assert cycles(graph) == []


def test_conftest_is_no_library_and_the_tools_stand_below_the_suite():
    graph, _ = suite_graph()
    assert suite_rules(graph) == []


def test_suite_rules_are_found():
    """Control: an import of conftest, a tool importing the suite's support, support or a test importing a test."""
    graph = {
        "test_x": {"conftest", "support.sweep", "test_y"},
        "paimon_java": {"support.environment"},
        "support.sweep": {"test_zz_cli_on_built_tables"},
    }
    assert suite_rules(graph) == [
        "paimon_java -> support.environment",
        "support.sweep -> test_zz_cli_on_built_tables",
        "test_x -> conftest",
        "test_x -> test_y",
    ]


def test_no_sys_path_edits_but_in_script_entry_points():
    _, files = suite_graph()
    assert set(path_edits(files)) == PATH_EDITS_ALLOWED


def test_path_edits_are_found(tmp_path):
    """Control: insert, append and assignment are each an edit; reading sys.path is not."""
    samples = {
        "a": "import sys\nsys.path.insert(0, 'x')\n",
        "b": "import sys\nsys.path.append('x')\n",
        "c": "import sys\nsys.path[:0] = ['x']\n",
        "d": "import sys\nprint(sys.path)\n",
    }
    files = {}
    for name, text in samples.items():
        (tmp_path / f"{name}.py").write_text(text)
        files[name] = tmp_path / f"{name}.py"
    assert path_edits(files) == ["a", "b", "c"]


# --------------------------------------------------------------------------- what tests may assert

TIMING = re.compile(r"\b(time\.(monotonic|perf_counter|time)|monotonic|perf_counter|seconds|elapsed|duration)\b")


def wall_clock_asserts(files: dict[str, Path]) -> list[str]:
    """Asserts (and pytest.fail conditions) of test modules that read a clock or compare a duration: a test on a
    loaded machine must not fail for the wrong reason (timeouts that guard a hang are not asserts)."""
    out = []
    for module, path in sorted(files.items()):
        if not module.startswith("test_"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assert) and TIMING.search(ast.unparse(node.test)):
                out.append(f"{module}:{node.lineno}: {ast.unparse(node.test)[:80]}")
    return out


def unexplained_example_counts(files: dict[str, Path]) -> list[str]:
    """`settings(max_examples=N)` in a test module without a comment right above its decorators saying why the
    property runs other than CI's count."""
    out = []
    for module, path in sorted(files.items()):
        if not module.startswith("test_"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.decorator_list:
                continue
            if not any("max_examples" in ast.unparse(d) for d in node.decorator_list):
                continue
            first = min(d.lineno for d in node.decorator_list)
            if not lines[first - 2].lstrip().startswith("#"):
                out.append(f"{module}:{first}: {node.name}")
    return out


def test_no_wall_clock_assertion_in_a_test():
    _, files = suite_graph()
    assert wall_clock_asserts(files) == []


def test_every_fixed_example_count_says_why():
    _, files = suite_graph()
    assert unexplained_example_counts(files) == []


def test_clock_asserts_and_bare_example_counts_are_found(tmp_path):
    """Control: a duration compared in an assert, and a fixed example count with no comment, are each found."""
    (tmp_path / "test_a.py").write_text(
        "import time\nfrom hypothesis import settings\n\n"
        "def test_t():\n    t0 = time.monotonic()\n    assert time.monotonic() - t0 < 3\n\n"
        "@settings(max_examples=5)\ndef test_p():\n    pass\n\n"
        "# ten: each example is slow\n@settings(max_examples=10)\ndef test_q():\n    pass\n"
    )
    files = {"test_a": tmp_path / "test_a.py"}
    assert [w.split(":", 2)[1] for w in wall_clock_asserts(files)] == ["6"]
    assert unexplained_example_counts(files) == ["test_a:8: test_p"]


# --------------------------------------------------------------------------- what each test module rests on

EVIDENCE_KINDS = {
    "java": "Java Paimon run here, or bytes a Java release wrote",
    "third-party": "another implementation or source: pyroaring, CRoaring, pyarrow / ORC C++, the corpus, peers, notes",
    "kit": "the kit against itself (round trips, parser = encoder, regeneration): detects change, not conformance",
    "contract": "the kit's own guarantees (no traceback, bounded memory, containment, its CLI and docs)",
}
JAVA_SIGNS = re.compile(
    r"paimon_java|java_releases\.resolve|java-0\.9\.0|java-1\.0|java-\*|mark\.java|JAVA\b|java_matrix|java_mutations"
    r"|JavaRead|java_paimon\.py|dynamic_bucket\"\)|support\.connector"
)


def declared_evidence(files: dict[str, Path]) -> dict[str, tuple[str, ...]]:
    """Each test module's EVIDENCE (a module-level tuple), None-free."""
    out = {}
    for module, path in sorted(files.items()):
        if not module.startswith("test_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [
            ast.literal_eval(n.value)
            for n in tree.body
            if isinstance(n, ast.Assign) and [ast.unparse(t) for t in n.targets] == ["EVIDENCE"]
        ]
        out[module] = tuple(found[0]) if found else ()
    return out


def test_every_test_module_says_what_its_expected_values_rest_on():
    """EVIDENCE in every test module, from the four kinds; a module claiming Java shows a sign of it."""
    _, files = suite_graph()
    declared = declared_evidence(files)
    assert [m for m, kinds in declared.items() if not kinds or set(kinds) - set(EVIDENCE_KINDS)] == []
    unfounded = [
        m for m, kinds in declared.items() if "java" in kinds and not JAVA_SIGNS.search(files[m].read_text("utf-8"))
    ]
    assert unfounded == []
    counts = {k: sum(k in kinds for kinds in declared.values()) for k in EVIDENCE_KINDS}
    kit_only = sorted(m for m, kinds in declared.items() if set(kinds) <= {"kit", "contract"} and "kit" in kinds)
    print(f"test modules by evidence: {counts}; resting on the kit alone: {kit_only}")
