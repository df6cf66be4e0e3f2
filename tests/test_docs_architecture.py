"""Every path docs/architecture.md names in its tree and its "Where is X" table exists in the repository.

The page drifted once (the doctor's rules drawn under ``tidy/``, faces described
after they were gone); a moved or renamed module must fail here, not mislead a
reader. Links are checked by tests/test_docs_links.py; this checks the paths
written as code.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "architecture.md"
CODE = re.compile(r"`([^`\s]+)`")
SUFFIXES = (".py", ".md", ".toml", ".tcss", ".html")


def section(text: str, heading: str) -> str:
    """The text under ``## heading``, up to the next heading of that level."""
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_paths(text: str) -> list[str]:
    """The paths written as code in the "Where" column of the "Where is X" table: a folder ends in ``/``."""
    paths = []
    for row in section(text, "Where is X").splitlines():
        cells = row.split("|")
        if len(cells) < 4 or set(cells[2].strip()) <= {"-"}:
            continue
        paths += [code for code in CODE.findall(cells[2]) if "/" in code or code.endswith(SUFFIXES)]
    return paths


def tree_paths(text: str) -> list[str]:
    """The folders of the tree block, each from its indentation: ``  core/`` then ``    fs/`` is ``core/fs/``."""
    block = section(text, "The tree").split("```text\n", 1)[1].split("```", 1)[0]
    folders: list[str] = []
    stack: list[tuple[int, str]] = []
    for line in block.splitlines():
        named = re.match(r"^( *)(\S+/)(?:\s|$)", line)
        if not named:
            continue  # a continued description
        indent, name = len(named.group(1)), named.group(2)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, name))
        folders.append("".join(part for _, part in stack[1:]))  # under notebook_app/, the first line
    return [folder for folder in folders if folder]


def missing(paths: list[str], root: Path = REPO) -> list[str]:
    """The paths that name nothing under ``root / "notebook_app"``, nor under ``root`` (``pyproject.toml``).

    A path that ends in ``/`` must be a folder, any other a file.
    """
    return [
        path
        for path in paths
        if not any(
            (base / path).is_dir() if path.endswith("/") else (base / path).is_file()
            for base in (root / "notebook_app", root)
        )
    ]


def test_every_path_in_the_where_is_x_table_exists() -> None:
    paths = table_paths(PAGE.read_text(encoding="utf-8"))
    assert len(paths) > 40  # the table was read, not skipped
    assert missing(paths) == []


def test_every_folder_of_the_tree_exists() -> None:
    folders = tree_paths(PAGE.read_text(encoding="utf-8"))
    assert "core/doctor/rules/" in folders and "cli/" in folders
    assert missing(folders) == []


def test_a_path_that_moved_is_caught(tmp_path: Path) -> None:
    """The checker itself can fail: a module gone, a folder drawn under the wrong parent, a file written as a folder."""
    (tmp_path / "notebook_app" / "core" / "doctor" / "rules").mkdir(parents=True)
    (tmp_path / "notebook_app" / "core" / "doctor" / "check.py").write_text("")
    page = (
        "## The tree\n\n```text\nnotebook_app/\n  core/               the core\n    doctor/           the doctor\n"
        "      rules/          its rules\n    tidy/             tidy\n      rules/          drawn here once\n```\n\n"
        "## Where is X\n\n| What | Where |\n| --- | --- |\n"
        "| the doctor | `core/doctor/check.py` (`Doctor`), `core/doctor/rules/`, `core/doctor/gone.py` |\n"
        "| tidy | `core/doctor/check.py/` (`tidy`), a `.memory.journal` slot |\n\n## Next\n\n`core/not/checked.py`\n"
    )
    assert missing(table_paths(page), tmp_path) == ["core/doctor/gone.py", "core/doctor/check.py/"]
    assert missing(tree_paths(page), tmp_path) == ["core/tidy/", "core/tidy/rules/"]
