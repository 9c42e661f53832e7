"""The floors of the house: a module imports only from its own floor or lower ones,
and no project modules import each other in a cycle.

Floors, low to high:

0. `xla_dialect`: the dialect;
1. `passes` (xla → xla) and `lowering` (out of xla, down to the llvm dialect):
   siblings, neither imports the other;
2. `runtime`: the execution engine;
3. `xla_tools`: the registry of passes, pipelines, `compile`, the drivers.

Every import counts: at module level, inside functions, under `TYPE_CHECKING`.
A module is a node of the graph (a package's `__init__.py` is the package); an
import of `a.b.c` or `from a.b import c` is an edge to the module it names
(`a.b.c` when that is a module, else `a.b`). The checker is tested on synthetic
graphs below, so a violation would fail the test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FLOORS: dict[str, int] = {"xla_dialect": 0, "passes": 1, "lowering": 1, "runtime": 2, "xla_tools": 3}
"""Top-level package → its floor."""


@dataclass(frozen=True)
class Import:
    """`importer` (a module name) imports `imported` at `file:line`."""

    importer: str
    imported: str
    file: str
    line: int

    def where(self) -> str:
        return f"{self.file}:{self.line}"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules(root: Path) -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    modules: dict[str, Path] = {}
    for package in FLOORS:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                modules[module_name(path, root)] = path
    return modules


def _resolve(name: str, modules: Mapping[str, object]) -> str | None:
    """The project module `name` refers to: itself, or its longest module prefix."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module: str, source: str, file: str, modules: Mapping[str, object], is_package: bool) -> Iterator[Import]:
    """The project imports of one module's source (every `import` node in the tree)."""
    package = module if is_package else module.rpartition(".")[0]
    nodes = sorted(
        (n for n in ast.walk(ast.parse(source, file)) if isinstance(n, (ast.Import, ast.ImportFrom))),
        key=lambda n: (n.lineno, n.col_offset),
    )
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name, modules)
                if target is not None:
                    yield Import(module, target, file, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, node.module] if node.module else base_parts)
            else:
                base = node.module or ""
            for alias in node.names:
                target = _resolve(base if alias.name == "*" else f"{base}.{alias.name}", modules)
                if target is not None:
                    yield Import(module, target, file, node.lineno)


def project_imports(root: Path) -> list[Import]:
    modules = project_modules(root)
    found: list[Import] = []
    for name, path in modules.items():
        file = str(path.relative_to(root))
        found.extend(imports_of(name, path.read_text(), file, modules, path.name == "__init__.py"))
    return [i for i in found if i.importer != i.imported]


def layer_violations(imports: list[Import], floors: Mapping[str, int]) -> list[str]:
    """An import from a lower floor into a higher one, or between the two
    packages of one floor (siblings), as `file:line: a imports b (why)`."""
    problems: list[str] = []
    for i in imports:
        src, dst = i.importer.split(".")[0], i.imported.split(".")[0]
        if src not in floors or dst not in floors or src == dst:
            continue
        if floors[dst] > floors[src]:
            why = f"floor {floors[src]} `{src}` may not import floor {floors[dst]} `{dst}`"
        elif floors[dst] == floors[src]:
            why = f"`{src}` and `{dst}` are siblings on floor {floors[src]}"
        else:
            continue
        problems.append(f"{i.where()}: {i.importer} imports {i.imported} ({why})")
    return problems


def cycles(imports: list[Import]) -> list[list[Import]]:
    """One cycle (as its edges) per strongly connected component with a loop (Tarjan)."""
    graph: dict[str, list[Import]] = {}
    for i in imports:
        graph.setdefault(i.importer, []).append(i)
        graph.setdefault(i.imported, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for edge in graph[v]:
            w = edge.imported
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found: list[list[Import]] = []
    for component in components:
        members = set(component)
        start = min(component)
        # a shortest path back to `start` inside the component (breadth first)
        paths: dict[str, list[Import]] = {start: []}
        frontier = [start]
        loop: list[Import] | None = None
        while frontier and loop is None:
            following: list[str] = []
            for v in frontier:
                for edge in graph[v]:
                    if edge.imported == start:
                        loop = [*paths[v], edge]
                        break
                    if edge.imported in members and edge.imported not in paths:
                        paths[edge.imported] = [*paths[v], edge]
                        following.append(edge.imported)
                if loop is not None:
                    break
            frontier = following
        assert loop is not None
        found.append(loop)
    return found


def describe_cycle(loop: list[Import]) -> str:
    return " -> ".join(f"{i.importer} ({i.where()} imports {i.imported})" for i in loop)


# ---------------------------------------------------------------------------
# The checker on synthetic graphs
# ---------------------------------------------------------------------------


def _edges(*pairs: tuple[str, str]) -> list[Import]:
    return [Import(a, b, a.replace(".", "/") + ".py", n + 1) for n, (a, b) in enumerate(pairs)]


def test_checker_finds_upward_and_sibling_imports() -> None:
    imports = _edges(
        ("xla_dialect.traits", "passes.canonicalization"),  # upward
        ("passes.x", "lowering.y"),  # siblings
        ("runtime.jit", "lowering.y"),  # downward: fine
        ("xla_tools.registry", "passes.x"),  # downward: fine
        ("lowering.y", "xla_tools.registry"),  # upward
    )
    problems = layer_violations(imports, FLOORS)
    assert len(problems) == 3
    assert problems[0].startswith("xla_dialect/traits.py:1: xla_dialect.traits imports passes.canonicalization")
    assert "siblings" in problems[1]
    assert problems[2].startswith("lowering/y.py:5: lowering.y imports xla_tools.registry")


def test_checker_finds_cycles() -> None:
    imports = _edges(("a.x", "a.y"), ("a.y", "a.z"), ("a.z", "a.x"), ("a.z", "a.w"), ("b.p", "b.q"))
    found = cycles(imports)
    assert len(found) == 1
    assert [i.importer for i in found[0]] == ["a.x", "a.y", "a.z"]
    assert "a.z (a/z.py:3 imports a.x)" in describe_cycle(found[0])
    assert cycles(_edges(("a.x", "a.y"), ("a.y", "a.z"))) == []


def test_checker_reads_every_kind_of_import() -> None:
    modules = {"lowering": 0, "lowering.a": 0, "lowering.b": 0, "runtime": 0, "runtime.jit": 0, "passes.c": 0}
    source = (
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "import numpy\n"
        "from . import b\n"
        "if TYPE_CHECKING:\n"
        "    from runtime.jit import JitModule\n"
        "def f():\n"
        "    import passes.c\n"
        "    from runtime import jit\n"
    )
    found = list(imports_of("lowering.a", source, "lowering/a.py", modules, False))
    assert [(i.imported, i.line) for i in found] == [
        ("lowering.b", 4),
        ("runtime.jit", 6),
        ("passes.c", 8),
        ("runtime.jit", 9),
    ]


# ---------------------------------------------------------------------------
# The project
# ---------------------------------------------------------------------------


def test_every_import_goes_down_or_stays_on_its_floor() -> None:
    problems = layer_violations(project_imports(ROOT), FLOORS)
    assert not problems, "imports against the floors:\n" + "\n".join(problems)


def test_no_import_cycles() -> None:
    found = cycles(project_imports(ROOT))
    assert not found, "import cycles:\n" + "\n".join(describe_cycle(c) for c in found)
