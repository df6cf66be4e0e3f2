"""The panes around the focus are marked and restyled as focus moves (FocusWithin, not :focus-within)."""

from __future__ import annotations

from notebook_pilot import MEMORY, SIZE, SOUL, USER, make_app, started, wait_until

from notebook_app.app.widgets.common.focus_within import FOCUS_WITHIN
from notebook_app.app.widgets.home.home_pane import HomePane
from notebook_app.app.widgets.session.session_pane import SessionPane


def make_home(tmp_path):
    for name, text in (("SOUL.md", SOUL), ("USER.md", USER), ("MEMORY.md", MEMORY)):
        (tmp_path / name).write_text(text)
    return tmp_path


async def test_focus_moving_to_next_moves_the_mark_and_the_border_colour(tmp_path) -> None:
    app = make_app(make_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        home = app.screen.query_one(HomePane)
        upcoming = app.screen.query_one("#next", SessionPane)
        memory = home.pane("MEMORY.md")
        assert home.has_class(FOCUS_WITHIN) and memory.has_class(FOCUS_WITHIN)
        assert not upcoming.has_class(FOCUS_WITHIN)
        focused_colour = home.styles.border.top[1]
        resting_colour = upcoming.styles.border.top[1]
        assert focused_colour != resting_colour

        await pilot.press("f4")
        await wait_until(pilot, lambda: upcoming.has_class(FOCUS_WITHIN), "Next to be marked")
        assert not home.has_class(FOCUS_WITHIN) and not memory.has_class(FOCUS_WITHIN)
        assert upcoming.styles.border.top[1] == focused_colour
        assert home.styles.border.top[1] == resting_colour


async def test_the_open_form_keeps_the_marks_of_the_panes_it_acts_on(tmp_path) -> None:
    """The form lies over the panes and acts on what they show:
    focus in it moves no mark, so closing it repaints no pane."""
    app = make_app(make_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        home = app.screen.query_one(HomePane)
        await pilot.press("a")
        await wait_until(pilot, lambda: app.screen.form.is_open, "the form to open")
        assert app.screen.focused is not None and app.screen.form in app.screen.focused.ancestors
        assert home.has_class(FOCUS_WITHIN) and home.pane("MEMORY.md").has_class(FOCUS_WITHIN)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.screen.form.is_open, "the form to close")
        assert home.has_class(FOCUS_WITHIN) and home.pane("MEMORY.md").has_class(FOCUS_WITHIN)


async def test_closing_the_form_moves_the_mark_to_the_entries_it_returns_to(tmp_path) -> None:
    app = make_app(make_home(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        home = app.screen.query_one(HomePane)
        upcoming = app.screen.query_one("#next", SessionPane)
        await pilot.press("f4")
        await wait_until(pilot, lambda: upcoming.has_class(FOCUS_WITHIN), "Next to be marked")
        await pilot.press("a")
        await wait_until(pilot, lambda: app.screen.form.is_open, "the form to open")
        assert upcoming.has_class(FOCUS_WITHIN) and not home.has_class(FOCUS_WITHIN)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.screen.form.is_open, "the form to close")
        assert home.has_class(FOCUS_WITHIN) and home.pane("MEMORY.md").has_class(FOCUS_WITHIN)
        assert not upcoming.has_class(FOCUS_WITHIN)


async def test_the_agent_sessions_journal_is_marked_when_its_table_has_the_focus(tmp_path) -> None:
    from test_agent_sessions_view import fixed_sessions

    from notebook_app.app.widgets.agents.journal_table import JournalPane, JournalTable

    home = make_home(tmp_path)
    fixed_sessions(home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: bool(app.screen.query(JournalPane)), "the agent-sessions view")
        journal = app.screen.query_one(JournalPane)
        assert not journal.has_class(FOCUS_WITHIN)
        app.screen.query_one(JournalTable).focus()
        await wait_until(pilot, lambda: journal.has_class(FOCUS_WITHIN), "the journal to be marked")
        await pilot.press("f2")
        await wait_until(pilot, lambda: not journal.has_class(FOCUS_WITHIN), "the mark to leave with the focus")
