"""The agent-sessions view: each recorded agent session against Next, and its journal.

The live test drives a real MCP client (the SDK's own, over stdio, against a
``persona-notebook mcp`` subprocess) while the app runs with its watchers on.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, wait_until
from textual.widgets import Static

from notebook_app.app.screens.agent_sessions import AgentSessionsScreen
from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.widgets.agents.journal_table import JournalPane, JournalTable
from notebook_app.app.widgets.agents.session_list import SessionList
from notebook_app.app.widgets.session.session_pane import SessionPane
from notebook_app.core.memory.tool import memory_tool
from notebook_app.core.sessions.agents import CallEntry, append_old_call, new_session, start_session, write_session_file

# The MCP tests' harness, reused rather than copied: it spawns the server the way a host does.
sys.path.insert(0, str(Path(__file__).parents[1] / "mcp"))
from stdio_harness import connect  # noqa: E402


def lines_of(app, pane: str) -> list[str]:
    return list(app.screen.query_one(pane, SessionPane).document.lines)


def listed(app) -> list[str]:
    """Each session's first row, without its presence ("  ● connected" / "  ended")."""
    return [
        str(option.prompt).split("\n")[0].rsplit("  ", 1)[0] for option in app.screen.query_one(SessionList).options
    ]


def presence(app) -> list[str]:
    return [
        str(option.prompt).split("\n")[0].rsplit("  ", 1)[1] for option in app.screen.query_one(SessionList).options
    ]


def journal_rows(app) -> list[list[str]]:
    table = app.screen.query_one(JournalTable)
    return [[cell.plain for cell in table.get_row_at(row)] for row in range(table.row_count)]


async def sessions_view(pilot) -> None:
    """From the notebook, open the agent-sessions view and wait until its watchers run."""
    await started(pilot)
    await wait_until(
        pilot, lambda: any(w.group == "watch" and w.is_running for w in pilot.app.screen.workers), "the home watcher"
    )
    await pilot.press("s")
    await wait_until(
        pilot,
        lambda: isinstance(pilot.app.screen, AgentSessionsScreen) and pilot.app.screen.listed,
        "the sessions view",
    )
    screen = pilot.app.screen
    await wait_until(
        pilot,
        lambda: sum(w.group == "agent-watch" and w.is_running for w in screen.workers) == 2,
        "the view's watchers",
    )


async def test_an_mcp_clients_write_shows_in_next_not_current_and_in_its_sessions_journal(
    home: Path, tmp_path: Path
) -> None:
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await sessions_view(pilot)
        assert listed(app) == []
        assert app.screen.query_one("#agent-left").has_class("-empty")
        async with connect(home, tmp_path / "server.log", name="pilot-agent", version="7.0") as client:
            added = await client.call_tool("memory", {"action": "add", "text": "written over MCP"})
            missed = await client.call_tool("memory", {"action": "remove", "text": "no such entry"})
            await wait_until(pilot, lambda: listed(app) == ["pilot-agent 7.0"], "the client's session in the list")
            assert presence(app) == ["● connected"]
            await wait_until(pilot, lambda: "- written over MCP" in lines_of(app, "#agent-next"), "the write in Next")
            assert "- written over MCP" not in lines_of(app, "#agent-current")
            assert "- timezone: UTC" in lines_of(app, "#agent-current")
            await wait_until(pilot, lambda: len(journal_rows(app)) == 2, "both calls in the journal")
        await wait_until(
            pilot, lambda: presence(app) == ["ended"], "the session ended once its server is gone", attempts=1000
        )
        assert [row[1:5] for row in journal_rows(app)] == [
            ["add", "self", "written over MCP", ""],
            ["remove", "self", "no such entry", ""],
        ]
        assert missed.content[0].text == "not found: no such entry"
        shown_ok, shown_miss = (row[5] for row in journal_rows(app))
        assert shown_miss == "not found: no such entry"
        assert shown_ok.endswith("…") and added.content[0].text.startswith(shown_ok[:-1]), (
            "a long result is cut, visibly"
        )
        table = app.screen.query_one(JournalTable)
        detail = app.screen.query_one(".journal-detail", Static)
        assert str(detail.content) == "remove self  text no such entry\n✖ not found: no such entry", (
            "the newest call, whole"
        )
        table.focus()
        await pilot.press("up")
        assert str(detail.content).endswith(f"✓ {added.content[0].text}")
        error_style = table.get_component_rich_style("journal-table--error", partial=True)
        assert [table.get_row_at(row)[-1].style == error_style for row in (0, 1)] == [False, True]
        assert str(app.screen.query_one("#agent-next .badge").content) == "+1 line"
        assert app.screen.query_one(JournalPane).border_subtitle == "1 write · 1 error"

        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await wait_until(
            pilot, lambda: "- written over MCP" in lines_of(app, "#next"), "the write in the notebook's Next"
        )
        assert "- written over MCP" not in lines_of(app, "#current")


async def test_a_new_session_and_a_growing_journal_appear_while_the_view_is_open(home: Path) -> None:
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await sessions_view(pilot)
        assert not (home / ".notebook").exists()
        first = start_session(home, client_name="first-host", client_version="1")
        await wait_until(
            pilot, lambda: listed(app) == ["first-host 1"], "the first session, with its folder made meanwhile"
        )
        await wait_until(pilot, lambda: app.screen.view is not None, "the first session shown")
        later = replace(new_session(home, client_name="second-host"), started_at=datetime(2999, 1, 1, tzinfo=UTC))
        write_session_file(home, later)
        await wait_until(pilot, lambda: listed(app) == ["second-host", "first-host 1"], "the newer session on top")
        assert app.screen.view.session.id == first.id, "the chosen session stays chosen"
        append_old_call(
            home,
            first.id,
            CallEntry.from_call(
                {"action": "add", "text": "one more"}, memory_tool(home).call({"action": "add", "text": "one more"})
            ),
        )
        await wait_until(pilot, lambda: [row[3] for row in journal_rows(app)] == ["one more"], "the journal growing")
        await pilot.press("up")  # to the newer session
        await wait_until(pilot, lambda: app.screen.view.session.id == later.id, "the newer session shown")
        assert journal_rows(app) == []


async def test_s_opens_the_view_esc_returns_and_the_palette_knows_both(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        names = {command.title for command in app.get_system_commands(app.screen)}
        assert "Show agent sessions" in names
        await pilot.press("a", "s")  # typing in the form: s is a letter there
        assert isinstance(app.screen, MainScreen)
        assert app.screen.form.args["text"] == "s"
        await pilot.press("escape", "s")  # the first esc only asks: it would discard the typed "s"
        assert isinstance(app.screen, MainScreen) and app.screen.form.args["text"] == "ss"
        await pilot.press("escape", "escape", "s")
        assert isinstance(app.screen, AgentSessionsScreen)
        assert "Back to the notebook" in {command.title for command in app.get_system_commands(app.screen)}
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_an_unreadable_session_file_is_reported_not_shown(home: Path) -> None:
    session = start_session(home, client_name="broken-host")
    record = home / ".notebook" / "sessions" / f"{session.id}.json"
    record.write_text(record.read_text().replace('"body_start": 12', '"body_start": 99999'))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        problem = app.screen.query_one("#agent-problem", Static)
        await wait_until(pilot, lambda: problem.has_class("-shown"), "the problem banner")
        assert f"session record {session.id} is malformed" in str(problem.content)
        assert lines_of(app, "#agent-current") == []


def fixed_sessions(home: Path) -> None:
    """Two recorded sessions with fixed ids and times, then writes after they began."""
    older = replace(
        new_session(home, client_name="claude-code", client_version="2.0.1"),
        id="20261129-100000-0000aaaa",
        started_at=datetime(2026, 11, 29, 10, tzinfo=UTC),
    )
    write_session_file(home, older)
    tool = memory_tool(home)
    calls = [
        {"action": "add", "text": "prefers tide times on a 24-hour clock"},
        {"action": "remove", "text": "likes imperial units"},
        {"action": "replace", "target": "user", "text": "metric units", "with": "metric units, always"},
    ]
    for minute, args in enumerate(calls):
        entry = CallEntry.from_call(args, tool.call(args), time=datetime(2026, 11, 29, 10, minute + 1, tzinfo=UTC))
        append_old_call(home, older.id, entry)
    newer = replace(
        new_session(home, client_name=None),
        id="20261129-110000-0000bbbb",
        started_at=datetime(2026, 11, 29, 11, tzinfo=UTC),
    )
    write_session_file(home, newer)
    (home / "SOUL.md").write_text("I am Wren: curious, plain-spoken, careful with claims, and brief.\n")


async def test_failed_calls_keep_the_error_style_when_the_theme_changes(home: Path) -> None:
    session = start_session(home, client_name="theme-host")
    args = {"action": "remove", "text": "not in memory"}
    append_old_call(home, session.id, CallEntry.from_call(args, memory_tool(home).call(args)))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: len(journal_rows(app)) == 1, "the failed call")
        table = app.screen.query_one(JournalTable)
        dark = table.get_row_at(0)[-1].style
        app.theme = "light"
        await wait_until(pilot, lambda: table.get_row_at(0)[-1].style != dark, "the row restyled")
        assert table.get_row_at(0)[-1].style == table.get_component_rich_style("journal-table--error", partial=True)


async def test_an_unreadable_sessions_folder_is_reported_not_a_crash(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(home: Path):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("notebook_app.app.screens.agent_sessions.scan_sessions", unreadable)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        expected = "Cannot list agent sessions: Permission denied"
        await wait_until(pilot, lambda: expected in [n.message for n in app._notifications], "the problem reported")
        assert app.is_running
        assert app.screen.query_one("#agent-left").has_class("-empty")


async def test_a_session_file_that_is_not_json_is_named_in_a_banner_not_dropped_silently(home: Path) -> None:
    good = start_session(home, client_name="good-host")
    (home / ".notebook" / "sessions" / "20261130-101010-0badc0de.json").write_text("{not json")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        banner = app.screen.query_one("#agent-records-problem", Static)
        await wait_until(pilot, lambda: banner.has_class("-shown"), "the unreadable record named")
        text = str(banner.content)
        assert text.startswith("⚠ 1 session record cannot be read and is not listed: ")
        assert "20261130-101010-0badc0de" in text
        assert listed(app) == ["good-host"]
        assert presence(app) == ["ended"]  # no server holds its record
        assert good.id


async def test_a_sessions_proposals_show_what_became_of_them(home: Path) -> None:
    from notebook_app.core.memory.review.decisions import approve, pending, propose, reject
    from notebook_app.core.record.log.actor import Actor

    session = start_session(home, client_name="kip-host", client_version="1.4")
    agent = Actor.mcp(session.id, "kip-host", "1.4")
    for args in (
        {"action": "add", "text": "approved one"},
        {"action": "add", "text": "rejected one"},
        {"action": "replace", "text": "likes tide tables", "with": "likes tide charts"},
        {"action": "add", "text": "still waiting"},
    ):
        assert not propose(home, args, by=agent).is_error
    kept, dropped, missed, waiting = pending(home)
    approve(home, kept.id)
    reject(home, dropped.id, reason="not true")
    (home / "MEMORY.md").write_text((home / "MEMORY.md").read_text().replace("likes tide tables", "likes shanties"))
    assert approve(home, missed.id).outcome == "failed"
    app = make_app(home)
    async with app.run_test(size=(160, 40)) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: len(journal_rows(app)) == 4, "the session's four calls")
        wanted = [
            f"review: approved by notebook ({kept.id})",
            f"review: rejected by notebook: not true ({dropped.id})",
            f"review: failed: not found: likes tide tables ({missed.id})",
            f"review: pending ({waiting.id})",
        ]
        shown = [row[5] for row in journal_rows(app)]
        assert all(
            cell == want or (cell.endswith("…") and want.startswith(cell[:-1]) and len(cell) > 30)
            for cell, want in zip(shown, wanted, strict=True)
        ), shown
        table = app.screen.query_one(JournalTable)
        table.move_cursor(row=2)
        await wait_until(
            pilot,
            lambda: str(app.screen.query_one(".journal-detail", Static).content).endswith(f"✖ {wanted[2]}"),
            "a failed approval, whole",
        )
        error_style = table.get_component_rich_style("journal-table--error", partial=True)
        assert [table.get_row_at(row)[-1].style == error_style for row in range(4)] == [False, False, True, False]
        assert app.screen.query_one(JournalPane).border_subtitle == "0 writes · 4 proposals (1 pending)"


async def test_in_review_mode_the_list_and_the_journal_count_a_sessions_calls_alike_and_proposals_are_not_writes(
    home: Path,
) -> None:
    from notebook_app.core.memory.review.decisions import propose
    from notebook_app.core.record.log.actor import Actor

    session = start_session(home, client_name="kip-host", client_version="1.4")
    agent = Actor.mcp(session.id, "kip-host", "1.4")
    for text in ("first queued", "second queued", "third queued"):
        assert not propose(home, {"action": "add", "text": text}, by=agent).is_error
    assert memory_tool(home, by=agent).call({"action": "remove", "text": "not in the file"}).is_error
    app = make_app(home)
    async with app.run_test(size=(160, 40)) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: len(journal_rows(app)) == 4, "the session's four calls")
        (option,) = app.screen.query_one(SessionList).options
        assert str(option.prompt).split("\n")[1].split(" · ", 1)[1] == "0 writes · 1 error · 3 proposals"
        assert app.screen.query_one(JournalPane).border_subtitle == "0 writes · 1 error · 3 proposals (3 pending)"


async def test_after_a_prune_the_list_and_the_journal_count_the_calls_it_took_out(home: Path) -> None:
    """``history --prune --keep 5`` took every call of both sessions out of the log: the list still says 4 and 2
    writes (it said 0), and the journal says how many it no longer lists."""
    from notebook_app.core.history.admin import prune
    from notebook_app.core.record.log.actor import CLI
    from notebook_app.core.sessions.agents import session_actor

    made = {}
    for client, writes in (("kip-host", 4), ("wren", 2)):
        session = start_session(home, client_name=client, client_version="1.0")
        for i in range(writes):
            assert (
                not memory_tool(home, by=session_actor(session))
                .call({"action": "add", "text": f"{client} {i}"})
                .is_error
            )
        made[client] = session.id
    for i in range(6):
        assert not memory_tool(home, by=CLI).call({"action": "add", "text": f"cli {i}"}).is_error
    assert not prune(home, keep=5).is_error
    app = make_app(home)
    async with app.run_test(size=(160, 40)) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: len(app.screen.query_one(SessionList).options) == 2, "both sessions")
        rows = [
            str(option.prompt).split("\n")[1].split(" · ", 1)[1] for option in app.screen.query_one(SessionList).options
        ]
        assert rows == ["2 writes", "4 writes"]  # newest first
        journal = app.screen.query_one(JournalPane)
        await wait_until(pilot, lambda: journal.border_subtitle, "the newest session's journal")
        assert journal.border_subtitle == "2 writes · 2 calls pruned from the history"
        assert journal_rows(app) == []


async def test_on_a_hermes_home_next_is_composed_as_hermes_loads_it_like_the_agents_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent on a Hermes home runs with the soul as Hermes loads it (memories/ in Hermes's block); the view's
    Next is composed the same way, so an unchanged home shows no change (it showed the home's MEMORY.md gone)."""
    from notebook_app.app.launch import _open_by_host
    from notebook_app.core.hosts.choice import resolve_host

    for name in ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.delenv("HERMES_HOME", raising=False)
    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes.\n")
    (home / "config.yaml").write_text("memory:\n  memory_enabled: true\n")
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out on Fridays")
    where, notebook = _open_by_host(home)
    profile = resolve_host("hermes").profile
    write_session_file(home, new_session(home, client_name="hermes-agent", host=profile, files=notebook.files))
    app = make_app(where)
    app._notebook = notebook
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await pilot.press("s")
        await wait_until(
            pilot, lambda: isinstance(app.screen, AgentSessionsScreen) and app.screen.listed, "the sessions view"
        )
        await wait_until(pilot, lambda: "likes tide tables" in lines_of(app, "#agent-current"), "the agent's soul")
        await wait_until(pilot, lambda: "likes tide tables" in lines_of(app, "#agent-next"), "the home's next soul")
        assert lines_of(app, "#agent-next") == lines_of(app, "#agent-current")
        assert any(line.startswith("MEMORY (your personal notes)") for line in lines_of(app, "#agent-next"))
