"""The architecture holds: import-linter's contracts (pyproject.toml) are kept.

The core stays UI-free and layered by subsystem, widgets never import a screen
or the app, the MCP server is a shell over the core. A second test proves the
checker can fail.
"""

from __future__ import annotations

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


MAX_LINES = 400


def test_no_module_of_the_package_grows_past_400_lines() -> None:
    """A smell detector: a module past 400 lines most often holds more than one responsibility."""
    long = {
        str(path.relative_to(REPO)): count
        for path in sorted((REPO / "notebook_app").rglob("*.py"))
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, (
        f"over {MAX_LINES} lines: {long}. Split by responsibility, along the seams of the design: "
        "a package of modules that each do one thing is the usual answer, not a mixin (docs/architecture.md)"
    )


MAX_MODULES = 15


def test_no_folder_of_the_package_holds_more_than_15_modules() -> None:
    """A folder of more modules than one reads at a glance is packages waiting to happen."""
    crowded = {
        str(path.relative_to(REPO)): count
        for path in sorted((REPO / "notebook_app").rglob("*"))
        if path.is_dir() and (count := len(list(path.glob("*.py")))) > MAX_MODULES
    }
    assert not crowded, (
        f"over {MAX_MODULES} modules: {crowded}; group them into packages by subsystem (docs/architecture.md)"
    )
