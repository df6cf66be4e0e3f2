"""The built-in editor's save (issue 13): ctrl+s on a 2 MiB MEMORY.md, core write and what the app does after.

15. One edit of a line in the middle of a MEMORY.md of about 2 MiB, saved the
    way the editor saves it: the buffer's text, the guarded hand edit (fsync'd),
    the notebook's re-read of the home, the editor's new base. Once with the
    file as the editor found it (one splice), once after an agent's add
    meanwhile (the three-way merge). Medians, in our interpreter
    (``edit_jobs.py``).
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from benchlib import HERE, OURS, Bench, Row, Section, fmt_time, parse_result

JOBS = HERE / "edit_jobs.py"


def drive_edit(bench: Bench, job: dict[str, Any]) -> dict[str, Any]:
    impl = bench.impls[OURS]
    assert impl.python is not None
    done = subprocess.run(
        [str(impl.python), str(JOBS), json.dumps(job)], capture_output=True, text=True, timeout=900, cwd=HERE, env=bench.environment()
    )
    return parse_result(impl, job, done.returncode, done.stdout, done.stderr)


class EditorSave:
    number = "15"
    title = "the built-in editor's save of a 2 MiB MEMORY.md"
    what = (
        "ctrl+s after changing one line in the middle of a ~2 MiB MEMORY.md, as the editor runs it: the buffer's text, "
        "the guarded hand edit (fsync'd), the notebook's re-read of the home, the editor's new base; median of {repeats}, "
        "unchanged on disk (one splice) and after an agent's add meanwhile (merged)."
    )

    def run(self, bench: Bench) -> Section:
        repeats = 3 if bench.config.smoke else 15
        section = Section(self.number, self.title, self.what.format(repeats=repeats))
        out = drive_edit(bench, {"job": "save", "home": str(bench.scratch("editor-save") / "h"), "bytes": 2 * 1024 * 1024, "repeats": repeats})
        size = f"{out['file_bytes']:,} bytes, {out['lines']:,} lines"
        for kind, label in (("splice", "unchanged on disk: one splice"), ("merge", "an agent added meanwhile: merged")):
            figures = out[kind]
            section.rows.append(Row(f"15 {kind}", f"save, {label} ({size})", {OURS: fmt_time(figures["total"])}))
            section.notes.append(
                f"{kind}: buffer text {fmt_time(figures['buffer'])}, guarded write {fmt_time(figures['core'])}, "
                f"re-read of the home {fmt_time(figures['reread'])}, new base {fmt_time(figures['base'])}."
            )
        section.notes.append("The write and the re-read run in a worker: the editor stays responsive; only the new base is on the event loop.")
        return section


MEASURES = [EditorSave()]
