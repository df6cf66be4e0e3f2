"""What every test run shares: the size report at the end (tests/size_report.py)."""

from __future__ import annotations

import pytest

from size_report import size_lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Sizes are reported, not enforced: a report that cannot read the tree says so and never fails the run."""
    try:
        lines = size_lines()
    except OSError as error:
        lines = [f"no size report: {error}"]
    terminalreporter.write_sep("-", "sizes (reported, not enforced; ruff's C901 holds complexity)")
    for line in lines:
        terminalreporter.write_line(line)
