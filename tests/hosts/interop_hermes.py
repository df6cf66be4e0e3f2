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
(e) ``persona-notebook export --home H --to hermes DEST --apply`` of a copy of
    the demo home and of a home with planted entries (a two-line entry, an
    exact copy, ``§`` inline, alone and behind carriage returns, unicode, and
    enough entries to pass Hermes's 2,200 / 1,375 char limits): a fresh Hermes
    process reads in ``memories/MEMORY.md`` and ``USER.md`` exactly the
    entries the ``--json`` plan says load, in order, with no drift, within its
    limit, and none of those the plan moved to overflow; the overflow files,
    read with Hermes's own parser, hold those in order, and Hermes's own add
    of the first of them is refused at its limit (the plan moved aside only
    what Hermes would not hold).
(f) A store Hermes wrote itself (``MemoryStore.add``: entries of several
    lines, unicode, a U+2028 and a form feed (no line ends to Hermes), ``§``
    inline, a user store too), then ``persona-notebook
    import --from hermes SRC HOME --create --apply``: our home's MEMORY.md and
    USER.md hold every entry Hermes holds, in order, each as the ``--json``
    plan says (an entry of several lines joined with spaces).
(g) ``persona-notebook export --to hermes DEST --merge --apply`` into a
    store Hermes wrote, whose ``config.yaml`` sets a 700-character memory
    limit: Hermes reads its own entries, then exactly those the plan adds, in
    order, with no drift and within the limit; an entry it held already is
    not added again, those past the limit are not in the store, and its
    SOUL.md is as it was (the persona's beside it, ``SOUL.incoming.md``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
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
    from notebook_app.core.record.log.actor import CLI
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

HERMES_COUNTS = textwrap.dedent(
    """
    import json
    from tools.memory_tool import load_on_disk_store
    store = load_on_disk_store()
    print(json.dumps({t: [store._char_count(t), store._char_limit(t)] for t in ("memory", "user")}))
    """
)
HERMES_TRIES_ADD = textwrap.dedent(
    """
    import json, sys
    from tools.memory_tool import load_on_disk_store
    result = load_on_disk_store().add(sys.argv[1], sys.argv[2])
    print(json.dumps({"success": result.get("success"), "error": result.get("error")}))
    """
)
HERMES_READS_FILE = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from tools.memory_tool import MemoryStore
    print(json.dumps(MemoryStore._read_file(Path(sys.argv[1]))))
    """
)
HERMES_WRITES = textwrap.dedent(
    """
    import json, sys
    from tools.memory_tool import load_on_disk_store
    store = load_on_disk_store()
    for target, text in json.load(sys.stdin):
        result = store.add(target, text)
        if result.get("message") != "Entry added.":
            sys.exit(f"hermes add {text!r}: {result}")
    """
)
TARGETS = {"memory": "MEMORY.md", "user": "USER.md"}
"""Hermes's targets and the persona's entry file each is."""

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
        return json.loads(self.run_hermes(READ_BACK))

    def run_hermes(self, code: str, *args: str, given: str | None = None, home: Path | None = None) -> str:
        """What a Hermes process running ``code`` prints (``home``: HERMES_HOME for it, else this one's)."""
        vars = {**self.vars, "HERMES_HOME": str(home or self.home)}
        done = subprocess.run(
            [str(HERMES_PYTHON), "-c", code, *args],
            env=vars,
            cwd=self.user,
            input=given,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"Hermes failed: {done.stderr.strip()[-500:]}")
        return done.stdout

    def move(self, *args: str) -> tuple[dict, subprocess.CompletedProcess[str]]:
        """``persona-notebook ARGS --json``, planned, then with ``--apply``: the plan's JSON and the applied run."""

        def run(*more: str) -> subprocess.CompletedProcess[str]:
            command = [str(OURS), *args, *more, "--json"]
            return subprocess.run(command, env=self.vars, cwd=self.user, capture_output=True, text=True, timeout=120)

        planned = run()
        if planned.returncode != 0:
            raise RuntimeError(f"persona-notebook {' '.join(args)}: exit {planned.returncode}: {planned.stderr[-300:]}")
        return json.loads(planned.stdout)["plan"], run("--apply")

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


TRICKY_MEMORY = (
    "# Tricky notes\n"
    "\n"
    "- a multi-line entry: its first line\n"
    "  and a second line, indented as a person writes one\n"
    "- cite NOAA tide tables, not third-party apps\n"
    "- cite NOAA tide tables, not third-party apps\n"
    "- permit § 4.2 covers night dives; §§ 5–6 the boat\n"
    "- §\n"
    "- a carriage\rreturn hides in this line\n"
    "- and x\r§\ry, a § line behind carriage returns\n"
    "- naïve café, 海藻 (kelp), Ωμέγα, 🐙🦦🌊, שלום, e\u0301, zero\u200bwidth\n"
    + "".join(f"- transect log {i:02d}: 🐙 urchins at {i * 3} m, visibility fair, 海藻 regrowing\n" for i in range(36))
)
TRICKY_USER = (
    "- name: Zoë Ångström-Núñez 🧪\n"
    "- pronouns: they/them\n"
    "- pronouns: they/them\n"
    "- writes § as 'section' in prose; 📐 metric only\n"
    + "".join(f"- user fact {i:02d}: prefers ☕ at {7 + i % 5}:30, reads papers in 日本語 too\n" for i in range(28))
)
BULLET = re.compile(r"[ \t]*[-*+][ \t]+(\S.*)")


def bullet(line: str) -> str | None:
    """The text of a ``- `` entry line (as the contract reads one), None when the line is no entry."""
    found = BULLET.fullmatch(line.removesuffix("\r"))
    return found.group(1).rstrip() if found else None


def as_planned(text: str, changed: str | None) -> str:
    """An entry's text as the plan says it lands: as it was, its lines joined with spaces (a ``- `` entry), or its
    carriage returns made line breaks (a ``§`` entry: Hermes reads its store with universal newlines)."""
    if not changed:
        return text
    if changed == "its carriage returns made line breaks: Hermes reads them so":
        return text.replace("\r\n", "\n").replace("\r", "\n")
    if changed != f"its {_lines(text)} lines joined with spaces: a '- ' entry is one line":
        return f"<{text!r} changed as the plan says, in words this check does not know: {changed!r}>"
    return joined_lines(text)


def joined_lines(text: str) -> str:
    """An entry of several lines as one ``- `` line: its lines (ended by ``\\n``, as Hermes's and a ``- `` file's
    are), stripped, the blank ones dropped, joined by spaces."""
    return " ".join(line.strip() for line in text.split("\n") if line.strip())


def _lines(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.strip())


def differ(found: list[str], how: str, wanted: list[str]) -> str:
    """Where two lists of entries first part, in words: a FAIL line says that, not every entry."""
    at = next((i for i, (a, b) in enumerate(zip(found, wanted, strict=False)) if a != b), min(len(found), len(wanted)))
    return (
        f"{how} {len(found)} entries, the plan says {len(wanted)}; from #{at + 1}: "
        f"{found[at : at + 2]!r} where the plan says {wanted[at : at + 2]!r}"
    )


def planned(plan: dict, fate: str, path: str) -> list[dict]:
    """The plan's entries of ``fate`` landing at ``path``, in the order they land there."""
    found = [e for e in plan["entries"] if e["fate"] == fate and e["path"] == path]
    return sorted(found, key=lambda e: e["number"] or 0)


def export_to_hermes(root: Path) -> None:
    """(e): ``persona-notebook export --to hermes --apply``, then a fresh Hermes process reads the home."""
    demo, tricky = root / "export" / "wren", root / "export" / "tricky"
    shutil.copytree(REPO / "notebook_app" / "demo_home", demo)
    tricky.mkdir()
    (tricky / "MEMORY.md").write_text(TRICKY_MEMORY, encoding="utf-8", newline="")
    (tricky / "USER.md").write_text(TRICKY_USER, encoding="utf-8", newline="")
    for name, source in (("demo", demo), ("tricky", tricky)):
        env = Env(root / "export", name)
        (env.home / "memories").rmdir()  # DEST: an empty folder
        plan, applied = env.move("export", "--home", str(source), "--to", "hermes", str(env.home))
        label = f"(e) persona-notebook export --home <{name}> --to hermes DEST --apply"
        if applied.returncode != 0:
            check(False, f"{label}: exit {applied.returncode}: {applied.stderr.strip()[-300:]}")
            continue
        fates = [e["fate"] for e in plan["entries"]]
        print(f"      ({name}: the plan says " + ", ".join(f"{fates.count(f)} {f}" for f in dict.fromkeys(fates)) + ")")
        seen = env.read_back()
        counts = json.loads(env.run_hermes(HERMES_COUNTS))
        for target, file in TARGETS.items():
            lines = (source / file).read_bytes().decode("utf-8").split("\n")

            def text(entry: dict, lines: list[str] = lines, file: str = file) -> str:
                said = bullet(lines[entry["line"] - 1]) if entry["file"] == file else None
                return (
                    f"<no entry at {file}:{entry['line']}: {entry!r}>"
                    if said is None
                    else as_planned(said, entry["changed"])
                )

            loads = [text(e) for e in planned(plan, "loaded", f"memories/{file}")]
            over = [text(e) for e in planned(plan, "overflow", f"memories/{file.removesuffix('.md')}.overflow.md")]
            merged = [text(e) for e in plan["entries"] if e["fate"] == "merged" and e["file"] == file]
            leaked = [t for t in over if t in seen[target]]
            used, limit = counts[target]
            check(
                seen[target] == loads and target not in seen["drift"] and not leaked and used <= limit,
                f"{label}: Hermes's MemoryStore reads {target} as the plan's {len(loads)} loaded entries, in order"
                + ("" if seen[target] == loads else f" ({differ(seen[target], 'Hermes reads', loads)})")
                + (f", its drift guard flags {target}" if target in seen["drift"] else ", no drift")
                + f", {used:,}/{limit:,} chars"
                + (f", {len(merged)} merged copy read once" if merged else "")
                + (f", none of the {len(over)} overflow entries" if over and not leaked else "")
                + (f", overflow entries it reads: {leaked!r}" if leaked else ""),
            )
            if not over:
                if name == "tricky":
                    check(False, f"{label}: the planted {file} passes no limit: nothing of the overflow is proven")
                continue
            side = env.home / "memories" / f"{file.removesuffix('.md')}.overflow.md"
            kept = json.loads(env.run_hermes(HERMES_READS_FILE, str(side)))
            trial = root / "export" / f"{name}-{target}-trial"
            shutil.copytree(env.home, trial)
            tried = json.loads(env.run_hermes(HERMES_TRIES_ADD, target, over[0], home=trial))
            refused = tried.get("success") is False and "exceed the limit" in str(tried.get("error"))
            check(
                kept == over and refused,
                f"{label}: {side.name} holds the {len(over)} overflow entries in order (Hermes's own parser), and "
                f"Hermes's add of the first of them is refused at its limit"
                + ("" if kept == over else f" ({differ(kept, 'the file reads', over)})")
                + ("" if refused else f" (its add answered {tried!r}: the plan moved aside what Hermes would hold)"),
            )


IN_HERMES = [
    ("memory", "a plain first entry"),
    ("memory", "a multi-line entry\nwith a second line\n\n   and a third after a blank one"),
    ("memory", "unicode: 海藻 🐙🦦 naïve e\u0301 שלום"),
    ("memory", "a line separator\u2028and a form feed\x0c are no line ends\nto Hermes: two lines"),
    ("memory", "permit § 4.2 covers night dives"),
    ("memory", "- begins like a bullet"),
    ("memory", "# looks like a heading\nbut is an entry"),
    ("memory", "the last entry"),
    ("user", "name: Zoë"),
    ("user", "likes:\n- green tea\n- paper maps"),
    ("user", "timezone: Europe/Oslo"),
]
"""What a Hermes process adds in (f), target and text, in order."""


def hermes_lines(raw: str) -> dict[int, str]:
    """Each entry of a store Hermes wrote (its ``_write_file``: joined by ``\\n§\\n``) by the line it begins on."""
    found: dict[int, str] = {}
    line = 1
    for part in raw.split("\n§\n"):
        if part.strip():
            found[line + part[: len(part) - len(part.lstrip())].count("\n")] = part.strip()
        line += part.count("\n") + 2
    return found


def import_from_hermes(root: Path) -> None:
    """(f): a store Hermes wrote, ``persona-notebook import --from hermes --create --apply``, our home read."""
    env = Env(root, "import")
    env.run_hermes(HERMES_WRITES, given=json.dumps(IN_HERMES))
    held = env.read_back()
    home = root / "import" / "toolnexus-home"
    plan, applied = env.move("import", "--from", "hermes", str(env.home), str(home), "--create")
    label = "(f) persona-notebook import --from hermes SRC HOME --create --apply"
    if applied.returncode != 0:
        check(False, f"{label}: exit {applied.returncode}: {applied.stderr.strip()[-300:]}")
        return
    for target, file in TARGETS.items():
        raw = (env.home / "memories" / file).read_bytes().decode("utf-8")
        by_line = hermes_lines(raw)
        said = [e for e in planned(plan, "loaded", file) if e["file"] == f"memories/{file}"]
        untold = [e for e in plan["entries"] if e["file"] == f"memories/{file}" and e["fate"] != "loaded"]
        texts = [by_line.get(e["line"], f"<no entry at line {e['line']}>") for e in said]
        wanted = [as_planned(text, e["changed"]) for text, e in zip(texts, said, strict=True)]
        joined = [joined_lines(t) for t in held[target]]
        ours = [t for t in (bullet(line) for line in (home / file).read_bytes().decode("utf-8").split("\n")) if t]
        check(
            texts == held[target] and not untold and ours == wanted == joined,
            f"{label}: our home's {file} holds all {len(held[target])} entries Hermes holds in {target}, in order"
            + f" ({sum(1 for e in said if e['changed'])} multi-line, joined as the plan says)"
            + ("" if ours == wanted else f"; {differ(ours, 'it holds', wanted)}")
            + ("" if wanted == joined else f"; {differ(joined, 'Hermes holds (joined)', wanted)}")
            + (f"; the plan leaves {untold!r}" if untold else ""),
        )


IN_HERMES_BEFORE = [
    ("memory", "field season ends in October"),
    ("memory", "prefers metric units and SI notation"),
    ("user", "name is Priya Raman; she/her"),
]
"""What a Hermes process adds in (g) before the merge: one memory entry the demo also has in USER.md, and one
user entry the demo's USER.md has (so the merge must not add it again)."""
MERGE_LIMIT = 700
"""The memory limit (g)'s config.yaml sets: the demo's MEMORY.md does not fit beside Hermes's own entries."""


def merge_into_hermes(root: Path) -> None:
    """(g): ``export --merge`` into a store Hermes wrote, with a smaller limit in its config.yaml."""
    env = Env(root, "merge")
    (env.home / "config.yaml").write_text(f"memory:\n  memory_char_limit: {MERGE_LIMIT}\n", encoding="utf-8")
    (env.home / "SOUL.md").write_text("# Hermes's own soul\n", encoding="utf-8")
    env.run_hermes(HERMES_WRITES, given=json.dumps(IN_HERMES_BEFORE))
    before = env.read_back()
    demo = root / "merge" / "wren"
    shutil.copytree(REPO / "notebook_app" / "demo_home", demo)
    plan, applied = env.move("export", "--home", str(demo), "--to", "hermes", str(env.home), "--merge")
    label = "(g) persona-notebook export --to hermes DEST --merge --apply, into a store Hermes wrote"
    if applied.returncode != 0:
        check(False, f"{label}: exit {applied.returncode}: {applied.stderr.strip()[-300:]}")
        return
    seen = env.read_back()
    counts = json.loads(env.run_hermes(HERMES_COUNTS))
    for target, file in TARGETS.items():
        lines = (demo / file).read_text(encoding="utf-8").split("\n")
        added = [bullet(lines[e["line"] - 1]) for e in planned(plan, "loaded", f"memories/{file}")]
        present = [e for e in plan["entries"] if e["fate"] == "present" and e["file"] == file]
        over = [e for e in plan["entries"] if e["fate"] == "overflow" and e["file"] == file]
        wanted = before[target] + added
        used, limit = counts[target]
        check(
            seen[target] == wanted and target not in seen["drift"] and used <= limit,
            f"{label}: Hermes reads {target} as its own {len(before[target])} entries, then the plan's "
            f"{len(added)} added, in order"
            + ("" if seen[target] == wanted else f" ({differ(seen[target], 'Hermes reads', wanted)})")
            + (f", its drift guard flags {target}" if target in seen["drift"] else ", no drift")
            + f", {used:,}/{limit:,} chars"
            + (f", {len(present)} it held already not added again" if present else "")
            + (f", {len(over)} past its limit kept aside" if over else ""),
        )
    soul = (env.home / "SOUL.md").read_text(encoding="utf-8")
    beside = env.home / "SOUL.incoming.md"
    check(
        soul == "# Hermes's own soul\n" and beside.read_text(encoding="utf-8") == (demo / "SOUL.md").read_text(),
        f"{label}: Hermes's SOUL.md is as it was, the persona's beside it as SOUL.incoming.md",
    )


def main() -> int:
    if not HERMES_PYTHON.exists():
        print(f"no Hermes at {HERMES_PYTHON}: run `make hosts ARGS=hermes` first", file=sys.stderr)
        return 2
    if not OURS.exists():
        print(f"no persona-notebook beside {sys.executable}: run this with the repository's .venv/bin/python")
        return 2
    print("interop with Hermes 0.19.0 (its own MemoryStore, in benchmarks/.peers/hermes):", flush=True)
    checks: list[Callable[[Path], None]] = [
        cli_writes,
        parallel_adds,
        waits_for_hermes_lock,
        tidy_writes,
        export_to_hermes,
        import_from_hermes,
        merge_into_hermes,
    ]
    with tempfile.TemporaryDirectory(prefix="interop-hermes-") as tmp:
        for run in checks:
            run(Path(tmp))
    print(f"interop: {sum(results)} of {len(results)} checks passed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
