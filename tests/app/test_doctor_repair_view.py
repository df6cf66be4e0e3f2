"""A MEMORY.md that is not UTF-8 is repaired from the doctor view: its bad bytes shown, a dry run, then ``y``."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import SIZE, make_app, open_doctor, started, wait_until
from textual.widgets import OptionList

from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.widgets.common.status_line import StatusLine

BROKEN = b"# Notes\n\n- timezone: UTC\n- caf\xe9 opens at 7\n- tide \xff tables\n"


def health(app) -> str:
    return str(app.screen.query_one(StatusLine).content)


async def test_the_doctor_shows_the_bad_bytes_and_y_replaces_them_with_u_fffd(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(BROKEN)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(
            pilot,
            lambda: "MEMORY.md is not UTF-8 at byte 30 (0xe9) and in 1 more place" in health(app),
            "the health line",
        )
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        index = next(
            i
            for i in range(listing.option_count)
            if (finding := screen._findings.get(listing.get_option_at_index(i).id or ""))
            and finding.rule == "load.not-utf8"
        )
        listing.highlighted = index
        detail = lambda: str(screen.query_one("#doctor-detail").content)  # noqa: E731
        await wait_until(pilot, lambda: "y applies it" in detail(), "the repair's dry run")
        assert "Bad bytes: line 4, byte 30: e9; line 5, byte 50: ff" in detail()
        assert "2 places become U+FFFD (�): line 4, byte 30: e9; line 5, byte 50: ff" in detail()
        assert (home / "MEMORY.md").read_bytes() == BROKEN and not (home / ".notebook").exists()
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: (home / "MEMORY.md").read_bytes() == BROKEN.decode("utf-8", "replace").encode(),
            "the repair to land",
        )
        await wait_until(
            pilot,
            lambda: (
                [n.message for n in app._notifications][-1:]
                == ["ok (replace 2 places of bytes that are not UTF-8 with U+FFFD → MEMORY.md); loads next session"]
            ),
            "the repair said",
        )
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await wait_until(pilot, lambda: "no problems found" in health(app), "healthy again")
