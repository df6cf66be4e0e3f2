"""SOUL, USER and MEMORY each have a pane; the target is marked and follows what you look at."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import SIZE, USER, file_view, make_app, started, wait_until

from notebook_app.app.widgets.home.home_pane import HomePane


def panes(app) -> HomePane:
    return app.screen.query_one(HomePane)


async def test_soul_user_and_memory_are_each_in_view_with_the_target_marked(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        home_pane = panes(app)
        titles = [str(home_pane.pane(name).border_title) for name in ("SOUL.md", "USER.md", "MEMORY.md")]
        assert titles == ["SOUL.md", "USER.md", "MEMORY.md ◂ target"]
        # The pane stack fits the panes again once their lines are wrapped, a frame or two after the first read.
        await wait_until(
            pilot,
            lambda: all(home_pane.pane(name).region.height >= 4 for name in ("SOUL.md", "USER.md", "MEMORY.md")),
            "SOUL.md, USER.md and MEMORY.md each four rows or more",
        )
        assert list(file_view(app, "USER.md").document.lines) == USER.rstrip("\n").split("\n")
        assert home_pane.pane("MEMORY.md").has_class("-target") and not home_pane.pane("USER.md").has_class("-target")


async def test_the_target_follows_the_entry_file_you_look_at(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("t")
        assert app.screen.target == "user" and app.focused is file_view(app, "USER.md")
        assert panes(app).pane("USER.md").has_class("-target")
        file_view(app, "MEMORY.md").focus()  # a click or tab into MEMORY.md
        await wait_until(pilot, lambda: app.screen.target == "self", "the target to follow the view")
        await pilot.press("a")
        assert str(app.screen.query_one("#form-target").content) == "target self → MEMORY.md"


async def test_number_keys_pick_a_bootstrap_file_in_load_order(home: Path) -> None:
    (home / "AGENTS.md").write_text("# Operating instructions\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("1")
        await wait_until(pilot, lambda: panes(app).pane("AGENTS.md").name_shown == "AGENTS.md", "AGENTS.md shown")
        assert file_view(app, "AGENTS.md").document.lines == ["# Operating instructions"]
        await pilot.press("7")
        assert app.focused is file_view(app, "MEMORY.md")


async def test_the_selected_entry_shows_in_reverse_with_no_color(home: Path, monkeypatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert app.no_color
        await pilot.press("down")
        view = file_view(app, "MEMORY.md")
        assert view.cursor is not None
        assert view.get_component_rich_style("line-view--cursor").reverse


async def test_the_cursor_row_changes_style_with_the_focus_and_is_repainted_without_a_restyle(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("down")
        view = file_view(app, "MEMORY.md")
        assert view.cursor is not None and view.has_focus
        focused = view.row_style(view.cursor, None)
        restyles: list[object] = []
        view.update_node_styles = lambda *args, **kwargs: restyles.append(args)  # type: ignore[method-assign]
        await pilot.press("a")  # the form takes the focus and leaves the pane's marks: nothing else repaints the row
        await wait_until(pilot, lambda: not view.has_focus, "the focus to leave the entries")
        resting = view.row_style(view.cursor, None)
        assert focused != resting
        assert focused.bgcolor == view.get_component_rich_style("line-view--cursor-focused").bgcolor
        assert not restyles
        await pilot.pause()
        row = view.region.y + view._rows.first_row_of(view.cursor) - view.scroll_offset.y
        drawn = app.screen._compositor.render_strips()[row]  # what the screen holds: the cursor row was repainted
        x = view.region.x + 6  # past the gutter
        cell_styles = [segment.style for segment in drawn.crop(x, x + 1)]
        assert cell_styles and cell_styles[0].bgcolor == resting.bgcolor
