"""The built-in editor's save, timed in our interpreter: ``edit_jobs.py '{"job": …}'`` prints ``RESULT <json>``.

What ``ctrl+s`` costs on a 2 MiB MEMORY.md, split as the app runs it: the
buffer's text taken from the TextArea's document, the guarded hand edit
(core, under the lock, fsync'd as the app writes), the notebook's re-read of
the home afterwards (the state the panes show: what ``Notebook.hand_edit``
does after the write, under its lock), and the editor's new base (the digest
of the written text). Once with the file as the editor found it
(one splice) and once after an agent's add meanwhile (the merge path).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def seed(home: Path, size: int) -> str:
    """A MEMORY.md of about ``size`` bytes of entries, written as an outside write; its text."""
    home.mkdir(parents=True, exist_ok=True)
    lines, total, i = [], 0, 0
    while total < size:
        line = f"- entry {i:06d}: the tide at Point Pinos turned at {i % 24:02d}:00, note for the transect log\n"
        lines.append(line)
        total += len(line)
        i += 1
    text = "".join(lines)
    (home / "MEMORY.md").write_text(text)
    return text


def job_save(job: dict[str, Any]) -> dict[str, Any]:
    from textual.document._document import Document

    from notebook_app.app.view_model.notebook import Notebook
    from notebook_app.core.memory.edits.hand_edit import text_digest, write_file
    from notebook_app.core.record.log.actor import NOTEBOOK, Actor
    from notebook_app.core.memory.tool import MemoryTool

    home = Path(job["home"])
    base = seed(home, job["bytes"] - 8 * 1024)  # room for the edits and the agent's adds under the cap
    notebook = Notebook(home)
    notebook.refresh()  # the app has read the home before E
    agent = MemoryTool(home, by=Actor.mcp("bench", "agent", "1"))
    phases: dict[str, dict[str, list[float]]] = {
        kind: {"buffer": [], "core": [], "reread": [], "base": [], "total": []} for kind in ("splice", "merge")
    }
    for r in range(job["repeats"]):
        for kind in ("splice", "merge"):
            lines = base.split("\n")
            middle = len(lines) // 2
            lines[middle] = lines[middle] + f" (edited {r} {kind})"
            buffer = Document("\n".join(lines))  # what the TextArea holds
            if kind == "merge":
                result = agent.call({"action": "add", "text": f"agent entry {r}"})
                assert not result.is_error, result.output
            started = time.perf_counter()
            text = buffer.text
            took_buffer = time.perf_counter()
            result = write_file(home, "MEMORY.md", text, base_text=base, base_digest=text_digest(base), by=NOTEBOOK)
            took_core = time.perf_counter()
            notebook.refresh()
            took_reread = time.perf_counter()
            assert result.text is not None and not result.is_error, result.output
            base = result.text
            text_digest(base)
            done = time.perf_counter()
            assert (kind == "merge") == (result.merge is not None)
            for phase, seconds in (
                ("buffer", took_buffer - started),
                ("core", took_core - took_buffer),
                ("reread", took_reread - took_core),
                ("base", done - took_reread),
                ("total", done - started),
            ):
                phases[kind][phase].append(seconds)
    return {
        "file_bytes": (home / "MEMORY.md").stat().st_size,
        "lines": base.count("\n"),
        **{
            kind: {phase: statistics.median(times) for phase, times in by_phase.items()}
            for kind, by_phase in phases.items()
        },
    }


def job_conflict(job: dict[str, Any]) -> dict[str, Any]:
    """The conflict view on a ~2 MiB MEMORY.md with ``conflicts`` conflicts spread through it, in the real app
    (headless, 120 x 40): the event loop's work to open it and for each key (1/2/3, up/down) until both sides show
    the new state, every loop callback timed (``find_job.instrument_loop``)."""
    import asyncio

    from find_job import BUSY, instrument_loop

    from notebook_app.app.app import NotebookApp
    from notebook_app.app.screens.conflict import ConflictScreen
    from notebook_app.app.themes import shipped_themes_dir
    from notebook_app.core.text.merge import merge3

    home = Path(job["home"])
    base = seed(home, job["bytes"] - 8 * 1024)
    lines = base.split("\n")
    places = [len(lines) * (i + 1) // (job["conflicts"] + 1) for i in range(job["conflicts"])]
    ours, theirs = list(lines), list(lines)
    for at in places:
        ours[at] += " (mine)"
        theirs[at] += " (theirs)"
    theirs_text = "\n".join(theirs)
    (home / "MEMORY.md").write_text(theirs_text)
    merge = merge3(base, theirs_text, "\n".join(ours))
    assert len(merge.conflicts) == job["conflicts"]
    instrument_loop()

    async def drive() -> dict[str, Any]:
        app = NotebookApp(
            home,
            theme="dark",
            watch=False,
            home_label="bench",
            clock=lambda _: "12:00:00",
            theme_dirs=[shipped_themes_dir()],
        )
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(3000):
                if getattr(app.screen, "state", None) is not None:
                    break
                await pilot.pause(0.01)
            await pilot.pause(1.0)  # the doctor's first check and the first paints settle
            main = app.screen
            screen = main

            def shown() -> bool:
                views = list(screen.query("#conflict-mine, #conflict-theirs"))
                return len(views) == 2 and all(
                    view.document.lines and view.visible_document is view.document for view in views
                )

            async def until_shown() -> tuple[float, float]:
                for _ in range(20000):
                    if app.screen is screen and shown():
                        break
                    await asyncio.sleep(0.0005)
                await pilot.pause()
                return BUSY[0], BUSY[1]

            opens: list[tuple[float, float]] = []
            keys: list[dict[str, Any]] = []
            for _ in range(job["rounds"]):
                screen = ConflictScreen(
                    main.notebook, "MEMORY.md", merge, theirs=theirs_text, applied=lambda _state: None
                )
                BUSY[0] = BUSY[1] = 0.0
                app.push_screen(screen)
                opens.append(await until_shown())
                for key in ("down", "down", "up", "1", "2", "3", "up", "up"):
                    BUSY[0] = BUSY[1] = 0.0
                    await pilot.press(key)
                    busy, longest = await until_shown()
                    keys.append({"key": key, "loop_s": busy, "longest_s": longest})
                app.pop_screen()
                await pilot.pause(0.2)
            return {"opens": [{"loop_s": busy, "longest_s": longest} for busy, longest in opens], "keys": keys}

    result = asyncio.run(drive())
    return {"file_bytes": (home / "MEMORY.md").stat().st_size, "lines": theirs_text.count("\n"), **result}


JOBS = {"save": job_save, "conflict": job_conflict}


def main(argv: list[str]) -> int:
    job = json.loads(argv[1])
    print("RESULT " + json.dumps(JOBS[job["job"]](job)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
