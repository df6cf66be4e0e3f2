"""The import graph at run time: no circle anywhere.

Built with grimp (it comes with import-linter), imports under ``if TYPE_CHECKING:``
left out: a name imported for its type only is no dependency at run time. A
circle between two packages means their layers are not real (the core's are
pyproject.toml's ``core-layers`` contract); a circle between two modules is one
between packages seen closer. Each check is also run on a graph with a circle
planted, so that it is seen to fail. (The faces these tests once held are gone:
every module imports the defining module, tests/test_layers.py holds that each
``__init__.py`` is its docstring alone, and ruff's TID252 refuses relative imports.)
"""

from __future__ import annotations

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
