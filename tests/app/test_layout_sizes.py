"""Every terminal size: the file list, the target and the comparison each one key away, space following content."""

from __future__ import annotations

from pathlib import Path

import pytest
from notebook_pilot import make_app, started, summary_of, wait_until
from textual.widgets import Input

from notebook_app.app.widgets.home.file_list import FileList
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane

SIZES = [(80, 24), (80, 40), (100, 30), (160, 45)]
IDS = ["80x24", "80x40", "100x30", "160x45"]


def shown_on_screen(app, widget) -> bool:
    """Displayed (it and every ancestor), with some of it inside the screen."""
    screen = app.screen.region
    region = widget.region
    return (
        bool(widget.display)
        and all(a.display for a in widget.ancestors if hasattr(a, "display"))
        and region.area > 0
        and screen.contains_region(region)
    )


def broken_home(home: Path) -> Path:
    """MEMORY.md not UTF-8 and SOUL.md a FIFO: two files with warnings."""
    (home / "MEMORY.md").write_bytes(b"# Notes\n\n- timezone: UTC\n- caf\xe9 bad byte\n")
    (home / "SOUL.md").unlink()
    import os

    os.mkfifo(home / "SOUL.md")
    return home


@pytest.mark.parametrize("size", [(80, 24), (80, 40)], ids=["80x24", "80x40"])
async def test_at_80_columns_f2_shows_the_file_list_and_focuses_it(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        await pilot.press("f3")
        await pilot.press("f2")
        await pilot.pause()
        files = app.screen.query_one(FileList)
        assert app.focused is files
        assert shown_on_screen(app, files) and files.region.height == 7


async def test_at_80x24_current_and_next_stand_side_by_side(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        await pilot.press("f3")
        await pilot.pause()
        current, upcoming = (app.screen.query_one(f"#{name}", SessionPane) for name in ("current", "next"))
        assert current.region.width >= 30 and upcoming.region.width >= 30
        assert current.region.right <= upcoming.region.x and current.region.y == upcoming.region.y
        await pilot.press("f4")
        await pilot.pause()
        assert current.region.width >= 30 and shown_on_screen(app, app.focused) and upcoming in app.focused.ancestors


async def test_an_absent_file_takes_one_row_until_it_is_picked(home: Path) -> None:
    (home / "USER.md").unlink()
    app = make_app(home)
    async with app.run_test(size=(160, 45)) as pilot:
        await started(pilot)
        await pilot.pause()
        column = app.screen.query_one(HomePane)
        pane = column.pane("USER.md")
        assert pane.region.height == 1 and "absent" in str(pane.border_title)
        assert column.pane("MEMORY.md").region.height > 20  # the target gets the rest
        await pilot.press("4")  # picked: in view, to be read and focused
        await pilot.pause()
        assert pane.region.height > 1 and app.focused is pane.view


async def test_warnings_fold_to_one_row_and_w_unfolds_them(home: Path) -> None:
    from notebook_app.app.widgets.home.file_summary import FileSummary

    broken_home(home)
    app = make_app(home)
    async with app.run_test(size=(100, 30)) as pilot:
        await started(pilot)
        summary = app.screen.query_one(HomePane).pane("MEMORY.md").query_one(FileSummary)
        await wait_until(pilot, lambda: "bad bytes" in summary_of(app), "the warning")
        await pilot.pause()
        assert summary.region.height == 1  # the warnings in one row (at 100x30 the size line rides in the title rule)
        assert "%" in str(app.screen.query_one(HomePane).pane("MEMORY.md").border_title)
        assert "▸ w" in summary_of(app)
        await pilot.press("w")
        await wait_until(pilot, lambda: summary.region.height > 2, "the warnings in full")
        assert "The memory tool will not edit it" in summary_of(app)
        await pilot.press("w")
        await wait_until(pilot, lambda: summary.region.height == 1, "folded again")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_focus_never_rests_on_a_hidden_widget(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        for key in (
            "f2",
            "f3",
            "f4",
            "1",
            "2",
            "3",
            "4",
            "5",
            "6",
            "7",
            "t",
            "t",
            "f2",
            "down",
            "f4",
            "f2",
            "tab",
            "tab",
            "tab",
            "w",
            "f3",
            "w",
            "f2",
            "down",
            "w",
        ):
            await pilot.press(key)
            await pilot.pause()
            assert app.focused is not None and shown_on_screen(app, app.focused), (
                f"after {key}: {app.focused!r} is not in view"
            )


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_down_in_a_file_never_changes_the_picked_file(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await started(pilot)
        column = app.screen.query_one(HomePane)
        assert column.document == "SOUL.md"
        for _ in range(3):
            await pilot.press("down")
        await pilot.pause()
        assert column.document == "SOUL.md"
        await pilot.press("f2", "down")
        await pilot.pause()
        assert shown_on_screen(app, app.screen.query_one(FileList))  # ↓ moves the list only where it is seen


def demo_home(tmp_path: Path) -> Path:
    import shutil
    from importlib.resources import files

    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


async def fitted(pilot) -> None:
    """Started, and the Home column's panes fitted to their content
    (a fit waits for the frame that wraps their lines)."""
    await started(pilot)
    stack = pilot.app.screen.query_one("#file-panes")
    await wait_until(pilot, lambda: stack.short is not None and not stack._fitting, "the panes fitted")
    await pilot.pause()
    await wait_until(pilot, lambda: not stack._fitting, "the panes fitted after their titles")
    await pilot.pause()


def column_bottom(app) -> int:
    """The last row inside the Home column's border."""
    column = app.screen.query_one(HomePane)
    return column.region.bottom - 1


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_short_file_takes_its_own_rows_and_the_target_the_rest(home: Path, size: tuple[int, int]) -> None:
    """SOUL.md of one line and USER.md of two take their title rule, size
    facts and wrapped lines, no more: MEMORY.md gets the rest."""
    from notebook_app.app.widgets.home.file_summary import FileSummary

    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        column = app.screen.query_one(HomePane)
        for name, lines in (("SOUL.md", 1), ("USER.md", 2)):
            pane = column.pane(name)
            summary = pane.query_one(FileSummary)
            facts = summary.outer_size.height if summary.display else 0
            rows = pane.view.virtual_size.height  # its lines as wrapped at the pane's width
            assert rows >= lines
            assert pane.region.height == 1 + facts + rows, f"{name}: {pane.region.height} rows for {rows} rows of text"
            assert pane.view.max_scroll_y == 0 and all(pane.view.line_on_screen(line) for line in range(lines))
        target, stack = column.pane("MEMORY.md"), column.query_one("#file-panes")
        assert target.region.bottom == column_bottom(app)
        assert (
            target.region.height
            == stack.region.height - column.pane("SOUL.md").region.height - column.pane("USER.md").region.height
        )


def long_lines(what: str, count: int) -> str:
    return "".join(f"line {n} of a long {what}\n" for n in range(count))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_long_soul_takes_the_rows_a_short_target_leaves(home: Path, size: tuple[int, int]) -> None:
    """MEMORY.md of five lines shows them all and a row for the next entry;
    SOUL.md of sixty takes every row USER.md and MEMORY.md leave, and scrolls."""
    (home / "SOUL.md").write_text(long_lines("soul", 60))
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        column = app.screen.query_one(HomePane)
        soul, user, target = (column.pane(name) for name in ("SOUL.md", "USER.md", "MEMORY.md"))
        stack = column.query_one("#file-panes")
        lines = len(target.view.document.lines)
        assert target.view.max_scroll_y == 0 and target.view.size.height >= lines + 1
        assert user.view.max_scroll_y == 0  # USER.md's two lines, whole
        assert soul.region.height == stack.region.height - user.region.height - target.region.height
        assert soul.view.max_scroll_y > 0 and soul.view.size.height > target.view.size.height


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_a_long_target_keeps_half_the_column_against_a_long_soul(home: Path, size: tuple[int, int]) -> None:
    (home / "SOUL.md").write_text(long_lines("soul", 60))
    (home / "MEMORY.md").write_text("".join(f"- fact {n}: the tide turns\n" for n in range(60)))
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        column = app.screen.query_one(HomePane)
        soul, target = column.pane("SOUL.md"), column.pane("MEMORY.md")
        stack = column.query_one("#file-panes")
        assert soul.view.size.height >= 3 and soul.view.max_scroll_y > 0
        assert target.region.height >= stack.region.height // 2 and target.region.height >= soul.region.height
        assert target.region.bottom == column_bottom(app)


@pytest.mark.parametrize(
    ("needs", "rows", "heights"),
    [
        ([8, 13, 40], 18, [5, 4, None]),  # both want more than the half the target leaves: split, the odd row above
        ([61, 3, 6], 18, [8, 3, None]),  # a short target claims its rows and one more; USER.md's spare go to SOUL.md
        ([8, 4, 6], 22, [8, 4, None]),  # all of it fits: each pane its own rows, the target the rest
        ([1, 40, 2], 18, [1, 12, None]),  # an absent file's one row, an empty target's five
        ([40, 40, 40], 9, [3, 3, None]),  # a tiny column: each pane keeps its title rule and two lines
    ],
)
def test_the_panes_share_the_rows_the_target_leaves_by_what_they_need(
    needs: list[int], rows: int, heights: list[int | None]
) -> None:
    from notebook_app.app.widgets.home.pane_stack import fair_heights

    assert fair_heights(needs, rows, target=2) == heights


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_when_rows_are_short_the_size_facts_ride_in_the_title_rule(home: Path, size: tuple[int, int]) -> None:
    from notebook_app.app.widgets.home.file_summary import FileSummary

    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        pane = app.screen.query_one(HomePane).pane("SOUL.md")
        assert "55 B" in str(pane.border_title) and "%" in str(pane.border_title)
        assert not pane.query_one(FileSummary).display  # no warnings: no summary row at all


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
async def test_the_demo_shows_three_lines_of_soul_and_user_at_small_sizes(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        column = app.screen.query_one(HomePane)
        for name in ("SOUL.md", "USER.md"):
            assert column.pane(name).view.size.height >= 3, f"{name} shows {column.pane(name).view.size.height} rows"


@pytest.mark.parametrize("size", [(80, 24), (80, 40)], ids=["80x24", "80x40"])
async def test_at_80_columns_the_file_list_stands_beside_the_files(home: Path, size: tuple[int, int]) -> None:
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        files = app.screen.query_one(FileList)
        soul = app.screen.query_one(HomePane).pane("SOUL.md")
        assert shown_on_screen(app, files) and files.region.right <= soul.region.x
        assert soul.region.y == files.region.y  # its title rule is level with the list's first row


@pytest.mark.parametrize("size", [(80, 24), (80, 40)], ids=["80x24", "80x40"])
async def test_w_brings_the_warnings_into_view_before_unfolding_them(home: Path, size: tuple[int, int]) -> None:
    """At 80 columns the warnings are on the Home tab: w from the
    comparison shows Home first, never acts out of sight."""
    from notebook_app.app.widgets.home.file_summary import FileSummary

    broken_home(home)
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        summary = app.screen.query_one(HomePane).pane("MEMORY.md").query_one(FileSummary)
        await pilot.press("f3")
        await pilot.pause()
        assert not shown_on_screen(app, summary)
        await pilot.press("w")
        await wait_until(pilot, lambda: summary.has_class("-unfolded"), "the warnings in full")
        await pilot.pause()
        assert shown_on_screen(app, summary)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
async def test_closing_the_form_leaves_focus_where_it_can_be_seen(home: Path, size: tuple[int, int]) -> None:
    """At 80 columns the form brings Next to the front; closed (esc, or applied), focus stays on what is shown."""
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        await pilot.press("a", "escape")
        await wait_until(pilot, lambda: not app.screen.form.is_open, "the form closed")
        await pilot.pause()
        assert app.focused is not None and shown_on_screen(app, app.focused), (
            f"after esc: {app.focused!r} is not in view"
        )
        await pilot.press("a", *"keeps tide tables", "enter")
        await wait_until(
            pilot,
            lambda: not app.screen.form.is_open and "keeps tide tables" in (home / "MEMORY.md").read_text(),
            "the add",
        )
        await pilot.pause()
        assert app.focused is not None and shown_on_screen(app, app.focused), (
            f"after the add: {app.focused!r} is not in view"
        )


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)], ids=["80x24", "100x30", "160x45"])
async def test_after_an_add_current_and_next_both_open_where_it_lands(tmp_path: Path, size: tuple[int, int]) -> None:
    """The demo's soul is longer than the panes: Next shows the new entry,
    and Current, which has no line of it, shows the place it goes in."""
    home = demo_home(tmp_path)
    app = make_app(home)
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        await pilot.press("a", *"keeps tide tables", "enter")
        await wait_until(
            pilot,
            lambda: not app.screen.form.is_open and "keeps tide tables" in (home / "MEMORY.md").read_text(),
            "the add",
        )
        await pilot.press("f3")
        current, upcoming = (app.screen.query_one(f"#{name}", SessionPane) for name in ("current", "next"))
        added = upcoming.document.lines.index("- keeps tide tables")
        await wait_until(pilot, lambda: upcoming.line_on_screen(added), "Next at the new entry")
        await pilot.pause()
        assert current.line_count > current.region.height  # it scrolls: the top is not where MEMORY.md ends
        memory_end = max(i for i, line in enumerate(current.document.lines) if line.startswith("- her field partner"))
        assert current.line_on_screen(memory_end) and not current.line_on_screen(0)


def screen_row(pane: SessionPane, line: int) -> int:
    """The screen row of ``line``'s first row in ``pane``'s soul view."""
    from notebook_app.app.widgets.common.line_view import LineView

    view = pane.query_one(LineView)
    return view.region.y + view._rows.first_row_of(line) - view.scroll_offset.y


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)], ids=["80x24", "100x30", "160x45"])
@pytest.mark.parametrize(
    ("action", "fields"),
    [
        ("a", {"#form-text": "prefers tide times on a 24-hour clock"}),
        ("r", {"#form-text": "drafts go to him on Fridays", "#form-with": "drafts go to him on Thursdays"}),
    ],
    ids=["add", "replace"],
)
async def test_while_an_edit_is_typed_both_sides_show_where_it_lands_above_the_form(
    tmp_path: Path, size: tuple[int, int], action: str, fields: dict[str, str]
) -> None:
    """Side by side above the form: in Next the dry run's line, in Current the
    frozen line it replaces, or the place an add goes (the end of MEMORY.md)."""
    app = make_app(demo_home(tmp_path))
    async with app.run_test(size=size) as pilot:
        await fitted(pilot)
        await pilot.press(action)
        form = app.screen.form
        for field_id, value in fields.items():
            app.screen.query_one(field_id, Input).value = value
        current, upcoming = (app.screen.query_one(f"#{name}", SessionPane) for name in ("current", "next"))
        await wait_until(pilot, lambda: upcoming.document.first_change is not None, "the dry run")
        for side in (current, upcoming):
            line = side.document.first_change
            await wait_until(
                pilot,
                lambda side=side, line=line: side.line_on_screen(line) and screen_row(side, line) < form.region.y,
                f"{side.id} at the change, above the form",
            )
        assert current.region.right <= upcoming.region.x
