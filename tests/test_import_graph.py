"""The import graph at run time: no circle anywhere, and the shells see the core through its faces.

Built with grimp (it comes with import-linter), imports under ``if TYPE_CHECKING:``
left out: a name imported for its type only is no dependency at run time. A
circle between two packages means their layers are not real (the core's are
pyproject.toml's ``core-layers`` contract); a circle between two modules is one
between packages seen closer. Each check is also run on a graph with a circle
planted, so that it is seen to fail.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

import grimp

ROOT = "notebook_app"
CORE = "notebook_app.core"
SHELLS = ("notebook_app.app", "notebook_app.cli", "notebook_app.mcp", "notebook_app.__main__")


@cache
def graph(*, type_checking: bool = False) -> grimp.ImportGraph:
    return grimp.build_graph(ROOT, exclude_type_checking_imports=not type_checking, cache_dir=None)


def circles(graph: grimp.ImportGraph) -> dict[str, list[list[str]]]:
    """Per package, each circle among its children (modules and subpackages), an import seen at both ends' children.

    ``a.b.x -> a.c.y`` is an edge ``a.b -> a.c`` among the children of ``a``:
    so a circle between two modules of one package, and one between two
    packages through any of their modules, are both found.
    """
    edges: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            a, b = importer.split("."), imported.split(".")
            common = 0
            while common < min(len(a), len(b)) and a[common] == b[common]:
                common += 1
            if a[0] != ROOT or b[0] != ROOT or common in (len(a), len(b)):
                continue  # outside the package, or a package and its own module
            parent = ".".join(a[:common])
            edges[parent][".".join(a[: common + 1])].add(".".join(b[: common + 1]))
    found = {parent: strongly_connected(children) for parent, children in edges.items()}
    return {parent: sorted(components) for parent, components in found.items() if components}


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The components of more than one node (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return components


@contextmanager
def planted(graph: grimp.ImportGraph, importer: str, imported: str) -> Iterator[None]:
    graph.add_import(importer=importer, imported=imported)
    try:
        yield
    finally:
        graph.remove_import(importer=importer, imported=imported)


def test_no_package_and_no_module_imports_itself_back_at_run_time() -> None:
    assert circles(graph()) == {}


def test_a_circle_planted_between_packages_or_modules_is_found() -> None:
    """The read path importing the write path, and the soul's names importing the soul, are both circles."""
    with planted(graph(), f"{CORE}.text.hidden", f"{CORE}.record.storage"):
        found = circles(graph())
    assert any({f"{CORE}.text", f"{CORE}.record"} <= set(circle) for circle in found.get(CORE, []))
    with planted(graph(), f"{CORE}.home.names", f"{CORE}.home.soul"):
        found = circles(graph())
    assert list(found) == [f"{CORE}.home"]
    assert {f"{CORE}.home.names", f"{CORE}.home.soul"} <= set(found[f"{CORE}.home"][0])


def faces() -> set[str]:
    """``notebook_app.core`` and each package directly in it: the
    names the app, the CLI and the MCP server may import."""
    children = graph().find_children(CORE)
    return {CORE, *(child for child in children if graph().find_children(child))}


def inner_imports(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    shells = [module for module in graph.modules if module.startswith(SHELLS)]
    return sorted(
        (module, imported)
        for module in shells
        for imported in graph.find_modules_directly_imported_by(module)
        if imported.startswith(f"{CORE}.") and imported not in faces()
    )


def test_the_shells_import_the_core_through_its_faces_only() -> None:
    """A face (a package's ``__init__``) says what the package offers; what lies behind it may move freely."""
    with_types = graph(type_checking=True)  # a type is named through the face too
    assert inner_imports(with_types) == []
    with planted(with_types, "notebook_app.cli.common", f"{CORE}.record.storage"):
        assert inner_imports(with_types) == [("notebook_app.cli.common", f"{CORE}.record.storage")]


FACE_NAMES = """
import importlib, json, sys
found = {}
for face in sys.argv[1:]:
    module = importlib.import_module(face)
    for name in module.__all__:
        getattr(module, name)  # a lazy face loads the module on first use: a wrong home raises here
    found[face] = list(module.__all__)
print(json.dumps(found))
"""


def test_every_name_a_face_offers_loads_and_none_is_also_one_of_its_modules() -> None:
    """Importing module ``x`` sets its package's attribute ``x``: a
    name ``x`` of the face would turn into the module."""
    names = sorted(faces())
    out = subprocess.run([sys.executable, "-c", FACE_NAMES, *names], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    offered = json.loads(out.stdout)
    assert sorted(offered) == names
    clashes = {
        face: sorted(set(offered[face]) & {child.rpartition(".")[2] for child in graph().find_children(face)})
        for face in names
    }
    assert {face: clash for face, clash in clashes.items() if clash} == {}


def past_the_face(graph: grimp.ImportGraph, package: str, module: str) -> list[str]:
    """The modules outside ``package`` that import its ``module`` directly, past the package's face."""
    return sorted(
        importer
        for importer in graph.find_modules_that_directly_import(f"{package}.{module}")
        if not importer.startswith(f"{package}.")
    )


def test_the_core_reads_git_history_through_the_store_face() -> None:
    """The doctor's git rule, the redaction and the history view's commits ask the store's face for its git
    history: what the store offers is the names its face lists."""
    assert past_the_face(graph(), f"{CORE}.record.git", "history") == []
    with planted(graph(), f"{CORE}.doctor.check", f"{CORE}.record.git.history"):
        assert past_the_face(graph(), f"{CORE}.record.git", "history") == [f"{CORE}.doctor.check"]
