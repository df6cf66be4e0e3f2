"""Export the README's screenshot: the demo persona with one memory waiting for next session.

Runs the real app headless on a temp copy of the demo persona, adds an entry
through the form (so the memory tool writes it), opens a replace to show the
dry run, and saves the SVG Textual renders. Times and paths are pinned.

    .venv/bin/python scripts/screenshot.py [OUT.svg] [--theme NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
from importlib.resources import files
from pathlib import Path

from notebook_app.app.app import NotebookApp

SIZE = (100, 30)
"""A size the README can show whole: the three columns, size facts in the title rules, the dry run under the form."""


async def shoot(out: Path, theme: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch) / "demo"
        shutil.copytree(str(files("notebook_app") / "demo_home"), home)
        app = NotebookApp(home, theme=theme, watch=False, home_label="demo persona", clock=lambda _: "09:30:00")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.screen.query("#next").first().document.lines)
            await pilot.press("a", *"prefers tide times on a 24-hour clock", "enter")
            await wait_for(pilot, lambda: "24-hour" in (home / "MEMORY.md").read_text() and not app.screen.form.is_open)
            await wait_for(
                pilot, lambda: any("24-hour" in line for line in app.screen.query_one("#next").document.lines)
            )
            for _ in range(3):
                await pilot.press("down")
            await pilot.press("r")
            await pilot.press(*["backspace"] * len("Fridays"), *"Thursdays")
            await wait_for(
                pilot,
                lambda: app.screen.round_trip.dry is not None and "Thursdays" in str(app.screen.round_trip.dry.args),
            )
            await wait_for(pilot, lambda: "no problems found" in str(app.screen.query_one("#status-line").content))
            app.clear_notifications()
            await pilot.pause()
            out.write_text(app.export_screenshot(title="Persona Notebook"))


async def wait_for(pilot, condition, attempts: int = 400) -> None:
    for _ in range(attempts):
        if condition():
            return
        await pilot.pause(0.01)
    raise TimeoutError("the app did not reach the expected state")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/screenshot.svg", type=Path)
    parser.add_argument("--theme", default="dark")
    args = parser.parse_args()
    asyncio.run(shoot(args.out, args.theme))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
