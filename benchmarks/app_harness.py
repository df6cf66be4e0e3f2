"""Measures 5–8 and 13: run the app in a real pseudo-terminal and read its screen.

Runs in the harness venv (``benchmarks/.peers/apptools``, which has pyte, a
terminal emulator); starts the app and the floors with OUR interpreter, so
they use the project's Textual and watchfiles. Same protocol as driver.py::

    python app_harness.py JOB_JSON     ->  RESULT <json>

What the screen must show is decided in one place, ``Screen`` below: a pane
is found by its border title, and "fully painted" means every pane has its
content. When the app never shows what is expected, the job fails with the
screen as it was, never with a made-up figure.

Timing: a reader thread stamps each chunk of terminal output with
``time.monotonic()`` as it arrives; a figure ends at the arrival of the chunk
after which the screen first shows the expected state, so the emulator's own
parsing time is not charged to the app.
"""

from __future__ import annotations

import fcntl
import json
import os
import queue
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyte

HERE = Path(__file__).resolve().parent
COLS, ROWS = 120, 40
BOOTSTRAP = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md")


class NotShown(Exception):
    """The app never showed what was expected; carries the screen."""


class _Screen(pyte.Screen):
    """A pyte screen that answers the terminal's queries back to the app."""

    def __init__(self, cols: int, rows: int, reply: Callable[[bytes], None]) -> None:
        super().__init__(cols, rows)
        self._reply = reply

    def write_process_input(self, data: str) -> None:
        self._reply(data.encode())


class Term:
    """One program on a pseudo-terminal of COLS × ROWS, with its screen."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.master = master
        self.chunks: queue.Queue[tuple[float, bytes]] = queue.Queue()
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True
        )
        os.close(slave)
        self.screen = _Screen(COLS, ROWS, self._write)
        self.stream = pyte.ByteStream(self.screen)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _write(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:
            pass

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:
                data = b""
            stamp = time.monotonic()
            self.chunks.put((stamp, data))
            if not data:
                return

    def send(self, data: bytes) -> float:
        stamp = time.monotonic()
        self._write(data)
        return stamp

    def lines(self) -> list[str]:
        return list(self.screen.display)

    def drain(self) -> float | None:
        """Feed the output that has arrived so far; the arrival time of the last chunk fed (None: none was)."""
        last = None
        while True:
            try:
                stamp, data = self.chunks.get_nowait()
            except queue.Empty:
                return last
            if not data:
                self.chunks.put((stamp, data))  # the end: left for wait_for to report
                return last
            self.stream.feed(data)
            last = stamp

    def wait_for(self, shown: Callable[[Term], bool], timeout: float, what: str) -> float:
        """Arrival time of the output after which ``shown`` first holds."""
        deadline = time.monotonic() + timeout
        if shown(self):
            return time.monotonic()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise NotShown(f"{what}: not shown within {timeout:.0f} s; screen:\n" + "\n".join(self.lines()))
            try:
                stamp, data = self.chunks.get(timeout=left)
            except queue.Empty:
                continue
            if not data:
                raise NotShown(
                    f"{what}: the program exited (code {self.proc.poll()}); screen:\n" + "\n".join(self.lines())
                )
            self.stream.feed(data)
            stamp = self.drain() or stamp  # take what has already arrived before judging the screen
            if shown(self):
                return stamp

    def peak_rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
        return 0

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=5)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait()
        # The reader ends at the pty's end (EIO once the program is gone); closing the master before it has
        # would let the next Term's openpty reuse the fd number under a reader still looping on it, which then
        # steals that terminal's output (a garbled screen, start never "painted"; seen under load).
        self._reader.join(timeout=10)
        try:
            os.close(self.master)
        except OSError:
            pass


# --------------------------------------------------------------------------
# What the app's screen must show (the app's own words live only here)
# --------------------------------------------------------------------------

HOME_PANE, CURRENT_PANE, NEXT_PANE = "Home", "Current session", "Next session"
LOADING = "loading…"
FORM_TITLE = "Memory action"
DRY_RUN = "dry run:"
IN_SYNC = "in sync"


def pane(lines: list[str], title: str) -> list[str] | None:
    """The inside of the bordered pane whose border title is ``title``."""
    for row, line in enumerate(lines):
        at = line.find(f"─ {title} ")
        if at < 0:
            continue
        left, right = line.rfind("╭", 0, at), line.find("╮", at)
        if left < 0 or right < 0:
            continue
        inside = []
        for below in lines[row + 1 :]:
            if below[left : left + 1] == "╰":
                break
            inside.append(below[left + 1 : right])
        return inside
    return None


def pane_text(term: Term, title: str) -> str:
    return "\n".join(pane(term.lines(), title) or [])


def fully_painted(home: str) -> Callable[[Term], bool]:
    """The main screen with every pane filled: the home's files listed, MEMORY.md's
    summary (its size) shown, both souls shown."""
    present = [name for name in BOOTSTRAP if (Path(home) / name).is_file()]
    sizes = {name: (Path(home) / name).stat().st_size for name in present}

    def shown(term: Term) -> bool:
        lines = term.lines()
        home, current, nxt = pane(lines, HOME_PANE), pane(lines, CURRENT_PANE), pane(lines, NEXT_PANE)
        if home is None or current is None or nxt is None:
            return False
        home_text, current_text, next_text = "\n".join(home), "\n".join(current), "\n".join(nxt)
        if LOADING in home_text or LOADING in current_text or LOADING in next_text:
            return False
        first = f"## {present[0]}" if present else ""
        summary = f"{sizes['MEMORY.md']:,} bytes" if "MEMORY.md" in sizes else ""
        return (
            all(name in home_text for name in present)
            and summary in home_text
            and first in current_text
            and first in next_text
        )

    return shown


def floor_painted(term: Term) -> bool:
    from app_floor import FLOOR_TEXT

    return any(FLOOR_TEXT in line for line in term.lines())


# --------------------------------------------------------------------------
# Jobs
# --------------------------------------------------------------------------


def _env() -> dict[str, str]:
    """The app's environment: no Textual or Python settings of the caller's, except the runner's
    PYTHONPATH (this checkout), so a second worktree measures its own code, not the venv's install."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "NO_COLOR", "PYTHON", "VIRTUAL_ENV"))}
    if "PYTHONPATH" in os.environ:
        keep["PYTHONPATH"] = os.environ["PYTHONPATH"]
    keep.update(TERM="xterm-256color", COLORTERM="truecolor", COLUMNS=str(COLS), LINES=str(ROWS))
    keep["PYTHONDONTWRITEBYTECODE"] = "1"
    if "PYTHONPATH" in os.environ:  # the runner's: this checkout first, so a worktree measures its own code
        keep["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return keep


def compile_ours(job: dict[str, Any]) -> None:
    """Byte-compile the notebook the app will import, as installing it does.

    The app runs with PYTHONDONTWRITEBYTECODE; in a checkout without
    ``__pycache__`` (a fresh worktree) every start compiled all of its modules
    from source, a third more work than an installed app's start (Textual, the
    floor's, is compiled in site-packages).
    """
    code = (
        "import compileall, os, notebook_app; compileall.compile_dir(os.path.dirname(notebook_app.__file__), quiet=1)"
    )
    env = {k: v for k, v in _env().items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([job["ours_python"], "-c", code], env=env, check=True, capture_output=True)


def app_argv(job: dict[str, Any], home: str) -> list[str]:
    python = Path(job["ours_python"])
    script = python.parent / "persona-notebook"
    return [str(script), home] if script.exists() else [str(python), "-m", "notebook_app", home]


def floor_argv(job: dict[str, Any]) -> list[str]:
    return [job["ours_python"], str(HERE / "app_floor.py"), "static"]


def plain_argv(job: dict[str, Any], home: str) -> list[str]:
    """The floor of measures 5-7: the same screen written plainly with stock widgets (app_floor.py plain)."""
    return [job["ours_python"], str(HERE / "app_floor.py"), "plain", home]


def start_plain(job: dict[str, Any], home: str, timeout: float) -> tuple[Term, float]:
    """The plain floor, started and judged painted exactly as the app is (same panes, same words)."""
    term = Term(plain_argv(job, home), _env())
    try:
        done = term.wait_for(fully_painted(home), timeout, f"plain floor on {home}: first full paint")
    except BaseException:
        term.close()
        raise
    return term, done - term.started


def start_app(job: dict[str, Any], home: str, timeout: float) -> tuple[Term, float]:
    term = Term(app_argv(job, home), _env())
    try:
        done = term.wait_for(fully_painted(home), timeout, f"app on {home}: first full paint")
    except BaseException:
        term.close()
        raise
    return term, done - term.started


def job_start(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 5: process start to first full paint; the app, the plain floor and the one-Static floor in turn."""
    app_times, floor_times, plain_times = [], [], []
    for _ in range(job["repeats"]):
        term, seconds = start_plain(job, job["home"], job["timeout"])
        term.close()
        plain_times.append(seconds)
        floor = Term(floor_argv(job), _env())
        try:
            floor_times.append(
                floor.wait_for(floor_painted, job["timeout"], "bare Textual app: first paint") - floor.started
            )
        finally:
            floor.close()
        term, seconds = start_app(job, job["home"], job["timeout"])
        term.close()
        app_times.append(seconds)
    return {"app_s": app_times, "floor_s": floor_times, "plain_s": plain_times}


def job_rss(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 8: peak RSS once fully painted and idle for ``settle`` seconds."""
    out = []
    for _ in range(job["repeats"]):
        term, _seconds = start_app(job, job["home"], job["timeout"])
        try:
            time.sleep(job["settle"])
            out.append(term.peak_rss_kib())
        finally:
            term.close()
    floor = Term(floor_argv(job), _env())
    try:
        floor.wait_for(floor_painted, job["timeout"], "bare Textual app: first paint")
        time.sleep(job["settle"])
        floor_kib = floor.peak_rss_kib()
    finally:
        floor.close()
    return {"app_kib": out, "floor_kib": floor_kib}


def _next_shows(text: str) -> Callable[[Term], bool]:
    return lambda term: text in pane_text(term, NEXT_PANE)


def _next_head(term: Term) -> str:
    """The Next-session pane's first row: what it is (meta) and its badge ("" while a notification covers it:
    notifications appear at the top right, over Next's title; see :func:`_no_notification`)."""
    rows = pane(term.lines(), NEXT_PANE)
    return rows[0] if rows else ""


def _no_notification(term: Term, timeout: float) -> None:
    """Wait until Next's head shows whole (its meta starts
    ``#N``): no notification lies over it (each lasts seconds)."""
    term.drain()
    term.wait_for(
        lambda t: _next_head(t).lstrip().startswith("#"), timeout, "the notifications gone from over Next's head"
    )


def _back_in_sync(term: Term, memory: Path, size: int, timeout: float) -> None:
    """Untimed: cut MEMORY.md back to ``size`` (an outside write) and wait until the
    preview is in sync again, so every trial starts from the same screen."""
    os.truncate(memory, size)
    summary = f"{size:,} bytes"
    term.wait_for(
        lambda t: IN_SYNC in _next_head(t) and summary in pane_text(t, HOME_PANE),
        timeout,
        "back in sync after the reset",
    )
    time.sleep(0.3)


def _append(path: Path, line: str) -> float:
    """An outside writer: a plain append, as an agent or an editor would make."""
    with open(path, "a", encoding="utf-8") as handle:
        stamp = time.monotonic()
        handle.write(line)
    return stamp


def job_external(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 6: an outside append → shown in the Next-session pane, vs raw watchfiles.

    Two end points per trial: the preview reacts (the first repaint of the
    pane's head, where the change count is), and the appended line itself is
    on screen in the pane (the pane scrolls to the first change).
    """
    timeout = job["timeout"]
    watcher = subprocess.Popen(
        [job["ours_python"], str(HERE / "app_floor.py"), "watch", job["floor_home"]],
        stdout=subprocess.PIPE,
        env=_env(),
        start_new_session=True,
    )
    memory = Path(job["home"]) / "MEMORY.md"
    size = memory.stat().st_size
    plain_memory = Path(job["plain_home"]) / "MEMORY.md"
    term, _ = start_app(job, job["home"], timeout)
    plain: Term | None = None
    reacted, shown, floor_s, plain_reacted, plain_shown = [], [], [], [], []
    try:
        plain, _ = start_plain(job, job["plain_home"], timeout)
        assert watcher.stdout is not None
        if watcher.stdout.readline().strip() != b"ready":
            raise NotShown("the watchfiles floor did not start")
        time.sleep(1.0)  # both watchers settled
        for k in range(job["trials"]):
            _drain(watcher)
            t0 = _append(Path(job["floor_home"]) / "MEMORY.md", f"- ext-{k:03d}\n")
            floor_s.append(_notified(watcher, timeout) - t0)
            time.sleep(0.2)
            head = _next_head(term)
            marker = f"ext-{k:03d}"
            t0 = _append(memory, f"- {marker}\n")
            reacted.append(
                term.wait_for(lambda t, head=head: _next_head(t) != head, timeout, f"write {k}: preview reacted") - t0
            )
            shown.append(term.wait_for(_next_shows(marker), timeout, f"write {k}: line shown in the preview") - t0)
            _back_in_sync(term, memory, size, timeout)
            head = _next_head(plain)
            t0 = _append(plain_memory, f"- {marker}\n")
            plain_reacted.append(
                plain.wait_for(lambda t, head=head: _next_head(t) != head, timeout, f"write {k}: plain floor reacted")
                - t0
            )
            plain_shown.append(
                plain.wait_for(_next_shows(marker), timeout, f"write {k}: line shown by the plain floor") - t0
            )
            _back_in_sync(plain, plain_memory, size, timeout)
    finally:
        term.close()
        if plain is not None:
            plain.close()
        os.killpg(watcher.pid, signal.SIGTERM)
        watcher.wait()
    return {
        "reacted_s": reacted,
        "shown_s": shown,
        "floor_s": floor_s,
        "plain_reacted_s": plain_reacted,
        "plain_shown_s": plain_shown,
    }


def _drain(proc: subprocess.Popen[bytes]) -> None:
    assert proc.stdout is not None
    while select.select([proc.stdout], [], [], 0)[0]:
        if not proc.stdout.readline():
            return


def _notified(proc: subprocess.Popen[bytes], timeout: float) -> float:
    assert proc.stdout is not None
    if not select.select([proc.stdout], [], [], timeout)[0]:
        raise NotShown("watchfiles reported nothing")
    line = proc.stdout.readline().decode().split()
    return float(line[1])


def job_form_add(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 7: add through the form; enter → file pane and preview updated.

    Done when, in one frame, the form has closed, the file pane shows
    MEMORY.md's new size and the preview's head has changed from the dry
    run's. Two apps (small and large home) take turns, one add each.
    """
    timeout = job["timeout"]
    terms: dict[str, Term] = {}
    out: dict[str, list[float]] = {"small": [], "large": [], "floor": [], "plain_small": [], "plain_large": []}
    floor: Term | None = None
    plains: dict[str, Term] = {}
    try:
        for label in ("small", "large"):
            terms[label], _ = start_app(job, job[f"{label}_home"], timeout)
            plains[label], _ = start_plain(job, job[f"plain_{label}_home"], timeout)
        floor = Term([job["ours_python"], str(HERE / "app_floor.py"), "enter"], _env())
        floor.wait_for(lambda t: any("Floor: type" in line for line in t.lines()), timeout, "the enter floor painted")
        time.sleep(0.5)
        for k in range(job["trials"]):
            out["floor"].append(_floor_enter(floor, f"floor-{k:03d}", timeout))
            for label, term in terms.items():
                memory = Path(job[f"{label}_home"]) / "MEMORY.md"
                size = memory.stat().st_size
                text = f"form-{k:03d}"
                _no_notification(term, timeout)  # untimed: the last add's notification has gone from over Next
                term.send(b"a")
                term.wait_for(lambda t: FORM_TITLE in "\n".join(t.lines()), timeout, "the add form opened")
                term.send(text.encode())
                term.wait_for(
                    lambda t, text=text: DRY_RUN in "\n".join(t.lines()) and text in "\n".join(t.lines()),
                    timeout,
                    "the form's dry run shown",
                )
                time.sleep(0.1)  # let the dry run's own repaint finish before the clock starts
                head = _next_head(term)
                expected = f"{size + len(('- ' + text + chr(10)).encode()):,} bytes"
                t0 = term.send(b"\r")
                done = term.wait_for(
                    lambda t, head=head, expected=expected: (
                        FORM_TITLE not in "\n".join(t.lines())
                        and expected in pane_text(t, HOME_PANE)
                        and _next_head(t) != head
                    ),
                    timeout,
                    f"add {k} on the {label} home: file pane at {expected}, preview updated",
                )
                out[label].append(done - t0)
                _back_in_sync(term, memory, size, timeout)
                out[f"plain_{label}"].append(
                    _plain_enter(plains[label], Path(job[f"plain_{label}_home"]), text, timeout)
                )
    finally:
        for term in [*terms.values(), *plains.values()]:
            term.close()
        if floor is not None:
            floor.close()
    return {f"{label}_s": v for label, v in out.items()}


def _plain_enter(plain: Term, home: Path, text: str, timeout: float) -> float:
    """The plain floor driven as the form is: type, settle, then time enter → the size and Next's head repainted."""
    memory = home / "MEMORY.md"
    size = memory.stat().st_size
    plain.send(text.encode())
    plain.wait_for(lambda t: text in "\n".join(t.lines()), timeout, "the plain floor's typed text")
    time.sleep(0.1)
    head = _next_head(plain)
    expected = f"{size + len(('- ' + text + chr(10)).encode()):,} bytes"
    t0 = plain.send(b"\r")
    done = plain.wait_for(
        lambda t: expected in pane_text(t, HOME_PANE) and _next_head(t) != head,
        timeout,
        f"the plain floor's add: file pane at {expected}, Next's head changed",
    )
    _back_in_sync(plain, memory, size, timeout)
    return done - t0


def _floor_enter(floor: Term, text: str, timeout: float) -> float:
    """The floor driven as the form is: type, settle, then time enter → the text repainted."""
    floor.send(text.encode())
    floor.wait_for(lambda t: any(text in line for line in t.lines()), timeout, "the floor's typed text")
    time.sleep(0.1)
    t0 = floor.send(b"\r")
    done = floor.wait_for(
        lambda t: any(f"entered: {text}" in line for line in t.lines()), timeout, "the floor's repaint"
    )
    return done - t0


REVIEW_PANE = "Proposals, oldest first"


def _review_shows(marker: str) -> Callable[[Term], bool]:
    return lambda term: marker in pane_text(term, REVIEW_PANE)


def job_review(job: dict[str, Any]) -> dict[str, Any]:
    """Measure 13: an agent's call over MCP in review mode → the proposal listed in the notebook's review view.

    The agent (review_agent.py: the SDK's client on ``persona-notebook mcp HOME
    --review``) and the floor (raw watchfiles on the home's ``.notebook``,
    where the log is) see the same call: each trial's floor is the time from
    the agent's send to watchfiles' notification of that log write. Between
    trials the queue is rejected from the command line (untimed) and, since a
    row decided elsewhere stays listed, the view is left and opened again,
    empty.
    """
    timeout = job["timeout"]
    home = Path(job["home"])
    agent = subprocess.Popen(
        [job["ours_python"], str(HERE / "review_agent.py"), str(home)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=_env(),
        start_new_session=True,
    )
    watcher: subprocess.Popen[bytes] | None = None
    term: Term | None = None
    shown, reply, floor_s = [], [], []
    try:
        assert agent.stdin is not None and agent.stdout is not None
        if not select.select([agent.stdout], [], [], timeout)[0] or agent.stdout.readline().strip() != b"ready":
            raise NotShown("the review agent did not connect to its server")
        watcher = subprocess.Popen(
            [job["ours_python"], str(HERE / "app_floor.py"), "watch", str(home / ".notebook")],
            stdout=subprocess.PIPE,
            env=_env(),
            start_new_session=True,
        )
        assert watcher.stdout is not None
        if watcher.stdout.readline().strip() != b"ready":
            raise NotShown("the watchfiles floor did not start")
        term, _ = start_app(job, str(home), timeout)
        term.send(b"p")
        term.wait_for(lambda t: "Nothing to review" in "\n".join(t.lines()), timeout, "the review view, empty")
        time.sleep(1.0)  # every watcher settled
        for k in range(job["trials"]):
            _drain(watcher)
            marker = f"review-{k:03d}"
            agent.stdin.write(f"{marker}\n".encode())
            agent.stdin.flush()
            if not select.select([agent.stdout], [], [], timeout)[0]:
                raise NotShown(f"proposal {k}: the agent got no answer")
            words = agent.stdout.readline().decode().split(" ", 3)
            if words[0] != "sent" or "queued for review" not in words[3]:
                raise NotShown(f"proposal {k}: the call was not queued: {' '.join(words)}")
            t0, t1 = float(words[1]), float(words[2])
            reply.append(t1 - t0)
            floor_s.append(_notified(watcher, timeout) - t0)
            shown.append(term.wait_for(_review_shows(marker), timeout, f"proposal {k}: listed in the review view") - t0)
            subprocess.run(
                [job["ours_python"], "-m", "notebook_app", "reject", "--all", "--home", str(home)],
                env=_env(),
                capture_output=True,
                timeout=timeout,
                check=True,
            )
            # a proposal decided elsewhere stays listed with its outcome: the view is opened again, empty
            term.wait_for(lambda t: "0 proposals to review" in "\n".join(t.lines()), timeout, "the queue decided")
            term.send(b"\x1b")
            time.sleep(0.3)
            term.send(b"p")
            term.wait_for(lambda t: "Nothing to review" in "\n".join(t.lines()), timeout, "the queue empty again")
            time.sleep(0.3)
    finally:
        if term is not None:
            term.close()
        for process in (agent, watcher):
            if process is not None and process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait()
    return {"shown_s": shown, "reply_s": reply, "floor_s": floor_s}


JOBS = {"start": job_start, "rss": job_rss, "external": job_external, "form_add": job_form_add, "review": job_review}


def main(argv: list[str]) -> int:
    sys.setswitchinterval(0.001)  # the reader thread stamps chunks promptly
    sys.path.insert(0, str(HERE))
    job = json.loads(argv[1])
    compile_ours(job)
    try:
        result = JOBS[job["job"]](job)
    except NotShown as error:
        print("RESULT " + json.dumps({"error": str(error)}), flush=True)
        return 1
    for key, value in list(result.items()):
        if isinstance(value, list) and value and isinstance(value[0], float):
            result[key + "_median"] = statistics.median(value)
    print("RESULT " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
