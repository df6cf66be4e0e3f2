"""One implementation of the memory contract, driven by the benchmark runner.

The runner starts this script once per job, with the interpreter of the
implementation under test (ours: the project's ``.venv``; each peer: its own
venv under ``benchmarks/.peers/``), so no two implementations ever share a
process or a set of installed libraries::

    python driver.py IMPL JOB_JSON

``IMPL`` is ``ours``, ``toolnexus`` or ``hermes``; ``JOB_JSON`` is one object
with a ``job`` key (see ``JOBS`` at the bottom). The result is printed as one
line ``RESULT <json>``; a few jobs also print progress lines before it
(``ready``, ``done <k>``) and read ``go`` from stdin. Only the standard
library is used here, because this file runs in every venv; the runner
imports it too, for the entry texts, the file formats and the edit model, so
the two sides can never disagree about what a correct file looks like.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# --------------------------------------------------------------------------
# Shared by the runner and the driver: entries, file formats, the edit model.
# --------------------------------------------------------------------------

PAYLOAD = "prefers metric units, short answers and UTC timestamps in every report"


def entry(tag: str, i: int) -> str:
    """A memory entry. Tags are four characters and ids five digits, so every
    entry has the same length and none can occur inside another: a replace or
    remove by an entry's text always hits exactly that entry in every
    implementation, whatever its matching rule (first occurrence, all
    occurrences, or "the one entry containing it")."""
    assert len(tag) == 4
    return f"{tag}-{i:05d}: {PAYLOAD}"


def render(impl: str, entries: list[str]) -> bytes:
    """The exact bytes an implementation keeps for these entries, in order."""
    if impl == "hermes":  # entries joined by "\n§\n", no trailing newline
        return "\n§\n".join(entries).encode("utf-8")
    return "".join(f"- {e}\n" for e in entries).encode("utf-8")  # ours and toolnexus


def parse(impl: str, data: bytes) -> list[str]:
    """Entries read back from a file (a cut last entry comes back cut)."""
    text = data.decode("utf-8", errors="replace")
    if impl == "hermes":
        return [e.strip() for e in text.split("\n§\n") if e.strip()]
    return [line[2:] if line.startswith("- ") else line for line in text.split("\n") if line]


def entries_for_size(tag: str, size: int, impl: str = "ours") -> list[str]:
    """As many entries as fit in ``size`` bytes of ``impl``'s format."""
    one = len(render(impl, [entry(tag, 0)]))
    sep = len(render(impl, [entry(tag, 0)] * 2)) - 2 * one
    count = max(1, (size + sep) // (one + sep))
    return [entry(tag, i) for i in range(count)]


def kill_ops(seed: int, count: int) -> list[tuple[str, str, str]]:
    """The writer's sequence for the SIGKILL test: add, replace, remove, ...

    Replaces and removes touch seed entries spread over the whole file, so a
    rewrite of the whole file is what every non-append action costs.
    """
    ops: list[tuple[str, str, str]] = []
    for j in range(count):
        m, kind = divmod(j, 3)
        if kind == 0:
            ops.append(("add", entry("kill", m), ""))
        elif kind == 1:
            ops.append(("replace", entry("seed", (2 * m) % seed), entry("edit", m)))
        else:
            ops.append(("remove", entry("seed", (2 * m + 1) % seed), ""))
    return ops


def apply_op(entries: list[str], op: tuple[str, str, str]) -> list[str]:
    """The model: what one action does to the list of entries."""
    kind, text, new = op
    out = list(entries)
    if kind == "add":
        out.append(text)
    elif kind == "replace":
        out[out.index(text)] = new
    else:
        out.remove(text)
    return out


def memory_path(impl: str, home: str | Path) -> Path:
    """Where an implementation keeps MEMORY.md for a given home."""
    home = Path(home)
    return home / "memories" / "MEMORY.md" if impl == "hermes" else home / "MEMORY.md"


def user_path(impl: str, home: str | Path) -> Path:
    return memory_path(impl, home).with_name("USER.md")


def write_durably(path: Path, data: bytes) -> None:
    """Write and fsync, so that no implementation's first fsync pays for our setup."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def seed(impl: str, home: str | Path, entries: list[str]) -> Path:
    """Write a memory file in the implementation's own format."""
    path = memory_path(impl, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_durably(path, render(impl, entries))
    return path


# --------------------------------------------------------------------------
# Adapters: each calls one implementation through its public entry point.
# --------------------------------------------------------------------------


class Failed(Exception):
    """An implementation answered an action with an error."""


def _run_coroutine(coro: Any) -> Any:
    """Run a coroutine that never suspends without an event loop.

    toolnexus's ``execute`` is ``async def`` but does only blocking file work:
    it completes on its first step, exactly as it would inside a loop, and this
    spares the loop's own per-call overhead from being charged to it.
    """
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("execute() suspended; drive it with asyncio instead")


class Ours:
    """``notebook_app.core.memory_tool(home).call(args)``."""

    name = "ours"

    def __init__(self, home: str | Path) -> None:
        from notebook_app.core.memory.tool import memory_tool

        self.tool = memory_tool(home)

    def _call(self, args: dict[str, str]) -> None:
        result = self.tool.call(args)
        if result.is_error:
            raise Failed(result.output)

    def add(self, text: str) -> None:
        self._call({"action": "add", "text": text})

    def replace(self, old: str, new: str) -> None:
        self._call({"action": "replace", "text": old, "with": new})

    def remove(self, text: str) -> None:
        # The contract removes the text itself; a whole entry is its line.
        self._call({"action": "remove", "text": f"- {text}\n"})

    @staticmethod
    def compose(home: str) -> tuple[str, list[str]]:
        from notebook_app.core.home.soul import compose_soul

        return compose_soul(home)

    @staticmethod
    def version() -> str:
        import notebook_app

        return getattr(notebook_app, "__version__", "?")


class Toolnexus(Ours):
    """``await toolnexus.agents.memory_tool(home).execute(args)``."""

    name = "toolnexus"

    def __init__(self, home: str | Path) -> None:
        from toolnexus.agents import memory_tool

        self.tool = memory_tool(str(home))

    def _call(self, args: dict[str, str]) -> None:
        result = _run_coroutine(self.tool.execute(args))
        if result.is_error:
            raise Failed(result.output)

    @staticmethod
    def compose(home: str) -> tuple[str, list[str]]:
        from toolnexus.agents import compose_soul

        return compose_soul(home)

    @staticmethod
    def version() -> str:
        from importlib.metadata import version

        return version("toolnexus")


HERMES_LIMIT = 10**12
"""hermes caps MEMORY.md at 2,200 and USER.md at 1,375 characters; lifted for load tests."""


class Hermes:
    """hermes-agent's ``tools.memory_tool.MemoryStore``: add / replace / remove.

    The store is what hermes's ``memory_tool()`` dispatches to; that function
    first consults an approval gate that reloads hermes's whole config on every
    call. The gate is not memory work, so it is left out of the timings (the
    job ``gate`` measures what it would add). The store reads HERMES_HOME on
    every call, so pointing it at another home is setting that variable.
    """

    name = "hermes"

    def __init__(self, home: str | Path) -> None:
        self.home = str(home)
        os.environ["HERMES_HOME"] = self.home
        from tools.memory_tool import MemoryStore

        self.store = MemoryStore(memory_char_limit=HERMES_LIMIT, user_char_limit=HERMES_LIMIT)
        self.store.load_from_disk()

    def use(self) -> None:
        os.environ["HERMES_HOME"] = self.home

    @staticmethod
    def _check(result: dict[str, Any]) -> None:
        if not result.get("success"):
            raise Failed(str(result.get("error")))

    def add(self, text: str) -> None:
        self._check(self.store.add("memory", text))

    def replace(self, old: str, new: str) -> None:
        self._check(self.store.replace("memory", old, new))

    def remove(self, text: str) -> None:
        self._check(self.store.remove("memory", text))

    @staticmethod
    def compose(home: str) -> tuple[str, list[str]]:
        """hermes's nearest step: the frozen memory snapshot of MEMORY.md and USER.md."""
        os.environ["HERMES_HOME"] = home
        from tools.memory_tool import MemoryStore

        store = MemoryStore(memory_char_limit=HERMES_LIMIT, user_char_limit=HERMES_LIMIT)
        store.load_from_disk()
        parts = [store.format_for_system_prompt("user"), store.format_for_system_prompt("memory")]
        return "\n\n".join(p for p in parts if p), ["USER.md", "MEMORY.md"]

    @staticmethod
    def version() -> str:
        from importlib.metadata import version

        return version("hermes-agent")


ADAPTERS = {"ours": Ours, "toolnexus": Toolnexus, "hermes": Hermes}


def open_impl(impl: str, home: str | Path, *, git: bool = False) -> Ours | Hermes:
    """The implementation on ``home``; ``git``: ours with the home's git setting on (issue 26), every write a commit."""
    Path(home).mkdir(parents=True, exist_ok=True)
    if git:
        git_on_for(impl, home)
    return ADAPTERS[impl](home)


def git_on_for(impl: str, home: str | Path) -> None:
    """``persona-notebook git on --yes`` through the core, before the timed part; ours only."""
    if impl != "ours":
        raise Failed("git on is ours only")
    os.environ["GIT_CONFIG_GLOBAL"] = os.devnull  # no user config: no signing, no hooks of the user's, no editor
    os.environ["GIT_CONFIG_NOSYSTEM"] = "1"
    import subprocess

    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.record.git.mode import git_on

    # its own repository, also when the scratch folder is inside this checkout's (benchmarks/.work)
    subprocess.run(["git", "init", "--quiet", str(home)], check=True)
    result = git_on(home, by=CLI, add_ignore=True)
    if result.is_error:
        raise Failed(result.output)


def do(adapter: Ours | Hermes, op: tuple[str, str, str]) -> None:
    kind, text, new = op
    if kind == "add":
        adapter.add(text)
    elif kind == "replace":
        adapter.replace(text, new)
    else:
        adapter.remove(text)


# --------------------------------------------------------------------------
# Jobs
# --------------------------------------------------------------------------


def job_info(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Import the implementation and say which version answered."""
    started = time.perf_counter()
    adapter = ADAPTERS[impl]
    if impl == "hermes":
        os.environ.setdefault("HERMES_HOME", job["home"])
        import tools.memory_tool  # noqa: F401
    elif impl == "toolnexus":
        import toolnexus.agents  # noqa: F401
    else:
        import notebook_app.core  # noqa: F401
    return {
        "version": adapter.version(),
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "import_seconds": time.perf_counter() - started,
    }


def _timed(adapter: Ours | Hermes, ops: list[tuple[str, str, str]]) -> float:
    started = time.perf_counter()
    for op in ops:
        do(adapter, op)
    return time.perf_counter() - started


def job_throughput(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Measure 1: adds from an empty file; replaces and removes on a seeded one.

    Each phase runs in its own fresh home; afterwards the file must equal the
    model's bytes exactly, which checks that the adapter did what was asked.
    """
    root = Path(job["home"])
    adds, seeded, edits = job["adds"], job["seeded"], job["edits"]
    step = max(1, seeded // edits)
    base = [entry("seed", i) for i in range(seeded)]
    phases = {
        "add": ([], [("add", entry("note", i), "") for i in range(adds)]),
        "replace": (base, [("replace", entry("seed", k * step), entry("edit", k)) for k in range(edits)]),
        "remove": (base, [("remove", entry("seed", k * step), "") for k in range(edits)]),
    }
    out: dict[str, Any] = {}
    for name, (start, ops) in phases.items():
        home = root / name
        home.mkdir(parents=True, exist_ok=True)
        if start:
            seed(impl, home, start)
        adapter = open_impl(impl, home, git=bool(job.get("git")))
        seconds = _timed(adapter, ops)
        expected = start
        for op in ops:
            expected = apply_op(expected, op)
        actual = memory_path(impl, home).read_bytes()
        out[name] = {
            "ops": len(ops),
            "seconds": seconds,
            "ops_per_s": len(ops) / seconds,
            "exact": actual == render(impl, expected),
            "bytes_after": len(actual),
            "commits": _commits(home) if job.get("git") else None,
        }
    return out


def job_add_cost(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Measure 2: adds on a small and on a large MEMORY.md, alternately.

    Each file is seeded (an outside write, as far as the implementation can
    tell), then takes ``repeats + 1`` adds in a row, the implementation being
    the only writer, as in steady use. The first add is reported on its own:
    it is the first after an outside write, which an implementation may pay
    extra for (ours re-validates a file it did not write last). The other
    adds grow the file by one entry each: ``repeats`` entries, a few KiB,
    which the figures report.
    """
    root = Path(job["home"])
    sizes = {"small": job["small_bytes"], "large": job["large_bytes"]}
    homes, originals, adapters = {}, {}, {}
    for label, size in sizes.items():
        homes[label] = root / label
        path = seed(impl, homes[label], entries_for_size("base", size, impl))
        originals[label] = path.read_bytes()
        adapters[label] = open_impl(impl, homes[label], git=bool(job.get("git")))
    times: dict[str, list[float]] = {label: [] for label in sizes}
    for k in range(job["repeats"] + 1):
        for label in sizes:
            adapter = adapters[label]
            if isinstance(adapter, Hermes):
                adapter.use()
            started = time.perf_counter()
            adapter.add(entry("cost", k))
            times[label].append(time.perf_counter() - started)
    out: dict[str, Any] = {}
    for label, ts in times.items():
        data = memory_path(impl, homes[label]).read_bytes()
        if not data.startswith(originals[label]):
            raise Failed(f"adds on the {label} file did not keep what was there")
        if job.get("git"):
            committed = _commits(homes[label])
            if committed < len(ts):
                raise Failed(f"git on: {committed} commits for {len(ts)} adds on the {label} file")
        out[label] = {
            "bytes": len(originals[label]),
            "bytes_after": len(data),
            "first_s": ts[0],
            "median_s": statistics.median(ts[1:]),
            "samples": len(ts) - 1,
        }
    return out


def _commits(home: Path) -> int:
    """The commits that touched MEMORY.md (with git on, one per add; the first add's outside change one more)."""
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(home), "rev-list", "--count", "HEAD", "--", "MEMORY.md"], capture_output=True, text=True
    )
    return int(done.stdout.strip() or 0)


def job_compose(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Measure 4: compose the soul of a prepared home, ``repeats`` times."""
    adapter = ADAPTERS[impl]
    adapter.compose(job["home"])  # warm-up, untimed: the first call pays for imports
    times = []
    soul, found = "", []
    for _ in range(job["repeats"]):
        started = time.perf_counter()
        soul, found = adapter.compose(job["home"])
        times.append(time.perf_counter() - started)
    import hashlib

    return {
        "median_s": statistics.median(times),
        "samples": len(times),
        "found": found,
        "soul_chars": len(soul),
        "soul_sha256": hashlib.sha256(soul.encode("utf-8")).hexdigest(),
    }


def _wait_for_go() -> None:
    print("ready", flush=True)
    line = sys.stdin.readline()
    if line.strip() != "go":
        raise SystemExit("no go signal")


def job_worker(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Measure 3a: one of several processes adding at the same moment."""
    adapter = open_impl(impl, job["home"])
    tag = f"w{job['worker']:03d}"
    texts = [entry(tag, i) for i in range(job["adds"])]
    errors: list[str] = []
    _wait_for_go()
    started = time.perf_counter()
    for text in texts:
        try:
            adapter.add(text)
        except Exception as error:  # counted, reported: a lost add is the finding
            errors.append(f"{type(error).__name__}: {error}"[:200])
    return {"seconds": time.perf_counter() - started, "errors": len(errors), "first_error": errors[:1]}


def job_writer(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Measure 3b: the writer the runner kills. Prints ``done k`` after each action."""
    home = job["home"]
    adapter = open_impl(impl, home)
    ops = kill_ops(job["seeded"], job["ops"])
    print("ready", flush=True)
    out = sys.stdout
    for k, op in enumerate(ops, start=1):
        do(adapter, op)
        out.write(f"done {k}\n")
        out.flush()
    return {"completed": len(ops)}


def job_gate(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """hermes only: an add through ``memory_tool()`` (with its approval gate) vs the store."""
    if impl != "hermes":
        return {}
    from tools.memory_tool import memory_tool

    root = Path(job["home"])
    via_tool, via_store = open_impl(impl, root / "tool"), open_impl(impl, root / "store")
    tool_times, store_times = [], []
    for k in range(job["repeats"]):
        via_tool.use()
        started = time.perf_counter()
        answer = json.loads(memory_tool(action="add", target="memory", content=entry("gate", k), store=via_tool.store))
        tool_times.append(time.perf_counter() - started)
        if not answer.get("success"):
            raise Failed(str(answer))
        via_store.use()
        started = time.perf_counter()
        via_store.add(entry("gate", k))
        store_times.append(time.perf_counter() - started)
    return {"tool_median_s": statistics.median(tool_times), "store_median_s": statistics.median(store_times)}


def job_census(impl: str, job: dict[str, Any]) -> dict[str, Any]:
    """Untimed: how many fsyncs and renames one action makes, counted by wrapping ``os``.

    Runs in its own process after the timed jobs, so the wrappers never touch
    a figure; it turns "why is this ratio what it is" into counts.
    """
    counts = {"fsync": 0, "rename": 0}

    def counting(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return real(*args, **kwargs)

        return wrapper

    os.fsync = counting("fsync", os.fsync)
    os.replace = counting("rename", os.replace)
    os.rename = counting("rename", os.rename)
    root, n, seeded = Path(job["home"]), job["ops"], job["seeded"]
    base = [entry("seed", i) for i in range(seeded)]
    phases = {
        "add": [("add", entry("note", i), "") for i in range(n)],
        "replace": [("replace", entry("seed", k), entry("edit", k)) for k in range(n)],
        "remove": [("remove", entry("seed", n + k), "") for k in range(n)],
    }
    out: dict[str, Any] = {}
    for name, ops in phases.items():
        home = root / name
        home.mkdir(parents=True, exist_ok=True)
        seed(impl, home, base)
        adapter = open_impl(impl, home)
        counts.update(fsync=0, rename=0)
        for op in ops:
            do(adapter, op)
        out[name] = {key: value / len(ops) for key, value in counts.items()}
    return out


JOBS = {
    "census": job_census,
    "info": job_info,
    "throughput": job_throughput,
    "add_cost": job_add_cost,
    "compose": job_compose,
    "worker": job_worker,
    "writer": job_writer,
    "gate": job_gate,
}


def main(argv: list[str]) -> int:
    impl, job = argv[1], json.loads(argv[2])
    if impl not in ADAPTERS:
        raise SystemExit(f"unknown implementation {impl!r}")
    result = JOBS[job["job"]](impl, job)
    print("RESULT " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
