"""Fixtures for ``serve``: a real server process (:mod:`served`), and the rule for browser tests on CI.

The browser tests drive Debian's chromium with Playwright; where it is missing
they skip saying why, and on CI (``CI=true``) such a skip fails the run: the
browser tests are the only proof the page works.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from served import Server, start_serve, stop


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    server = start_serve(tmp_path)
    yield server
    assert stop(server) == 0


@pytest.fixture
def served_read_only(tmp_path: Path) -> Iterator[Server]:
    server = start_serve(tmp_path, "--read-only")
    yield server
    assert stop(server) == 0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real chromium; a skip fails the run when CI=true")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """On CI a browser test that skipped (no chromium, no Playwright) fails: it proved nothing."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and item.get_closest_marker("browser") and os.environ.get("CI") == "true":
        report.outcome = "failed"
        report.longrepr = f"CI=true: a browser test may not skip ({report.longrepr})"
