"""Homes people really have: every strange file is named in words, nothing crashes or hangs.

The in-process tests drive the real app with Pilot on real FIFOs, link loops,
devices and directories; the process tests run ``persona-notebook`` on a real
pseudo-terminal, where a hang or a traceback would show.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import SIZE, file_view, make_app, started, summary_of, wait_until
from terminal import Terminal, hostile_home
from textual.widgets import Static

from notebook_app.app.view_model.notebook import Notebook
from notebook_app.app.widgets.home.file_list import FileList
from privileges import reader_home, unreadable_file


def rows(app) -> dict[str, str]:
    listing = app.screen.query_one(FileList)
    return {
        listing.get_option_at_index(i).id: str(listing.get_option_at_index(i).prompt)
        for i in range(listing.option_count)
    }


async def test_each_strange_file_is_named_in_the_file_list_never_absent(tmp_path: Path) -> None:
    home = hostile_home(tmp_path)
    before = {p.name: (p.is_symlink(), p.is_dir()) for p in home.iterdir()}
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        shown = rows(app)
        assert "FIFO" in shown["MEMORY.md"] and "absent" not in shown["MEMORY.md"]
        assert "link loop" in shown["USER.md"]
        assert "device" in shown["AGENTS.md"]
        assert "directory" in shown["TOOLS.md"]
        assert "dangling link" in shown["IDENTITY.md"]
        assert "✖" in shown["HEARTBEAT.md"]
        summary = summary_of(app, "MEMORY.md")
        assert "MEMORY.md is a FIFO (named pipe), not a regular file: the next session skips it." in summary
        assert app.screen.state.preview.found == ["SOUL.md", "HEARTBEAT.md"]
        assert file_view(app, "MEMORY.md").placeholder == "(nothing to show)"
        assert file_view(app, "USER.md").placeholder == "(nothing to show)"
    assert {p.name: (p.is_symlink(), p.is_dir()) for p in home.iterdir()} == before


async def test_hidden_characters_show_as_markers_and_the_file_is_unchanged(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    data = "- tab\there\n- zero\u200bwidth\n- \u202eevil\n- \ufeffbom\n- esc\x1b[31m\n".encode()
    (home / "MEMORY.md").write_bytes(data)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        document = file_view(app).document
        assert list(document.lines) == ["- tab→here", "- zero∙width", "- ⇆evil", "- ␢bom", "- esc␛[31m"]
        assert document.source[1] == "- zero\u200bwidth"
        next_lines = app.screen.query_one("#next").document.lines
        assert "- zero∙width" in next_lines
    assert (home / "MEMORY.md").read_bytes() == data


async def test_a_failing_read_becomes_a_banner_and_the_app_goes_on(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)

        def broken(self) -> None:
            raise PermissionError(13, "Permission denied", str(home / "MEMORY.md"))

        monkeypatch.setattr(Notebook, "advance", broken)
        await pilot.press("n")
        banner = app.screen.query_one("#home-banner", Static)
        await wait_until(pilot, lambda: banner.has_class("-shown"), "the failure in a banner")
        assert (
            str(banner.content)
            == f"⚠ Could not read the home: Permission denied: {home / 'MEMORY.md'}. Showing the last state read."
        )
        assert app.is_running and app.screen.state.current.number == 1


def test_q_exits_promptly_on_a_home_full_of_strange_files(tmp_path: Path) -> None:
    home = hostile_home(tmp_path)
    terminal = Terminal(
        [str(home)], env={"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    )
    try:
        assert terminal.read_until("link loop"), terminal.output.decode(errors="replace")[-2000:]
        terminal.send("q")
        assert terminal.wait(within=30) == 0
        assert b"Traceback" not in terminal.output
    finally:
        terminal.close()


def test_an_unreadable_memory_file_is_named_not_a_traceback() -> None:
    """Mode 000 means nothing to root: the app runs as an unprivileged reader, as people do."""
    with reader_home() as home:
        (home / "SOUL.md").write_text("I am Wren.\n")
        unreadable_file(home / "MEMORY.md")
        scratch = home.parent / "scratch"
        scratch.mkdir(mode=0o777)
        scratch.chmod(0o777)
        env = {
            "XDG_CONFIG_HOME": str(scratch / "config"),
            "XDG_DATA_HOME": str(scratch / "data"),
            "XDG_STATE_HOME": str(scratch / "state"),
            "HOME": str(scratch),
        }
        terminal = Terminal([str(home)], env=env, as_reader=True)
        try:
            assert terminal.read_until("unreadable"), terminal.output.decode(errors="replace")[-3000:]
            terminal.send("q")
            assert terminal.wait(within=30) == 0, terminal.output.decode(errors="replace")[-3000:]
            assert b"Traceback" not in terminal.output
        finally:
            terminal.close()


def test_a_home_the_user_may_not_enter_is_one_message_not_a_traceback(tmp_path: Path) -> None:
    """/root is private: to an unprivileged reader, a home under it cannot even be looked at."""
    import subprocess

    from privileges import check_launch, reader_command

    done = subprocess.run(reader_command("/root/some-home"), capture_output=True, text=True, timeout=120)
    check_launch(done.returncode, done.stderr)
    assert done.returncode == 2, done.stderr
    assert done.stderr == "persona-notebook: cannot open /root/some-home: Permission denied\n"
