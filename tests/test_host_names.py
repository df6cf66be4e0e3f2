"""No host is told apart by its name outside ``core/hosts``: the code asks the host's object (issue 35).

An AST check over ``notebook_app`` (the hosts package and data files aside): no
comparison (``==``, ``!=``, ``in``, ``not in``), ``match`` case, collection of
literals or dict key holds a host id as a string literal. The words a person
reads come from :attr:`.Host.title`, the rest from the host's other members.
A second test proves the check fails on a comparison written on purpose.

A third: outside a host's own package no module imports its object
(``HERMES``, ``OPENCLAW``, ``CLAUDE_CODE``, ``TOOLNEXUS``); the registry
(``core/hostbase/registry.py``) is the one place that loads them, by its list of
modules, and everything else asks it (issue 35: a new host touches only its package).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "notebook_app"
HOSTS_PACKAGE = PACKAGE / "core" / "hosts"
HOST_IDS = frozenset({"toolnexus", "toolnexus-py", "openclaw", "hermes", "claude-code"})
TESTS = PACKAGE.parent / "tests"
HOST_OBJECTS = {
    "HERMES": "hermes",
    "OPENCLAW": "openclaw",
    "CLAUDE_CODE": "claude_code",
    "TOOLNEXUS": "toolnexus",
    "TOOLNEXUS_PY": "toolnexus",
}
"""Each shipped host's object, by the name its package binds it to, and that package (under ``core/hosts``)."""


def _is_id(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in HOST_IDS


def _holds_id(node: ast.AST) -> bool:
    """A tuple, list or set of literals (or ``frozenset({...})``) with a host id in it."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "set"):
        return any(_holds_id(arg) for arg in node.args)
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(_is_id(item) for item in node.elts)


def host_names_in(source: str, filename: str = "<source>") -> list[str]:
    """Each place in ``source`` that tells a host apart by its id, as ``file:line: what``."""
    found: dict[int, str] = {}  # one finding a line: a compared tuple is a collection too
    for node in ast.walk(ast.parse(source, filename)):
        line = node.pattern.lineno if isinstance(node, ast.match_case) else getattr(node, "lineno", 0)
        where = f"{filename}:{line}"
        if line in found:
            continue
        if isinstance(node, ast.Compare):
            if any(_is_id(side) or _holds_id(side) for side in (node.left, *node.comparators)):
                found[line] = f"{where}: a host id compared"
        elif isinstance(node, ast.match_case):
            if any(_is_id(sub) for sub in ast.walk(node.pattern)):
                found[line] = f"{where}: a host id as a match case"
        elif isinstance(node, ast.Dict):
            if any(_is_id(key) for key in node.keys):
                found[line] = f"{where}: a host id as a dict key"
        elif _holds_id(node):
            found[line] = f"{where}: a host id in a collection of names"
    return [found[line] for line in sorted(found)]


def _product_files() -> list[Path]:
    return [path for path in sorted(PACKAGE.rglob("*.py")) if not path.is_relative_to(HOSTS_PACKAGE)]


def test_no_host_is_told_apart_by_its_name_outside_the_hosts_package() -> None:
    found = [
        hit
        for path in _product_files()
        for hit in host_names_in(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
    ]
    assert found == [], "ask the host's object (core/hostbase/registry.py: host(id)) instead:\n" + "\n".join(found)


def test_the_check_finds_each_way_of_telling_a_host_by_name() -> None:
    """Broken once on purpose: each form the check forbids, written as the code once wrote it."""
    source = "\n".join(
        (
            'if opening.host == "toolnexus": pass',
            'if name in ("hermes", "openclaw"): pass',
            'TITLES = {"claude-code": "Claude Code"}',
            'OWN = frozenset({"hermes"})',
            'match spec:\n    case "openclaw": pass',
            'if "toolnexus-py" != profile.name: pass',
        )
    )
    assert len(host_names_in(source)) == 6
    assert host_names_in('title = host("hermes").title\nprint("OpenClaw")') == []


def host_objects_imported(source: str, filename: str = "<source>", package: str | None = None) -> list[str]:
    """Each import in ``source`` of a host's object (``from ... import HERMES``) that is not its own package's
    (``package``: the host package the source is in, None: none), as ``file:line: what``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                owner = HOST_OBJECTS.get(alias.name)
                if owner is not None and owner != package:
                    found.append(f"{filename}:{node.lineno}: imports {alias.name}, {owner}'s object")
    return found


def _host_package(path: Path) -> str | None:
    """The host package (``hermes``) ``path`` is in, or None."""
    if not path.is_relative_to(HOSTS_PACKAGE):
        return None
    return path.relative_to(HOSTS_PACKAGE).parts[0]


def test_no_module_imports_a_host_object_outside_that_hosts_package() -> None:
    files = [*sorted(PACKAGE.rglob("*.py")), *sorted(TESTS.rglob("*.py"))]
    found = [
        hit
        for path in files
        for hit in host_objects_imported(
            path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)), _host_package(path)
        )
    ]
    assert found == [], "ask the registry (core/hostbase/registry.py: host(id), hosts()) instead:\n" + "\n".join(found)


def test_the_import_check_finds_a_host_object_imported_elsewhere() -> None:
    """Broken once on purpose: choose.py's old imports, and the same import allowed in the host's own package."""
    source = "\n".join(
        (
            "from notebook_app.core.hosts.hermes.host import HERMES",
            "from notebook_app.core.hosts.openclaw.host import OPENCLAW as CLAW",
            "from notebook_app.core.hosts.claude_code.host import CLAUDE_CODE, ClaudeCode",
        )
    )
    assert len(host_objects_imported(source)) == 3
    assert host_objects_imported("from notebook_app.core.hosts.hermes.host import HERMES", package="hermes") == []
    assert host_objects_imported("from notebook_app.core.hostbase.registry import host") == []


PORTABLE = PACKAGE / "portable"
HOST_PACKAGES = frozenset(HOST_OBJECTS.values())


def host_members_named(source: str, filename: str = "<source>") -> list[str]:
    """Each place in ``source`` that names one host: a host's enum member or object (``Host.HERMES``,
    ``CLAUDE_CODE``), or an import of a host's own package (``core.hosts.hermes``), as ``file:line: what``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and node.attr in HOST_OBJECTS:
            found.append(f"{where}: names {node.attr}")
        elif isinstance(node, ast.Name) and node.id in HOST_OBJECTS:
            found.append(f"{where}: names {node.id}")
        elif isinstance(node, ast.ImportFrom | ast.Import):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
            for module in modules:
                parts = module.split(".")
                if parts[:3] == ["notebook_app", "core", "hosts"] and parts[3:4] and parts[3] in HOST_PACKAGES:
                    found.append(f"{where}: imports {module}, one host's own package")
    return found


def test_portable_names_no_host_it_moves_a_persona_between() -> None:
    """Export and import ask the host's object (:attr:`.Host.export` and its ``export_*`` methods): a new host
    (Codex, Gemini CLI) is its package and the data it ships, never a branch in ``portable``."""
    found = [
        hit
        for path in sorted(PORTABLE.rglob("*.py"))
        for hit in host_members_named(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
    ]
    assert found == [], "ask the host's object (registry.host(id): its export layout) instead:\n" + "\n".join(found)


def test_the_portable_check_finds_a_host_named_by_its_member_or_package() -> None:
    """Broken once on purpose: the forms portable once held."""
    source = "\n".join(
        (
            "if host is Host.HERMES: pass",
            "builder.blind = host is not Host.CLAUDE_CODE",
            "spec = OPENCLAW.id",
            "from notebook_app.core.hosts.claude_code.home import INSTRUCTIONS",
            "import notebook_app.core.hosts.hermes.host",
        )
    )
    assert len(host_members_named(source)) == 5
    assert host_members_named("from notebook_app.core.hosts.named import load_as\nhost.export.stores") == []
