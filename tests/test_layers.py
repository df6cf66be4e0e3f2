"""The architecture holds: import-linter's contracts (pyproject.toml) are kept.

The core stays UI-free and layered by subsystem, widgets never import a screen
or the app, the MCP server is a shell over the core. A second test proves the
checker can fail.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def lint_imports(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    return subprocess.run([command, "--no-cache", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def test_the_layering_contracts_are_kept() -> None:
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_broken_contract_fails_the_check(tmp_path: Path) -> None:
    """A contract the code breaks on purpose (widgets do read the view model) must fail."""
    config = tmp_path / "broken.toml"
    config.write_text(
        "[tool.importlinter]\n"
        'root_packages = ["notebook_app"]\n'
        "[[tool.importlinter.contracts]]\n"
        'name = "widgets never read the model (false on purpose)"\n'
        'type = "forbidden"\n'
        'source_modules = ["notebook_app.app.widgets"]\n'
        'forbidden_modules = ["notebook_app.app.view_model.notebook"]\n'
    )
    result = lint_imports(str(config))
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and "notebook_app.app.widgets" in result.stdout


def test_every_package_face_is_its_docstring_alone() -> None:
    """Packages re-export nothing: a name is imported from the module that defines it (issue 35).

    Faces that loaded names lazily hid the code from the type checker and from go-to-definition,
    and offered 86 names twice; a face that only documents its package cannot.
    """

    faces = {}
    for init in sorted((REPO / "notebook_app").rglob("__init__.py")):
        body = ast.parse(init.read_text(encoding="utf-8")).body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        body = [
            node
            for node in body
            if not (isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__version__")
        ]
        if body:
            faces[str(init.relative_to(REPO))] = [type(node).__name__ for node in body]
    assert not faces, f"package faces that hold more than a docstring: {faces}"


def imports_inside_functions_without_an_edge(root: Path) -> list[str]:
    """Each import inside a function under ``root`` whose first line does not say ``# lazy: <edge>``."""
    missing = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        functions = (ast.FunctionDef, ast.AsyncFunctionDef)
        for function in (node for node in ast.walk(ast.parse(source)) if isinstance(node, functions)):
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom) and "# lazy: " not in lines[node.lineno - 1]:
                    missing.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return sorted(set(missing))


def test_every_import_inside_a_function_names_its_heavy_edge() -> None:
    """Lazy loading stays only at the measured heavy edges (issue 35): the write path, the doctor, tidy, a
    host's loader, detect-secrets, the tokenizer, rapidfuzz, platformdirs, the MCP SDK, textual-serve, and in
    the CLI each verb's own modules. Any other import sits at the module's top; a new late import says why
    with ``# lazy: <edge>`` on its (first) line, and tests/app/test_start_imports.py measures the start."""
    assert imports_inside_functions_without_an_edge(REPO / "notebook_app") == []


def test_an_import_inside_a_function_without_its_edge_is_found(tmp_path: Path) -> None:
    package = tmp_path / "package"
    package.mkdir()
    (package / "module.py").write_text(
        "import json\n\n\ndef late():\n    import re\n    from os import (  # lazy: the os edge\n        sep,\n    )\n"
    )
    assert imports_inside_functions_without_an_edge(package) == ["package/module.py:5"]
