"""Interop with the real Hermes 0.19.0: its own ``MemoryStore`` reads what we write, and our adds and its lose nothing.

Run by ``make hosts`` at the end of the hermes host (not by ``make test``), or
by itself: ``.venv/bin/python tests/hosts/interop_hermes.py``. It needs
Hermes's venv at ``benchmarks/.peers/hermes`` (``make hosts ARGS=hermes``
builds it) and prints one line per check, PASS or FAIL; it exits 1 when one
failed, 2 when it could not start.

(a) Our CLI writes a Hermes home (``persona-notebook memory add|replace|remove
    ... --home HERMES_HOME --host hermes``, ``--target user`` too) and, after
    each write, a fresh Hermes process (``load_on_disk_store()``, which is
    ``MemoryStore(limits).load_from_disk()``) reads exactly the entries meant,
    with nothing for its drift guard to see. A CLI without ``--host`` fails
    these checks; nothing stands in for it.
(b) 4 processes of ours (the memory tool as the CLI calls it, with the Hermes
    file map) and 4 Hermes processes (``MemoryStore.add``) each add 25
    distinct entries to one store at once: all 200 are there, each once, and
    the file round-trips (our parse and Hermes's drift guard).
(c) While a Hermes process holds its own ``_file_lock`` on the store, our add
    waits for it, then lands after its entry.
(d) ``persona-notebook tidy --apply`` on a Hermes store (an exact copy, a
    near duplicate): Hermes reads exactly the entries that stay, with no
    drift, and none of what moved to ``memories/ARCHIVE.md``; ``undo`` of
    the tidy gives Hermes back every entry it read before.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from notebook_app.core.memory import sections

REPO = Path(__file__).resolve().parents[2]
HERMES_PYTHON = REPO / "benchmarks" / ".peers" / "hermes" / "bin" / "python"
OURS = Path(sys.executable).parent / "persona-notebook"
WORKERS, EACH = 4, 25

READ_BACK = textwrap.dedent(
    """
    import json
    from tools.memory_tool import load_on_disk_store
    store = load_on_disk_store()
    print(json.dumps({
        "memory": store.memory_entries,
        "user": store.user_entries,
        "drift": [t for t in ("memory", "user") if store._detect_external_drift(t)],
    }))
    """
)
HERMES_ADDER = textwrap.dedent(
    """
    import os, sys, time
    from tools.memory_tool import load_on_disk_store
    go, worker, each = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    store = load_on_disk_store()
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(each):
        result = store.add("memory", f"hermes {worker} entry {i:02d}")
        if result.get("message") != "Entry added.":
            sys.exit(f"hermes {worker} entry {i}: {result}")
    """
)
OUR_ADDER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from notebook_app.core.home.layout import hermes_files
    from notebook_app.core.hosts.hermes.config import read_config
    from notebook_app.core.log.actor import CLI
    from notebook_app.core.memory.tool import MemoryTool
    home, go, worker, each = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    config = read_config(Path(home), 2200, 1375)
    tool = MemoryTool(home, by=CLI, files=hermes_files(config.memory_char_limit, config.user_char_limit))
    while not os.path.exists(go):
        time.sleep(0.001)
    for i in range(each):
        result = tool.call({"action": "add", "text": f"ours {worker} entry {i:02d}"})
        if result.is_error:
            sys.exit(f"ours {worker} entry {i}: {result.output}")
    """
)
HERMES_HOLDS_LOCK = textwrap.dedent(
    """
    import sys, time
    from tools.memory_tool import load_on_disk_store, MemoryStore
    store = load_on_disk_store()
    with MemoryStore._file_lock(MemoryStore._path_for("memory")):  # what its add holds for its write
        print("held", flush=True)
        time.sleep(float(sys.argv[1]))
        store._reload_target("memory", skip_drift=True)
        store.memory_entries.append("written by Hermes under its lock")
        store.save_to_disk("memory")
    """
)

results: list[bool] = []


def check(ok: bool, what: str) -> bool:
    print(f"{'PASS' if ok else 'FAIL'}  {what}", flush=True)
    results.append(ok)
    return ok


class Env:
    """A Hermes home and a user home, both temporary: Hermes and our CLI see nothing of the real ones."""

    def __init__(self, root: Path, name: str) -> None:
        self.home = root / name / "hermes-home"
        self.user = root / name / "user-home"
        (self.home / "memories").mkdir(parents=True)
        self.user.mkdir()
        self.vars = {
            **os.environ,
            "HERMES_HOME": str(self.home),
            "HOME": str(self.user),
            "XDG_CONFIG_HOME": str(self.user / ".config"),
            "XDG_STATE_HOME": str(self.user / ".local" / "state"),
            "XDG_DATA_HOME": str(self.user / ".local" / "share"),
        }

    def hermes(self, code: str, *args: str, **popen: object) -> subprocess.Popen[str]:
        return subprocess.Popen(  # type: ignore[call-overload, no-any-return]
            [str(HERMES_PYTHON), "-c", code, *args], env=self.vars, cwd=self.user, text=True, **popen
        )

    def read_back(self) -> dict:
        done = self.hermes(READ_BACK, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = done.communicate(timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"Hermes's load_on_disk_store failed: {err[-500:]}")
        return json.loads(out)

    def ours(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(OURS), "memory", *args, "--home", str(self.home), "--host", "hermes"]
        return subprocess.run(command, env=self.vars, cwd=self.user, capture_output=True, text=True, timeout=60)


def cli_writes(root: Path) -> None:
    """(a): each CLI write, then Hermes's own read of the home."""
    env = Env(root, "cli")
    (env.home / "memories" / "MEMORY.md").write_text("A\n§\nB", encoding="utf-8")
    steps: list[tuple[list[str], str, list[str]]] = [
        (["add", "C"], "memory", ["A", "B", "C"]),
        (["add", "a note\nover two lines"], "memory", ["A", "B", "C", "a note\nover two lines"]),
        (["replace", "B", "--with", "B, reworded"], "memory", ["A", "B, reworded", "C", "a note\nover two lines"]),
        (["remove", "A"], "memory", ["B, reworded", "C", "a note\nover two lines"]),
        (["add", "Name: Sam", "--target", "user"], "user", ["Name: Sam"]),
        (["add", "Timezone: Europe/Paris", "--target", "user"], "user", ["Name: Sam", "Timezone: Europe/Paris"]),
        (
            ["replace", "Sam", "--with", "Name: Samuel", "--target", "user"],
            "user",
            ["Name: Samuel", "Timezone: Europe/Paris"],
        ),
        (["remove", "Timezone", "--target", "user"], "user", ["Name: Samuel"]),
    ]
    for args, target, wanted in steps:
        label = "(a) persona-notebook memory " + " ".join(json.dumps(a) if " " in a or "\n" in a else a for a in args)
        done = env.ours(*args)
        if done.returncode != 0:
            refused = "--host" in done.stderr and ("unrecognized" in done.stderr or "no such option" in done.stderr)
            why = "our CLI refuses --host in this tree" if refused else f"exit {done.returncode}"
            check(False, f"{label}: {why}: {done.stderr.strip().splitlines()[-1:] or done.stdout.strip()}")
            if refused:
                check(False, f"(a) the other {len(steps) - 1} CLI writes not run: they need --host hermes")
                return
            continue
        seen = env.read_back()
        check(
            seen[target] == wanted and not seen["drift"],
            f"{label}: Hermes's MemoryStore reads {target} as {seen[target]!r}"
            + (f", its drift guard flags {seen['drift']}" if seen["drift"] else ", no drift"),
        )


def parallel_adds(root: Path) -> None:
    """(b): 4 of ours and 4 of Hermes's adding at once."""
    env = Env(root, "parallel")
    (env.home / "config.yaml").write_text("memory:\n  memory_char_limit: 100000\n", encoding="utf-8")
    go = root / "parallel" / "go"
    ours = [
        subprocess.Popen(
            [sys.executable, "-c", OUR_ADDER, str(env.home), str(go), str(w), str(EACH)],
            env=env.vars,
            cwd=env.user,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WORKERS)
    ]
    theirs = [env.hermes(HERMES_ADDER, str(go), str(w), str(EACH), stderr=subprocess.PIPE) for w in range(WORKERS)]
    time.sleep(1.0)  # every process started and waiting
    started = time.monotonic()
    go.touch()
    errors = [(p.communicate(timeout=300)[1] or "").strip() for p in ours + theirs]
    took = time.monotonic() - started
    failed = [e.splitlines()[-1] for p, e in zip(ours + theirs, errors, strict=True) if p.returncode != 0]
    check(
        not failed,
        f"(b) {WORKERS} processes of ours and {WORKERS} of Hermes added {EACH} each in {took:.1f} s"
        + (f": {failed}" if failed else ""),
    )
    text = (env.home / "memories" / "MEMORY.md").read_text(encoding="utf-8")
    found = sections.entries(text)
    wanted = [f"{who} {w} entry {i:02d}" for who in ("ours", "hermes") for w in range(WORKERS) for i in range(EACH)]
    lost = sorted(set(wanted) - set(found))
    check(
        sorted(found) == sorted(wanted),
        f"(b) the store holds all {len(wanted)} entries, each once"
        + (
            f"; {len(lost)} lost (first {lost[:3]}), {len(found) - len(set(found))} repeated"
            if sorted(found) != sorted(wanted)
            else ""
        ),
    )
    switches = sum(1 for a, b in zip(found, found[1:], strict=False) if a.split()[0] != b.split()[0])
    print(f"      (ours and Hermes's entries alternate {switches} times in the file)")
    seen = env.read_back()
    check(
        text == sections.joined(found) and not seen["drift"] and sorted(seen["memory"]) == sorted(wanted),
        "(b) the file round-trips: our parse joins back to its bytes, Hermes's drift guard sees nothing and "
        f"its MemoryStore reads {len(seen['memory'])} entries",
    )


def waits_for_hermes_lock(root: Path) -> None:
    """(c): our add queues behind Hermes's own lock."""
    env = Env(root, "lock")
    (env.home / "memories" / "MEMORY.md").write_text("A", encoding="utf-8")
    holder = env.hermes(HERMES_HOLDS_LOCK, "1.5", stdout=subprocess.PIPE)
    assert holder.stdout is not None
    if holder.stdout.readline().strip() != "held":
        check(False, "(c) Hermes did not take its lock")
        return
    started = time.monotonic()
    adder = subprocess.run(
        [sys.executable, "-c", OUR_ADDER, str(env.home), str(root), "9", "1"],
        env=env.vars,
        cwd=env.user,
        capture_output=True,
        text=True,
        timeout=60,
    )
    waited = time.monotonic() - started
    holder.wait(timeout=60)
    text = (env.home / "memories" / "MEMORY.md").read_text(encoding="utf-8")
    wanted = "A\n§\nwritten by Hermes under its lock\n§\nours 9 entry 00"
    check(
        adder.returncode == 0 and waited >= 1.0 and text == wanted,
        f"(c) our add waited {waited:.1f} s for Hermes's _file_lock on MEMORY.md.lock, then landed after its entry"
        + ("" if text == wanted else f": the store reads {text!r}"),
    )


def tidy_writes(root: Path) -> None:
    """(d): a tidy applied with our CLI, then undone, each read back by Hermes's own store."""
    env = Env(root, "tidy")
    store = "likes green tea\n§\nname: Ana\n§\nlikes green tea\n§\nLikes green tea a lot"
    (env.home / "memories" / "USER.md").write_text(store, encoding="utf-8")
    before = env.read_back()["user"]

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [str(OURS), *args, "--home", str(env.home), "--host", "hermes"]
        return subprocess.run(command, env=env.vars, cwd=env.user, capture_output=True, text=True, timeout=60)

    proposed = cli("tidy", "--json")
    ids = [hunk["id"] for hunk in json.loads(proposed.stdout)["hunks"]] if proposed.returncode == 0 else []
    applied = cli("tidy", "--apply", *ids, "--json")
    if not ids or applied.returncode != 0:
        check(False, f"(d) persona-notebook tidy --apply: exit {applied.returncode}: {applied.stderr.strip()[-300:]}")
        return
    seen = env.read_back()
    check(
        seen["user"] == ["name: Ana", "Likes green tea a lot"] and not seen["drift"],
        f"(d) persona-notebook tidy --apply {' '.join(ids)}: Hermes's MemoryStore reads user as {seen['user']!r}"
        + (f", its drift guard flags {seen['drift']}" if seen["drift"] else ", no drift"),
    )
    record = json.loads(applied.stdout)["record"]
    undone = cli("undo", record)
    seen = env.read_back()
    check(
        undone.returncode == 0 and seen["user"] == before and not seen["drift"],
        f"(d) persona-notebook undo {record}: Hermes's MemoryStore reads user as {seen['user']!r}, as before the tidy"
        + (f", its drift guard flags {seen['drift']}" if seen["drift"] else ""),
    )


def main() -> int:
    if not HERMES_PYTHON.exists():
        print(f"no Hermes at {HERMES_PYTHON}: run `make hosts ARGS=hermes` first", file=sys.stderr)
        return 2
    if not OURS.exists():
        print(f"no persona-notebook beside {sys.executable}: run this with the repository's .venv/bin/python")
        return 2
    print("interop with Hermes 0.19.0 (its own MemoryStore, in benchmarks/.peers/hermes):", flush=True)
    checks: list[Callable[[Path], None]] = [cli_writes, parallel_adds, waits_for_hermes_lock, tidy_writes]
    with tempfile.TemporaryDirectory(prefix="interop-hermes-") as tmp:
        for run in checks:
            run(Path(tmp))
    print(f"interop: {sum(results)} of {len(results)} checks passed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
