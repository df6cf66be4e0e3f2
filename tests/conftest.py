"""What every run shares: the speed markers ``slow`` and ``serial``, and the size report at its end.

The markers are registered in pyproject.toml (``--strict-markers``); the size report is tests/size_report.py's.

``make test`` runs pytest under pytest-xdist (``-n auto``; ``PYTEST_ARGS="-n0"`` for one process, as snapshot
updates need). ``make test PYTEST_ARGS="-m 'not slow'"`` is the fast inner loop; CI runs everything.

``slow`` is given here, not written on each test: a test is slow when it starts real processes. That is decided
from the code, not from a list kept by hand: a test is marked when its function or a fixture it uses, or any
function or class of this test tree that these name (followed transitively: ``cli_process.run``, ``privileges``'
reader, ``unprivileged.as_unprivileged``, the MCP ``stdio_harness``, ``real_git.git``, the app on a pty in
``terminal``), names :data:`PROCESS_MODULES` or a :data:`PROCESS_CALLS` call (``os.fork``). The code under test
is not followed: the core running ``git`` for a home with git on does not make a test slow. Every test under
``tests/serve`` (the server process and the browser) is slow. A test may also say ``@pytest.mark.slow`` itself.

``serial`` is written on the test, with its reason: only a test that cannot share the machine (it measures time
or exhausts a resource) carries it. Under xdist the workers of one run share two lock files: every test holds the
machine lock shared, a ``serial`` test holds it alone, so it runs while no other test of the run does (the others
wait, then go on in parallel). A turnstile in front keeps the serial test from waiting forever behind a stream of
shared holders. One pass, one collection: no second ``pytest -m serial`` run to pay for.
"""

from __future__ import annotations

import fcntl
import functools
import importlib
import importlib.util
import inspect
import os
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from notebook_app.core.hostbase.installed import DETECT_OFF
from size_report import size_lines

# What starts a real process: these modules (and their submodules; the MCP SDK's stdio client starts the server),
# and these calls on ``os`` or ``asyncio``.
PROCESS_MODULES = frozenset({"subprocess", "multiprocessing", "pty", "mcp.client.stdio"})
PROCESS_CALLS = frozenset(
    {
        "fork",
        "forkpty",
        "posix_spawn",
        "posix_spawnp",
        "system",
        "popen",
        "create_subprocess_exec",
        "create_subprocess_shell",
    }
)
TESTS = Path(__file__).resolve().parent
BROWSER_TESTS = TESTS / "serve"


def _is_process_value(value: object) -> bool:
    name = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
    return isinstance(name, str) and any(name == module or name.startswith(f"{module}.") for module in PROCESS_MODULES)


def _ours(value: object) -> bool:
    """A function or class defined in a file of this test tree (a test module, a conftest, a helper)."""
    name = getattr(value, "__module__", None)
    return isinstance(name, str) and _in_tests(name)


@functools.cache
def _in_tests(module_name: str) -> bool:
    source = getattr(sys.modules.get(module_name), "__file__", None)
    return source is not None and TESTS in Path(source).resolve().parents


@functools.cache
def _helper_module(name: str) -> types.ModuleType | None:
    """The helper module of this test tree called ``name`` (imported if need be), for imports inside a function."""
    if name in sys.modules:
        module = sys.modules[name]
        return module if _is_process_value(module) or _in_tests(name) else None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None or TESTS not in Path(spec.origin).resolve().parents:
        return None
    return importlib.import_module(name)


def _code_objects(value: object) -> list[types.CodeType]:
    """The code a function, method or class runs (its nested functions and lambdas included)."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [code for accessor in (value.fget, value.fset) if accessor for code in _code_objects(accessor)]
    if isinstance(value, type):
        return [code for member in vars(value).values() for code in _code_objects(member)]
    value = inspect.unwrap(value) if callable(value) else value
    if isinstance(value, types.MethodType):
        value = value.__func__
    code = getattr(value, "__code__", None)
    if not isinstance(code, types.CodeType):
        return []
    found, pending = [], [code]
    while pending:
        current = pending.pop()
        found.append(current)
        pending.extend(const for const in current.co_consts if isinstance(const, types.CodeType))
    return found


def _globals_of(value: object) -> dict[str, object]:
    if isinstance(value, type):
        return vars(sys.modules[value.__module__])
    value = inspect.unwrap(value) if callable(value) else value
    value = getattr(value, "__func__", value)
    return getattr(value, "__globals__", {})


def starts_processes(roots: list[object]) -> bool:
    """Whether any of ``roots``, or what of this test tree they name, refers to a process helper or ``os.fork``."""
    seen: set[int] = set()
    pending = [root for root in roots if _ours(root)]
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        names_of_module = _globals_of(value)
        for code in _code_objects(value):
            names = set(code.co_names)
            if names & {"os", "asyncio"} and names & PROCESS_CALLS:
                return True
            for name in names:
                target = names_of_module.get(name, _helper_module(name))
                if target is None:
                    continue
                if isinstance(target, types.ModuleType) and _in_tests(target.__name__):
                    # A helper imported inside a function (``from terminal import Terminal``): what it names.
                    pending.extend(getattr(target, member) for member in names if hasattr(target, member))
                    continue
                if _is_process_value(target):
                    return True
                if (callable(target) or isinstance(target, type)) and _ours(target):
                    pending.append(target)
    return False


def _fixture_functions(item: pytest.Item) -> list[object]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return [definition.func for definitions in info.name2fixturedefs.values() for definition in definitions]


WORKERS_PER_CORE = 2
"""The suite mostly waits (on child processes, a pty's output, Pilot's frames), so ``-n auto`` starts two workers
per core. Measured on this 2-core machine: tests/app took 279 s at two workers and 192 s at four, for the same CPU
time (5.8 and 5.6 minutes); at two workers the cores were busy 1.2 of 2 on average."""

LONGEST_FIRST = ("tests/test_benchmarks_smoke.py", "tests/app/test_textual_compat.py")
"""The longest single tests (``--durations``: the benchmarks' smoke run 84 s, each private-API scan 12 s) start
first, so that no worker is left running one of them alone at the end of the run."""


@pytest.hookimpl(optionalhook=True)  # so that `-p no:xdist` still runs the suite in one process
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores * WORKERS_PER_CORE


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(str(config.rootpath))
    items.sort(key=lambda item: Path(str(item.path)).relative_to(root).as_posix() not in LONGEST_FIRST)
    for item in items:
        if item.get_closest_marker("slow"):
            continue
        function = getattr(item, "function", None)
        if BROWSER_TESTS in Path(str(item.path)).parents or (
            function is not None and starts_processes([function, *_fixture_functions(item)])
        ):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Under xdist a ``serial`` test runs alone: it holds the machine lock exclusively, every other test shared."""
    if not hasattr(item.config, "workerinput"):  # not an xdist worker: nothing else runs beside this test
        yield
        return
    folder = item.config._tmp_path_factory.getbasetemp().parent  # this run's, shared by its workers
    with open(folder / "serial.turnstile", "a") as turnstile, open(folder / "serial.machine", "a") as machine:
        alone = item.get_closest_marker("serial") is not None
        fcntl.flock(turnstile, fcntl.LOCK_EX)
        fcntl.flock(machine, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        fcntl.flock(turnstile, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(machine, fcntl.LOCK_UN)


@pytest.fixture(autouse=True)
def own_user_folders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each test's config, data and state folders are its own: tests beside it in other workers (and the
    person's real ones) are never read or written. A test may point them elsewhere itself."""
    for name, folder in (
        ("XDG_CONFIG_HOME", "xdg-config"),
        ("XDG_DATA_HOME", "xdg-data"),
        ("XDG_STATE_HOME", "xdg-state"),
    ):
        monkeypatch.setenv(name, str(tmp_path / folder))


@pytest.fixture(autouse=True)
def no_host_detection(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test looks for the hosts installed on the machine it runs on (issue 36), and ``$HOME`` is the test's own:
    what a test sees never depends on a Claude Code, OpenClaw or Hermes someone installed. A test of detection
    clears the variable (``monkeypatch.delenv``) and points ``HOME`` and ``PATH`` at its own fake install."""
    monkeypatch.setenv(DETECT_OFF, "1")
    monkeypatch.setenv(
        "HOME", str(tmp_path_factory.mktemp("home"))
    )  # beside tmp_path: a test's own folder stays its own


@pytest.fixture(autouse=True)
def no_inherited_terminal_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """An xdist worker runs with ``COLUMNS=80`` and ``LINES=24`` in its environment (none in a plain run); every
    child a test starts would inherit them, and the notebook on a 160x45 pty would lay itself out at 80x24. A
    test that wants a size says it itself."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Sizes are reported, not enforced: a report that cannot read the tree says so and never fails the run."""
    try:
        lines = size_lines()
    except OSError as error:
        lines = [f"no size report: {error}"]
    terminalreporter.write_sep("-", "sizes (reported, not enforced; ruff's C901 holds complexity)")
    for line in lines:
        terminalreporter.write_line(line)
