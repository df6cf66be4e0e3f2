"""Measures 5–8: the Textual app against Textual's own floor.

They need the app (``notebook_app.app``: ``launch`` and the App class in
``notebook_app/app/app.py``). Until it exists and starts, each measure reports
itself as pending with the reason, and the goals they hold are pending too:
no figure here is ever estimated.
"""

from __future__ import annotations

import subprocess

from benchlib import REPO, Bench, Goal, Section


def app_status(bench: Bench) -> str | None:
    """None when the app can be measured; otherwise why not."""
    ours = bench.impls.get("ours")
    if ours is None or ours.python is None:
        return "our interpreter is not available"
    if not (REPO / "notebook_app" / "app" / "app.py").is_file():
        return "the app is not built yet: notebook_app/app/app.py does not exist in this tree"
    probe = subprocess.run(
        [str(ours.python), "-c", "from notebook_app.app import launch; from notebook_app.app.app import *"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    if probe.returncode != 0:
        tail = probe.stderr.strip().splitlines()[-1:] or ["(no message)"]
        return f"the app does not import yet: {tail[0]}"
    return "the app imports, but measures 5–8 are not implemented in this runner yet"


class _AppMeasure:
    number = "?"
    title = ""
    what = ""
    goal: str | None = None

    def run(self, bench: Bench) -> Section:
        section = Section(self.number, self.title, self.what)
        why = app_status(bench)
        if why is not None:
            section.pending = why
            if self.goal:
                section.goals.append(Goal(self.goal, "—", "pending", why))
        return section


class AppStart(_AppMeasure):
    number = "5"
    title = "App start to first full paint"
    what = (
        "From process start to the first full paint of the main screen on the demo home, against a bare Textual "
        "app that shows one Static (the floor any Textual app pays), measured the same way."
    )
    goal = "App start ≤ 1.5× the bare-Textual floor"


class ExternalWrite(_AppMeasure):
    number = "6"
    title = "External write → visible in the Next-session preview"
    what = (
        "A write by another process until the preview shows it, against raw watchfiles notification latency "
        "with the same settings (awatch(debounce=50, step=10)), medians of ≥ 20 trials."
    )
    goal = "External write to screen ≤ 1.5× the watchfiles floor"


class FormAdd(_AppMeasure):
    number = "7"
    title = "An add through the form → file pane and preview updated"
    what = "With a 1 KiB and a 2 MiB MEMORY.md: how the app's cost grows with the home."
    goal = "Form add with 2 MiB ≤ 3× the same with 1 KiB"


class PeakRSS(_AppMeasure):
    number = "8"
    title = "Peak memory (RSS) of the app"
    what = "Peak resident memory of the app on the demo home and on a home with a 2 MiB MEMORY.md."


MEASURES = [AppStart(), ExternalWrite(), FormAdd(), PeakRSS()]
