"""The size report at the end of a run (tests/size_report.py) names the largest modules and the fullest folders."""

from __future__ import annotations

from pathlib import Path

from size_report import size_lines


def test_the_report_names_the_largest_modules_first_and_the_fullest_folders(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text('"""The package."""\n')
    (package / "big.py").write_text("x = 1\n" * 30)
    for name in ("a", "b", "c"):
        (package / "sub" / f"{name}.py").write_text("y = 2\n" * 3)
    assert size_lines(package, modules=2, folders=2) == [
        "largest modules (lines): pkg/big.py 30, pkg/sub/a.py 3",
        "most modules in a folder: pkg/sub/ 3, pkg/ 2",
    ]


def test_a_long_report_breaks_only_between_two_modules() -> None:
    """Each line of the real report fits 120 columns and ends at a count: no name is cut from its size."""
    lines = size_lines()
    assert len(lines) >= 2
    assert all(len(line) <= 120 and line.rstrip(",")[-1].isdigit() for line in lines)
