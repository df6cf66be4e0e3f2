"""The doctor in the notebook: a health line in words, flagged lines, a view to jump and fix, hosts."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

from notebook_pilot import SIZE, file_view, make_app, open_doctor, started, wait_until
from textual.widgets import OptionList

from notebook_app.app.screens.main.screen import MainScreen
from notebook_app.app.widgets.common.status_line import StatusLine
from notebook_app.app.widgets.session.session_pane import SessionPane

DUPLICATED = "# Notes\n\n- timezone: UTC\n- likes tide tables\n- likes tide tables\n"


def health(app) -> str:
    return str(app.screen.query_one(StatusLine).content)


async def test_the_demo_is_healthy_and_says_so(tmp_path: Path) -> None:
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "no problems found" in health(app), "the doctor's verdict")


async def test_a_duplicate_is_named_flagged_and_fixed_from_the_doctor(home: Path) -> None:
    (home / "MEMORY.md").write_text(DUPLICATED)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "a duplicate entry" in health(app), "the duplicate in the health line")
        view = file_view(app, "MEMORY.md")
        assert view._flags == {4: "warning"}
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        index = next(
            i
            for i in range(listing.option_count)
            if (listing.get_option_at_index(i).id or "") in screen._findings
            and screen._findings[listing.get_option_at_index(i).id].rule == "hygiene.duplicate"
        )
        listing.highlighted = index
        await wait_until(
            pilot, lambda: "y applies it" in str(screen.query_one("#doctor-detail").content), "the fix's dry run"
        )
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: (home / "MEMORY.md").read_text() == "# Notes\n\n- timezone: UTC\n- likes tide tables\n",
            "the fix to land",
        )
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await wait_until(pilot, lambda: "no problems found" in health(app), "healthy again")


async def test_enter_in_the_doctor_goes_to_the_line(home: Path) -> None:
    (home / "MEMORY.md").write_text(DUPLICATED)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        listing.highlighted = next(
            i for i in range(listing.option_count) if (listing.get_option_at_index(i).id or "").startswith("MEMORY.md")
        )
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen)
        view = file_view(app, "MEMORY.md")
        await wait_until(pilot, lambda: view.cursor == 4, "the cursor on the duplicate")
        assert app.focused is view


async def test_choosing_a_host_shows_the_soul_as_it_loads_it(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=(100, 30)) as pilot:  # the narrowest width with the panes side by side
        await started(pilot)
        await app.screen.run_action("use_host('claude-code')")
        upcoming = app.screen.query_one("#next", SessionPane)
        await wait_until(pilot, lambda: str(upcoming.border_title) == "Next · Claude Code", "the relabel")
        current = app.screen.query_one("#current", SessionPane)
        assert str(current.border_title) == "Current · Claude Code"
        await pilot.pause()
        top = "".join(segment.text for segment in app.screen._compositor.render_strips()[current.region.y])
        assert "─ Current · Claude Code ─" in top and "─ Next · Claude Code ─" in top, top
        assert app.screen.state.preview.found == ["MEMORY.md"]
        assert (
            "## SOUL.md" not in upcoming.document.lines
            and "## SOUL.md" not in app.screen.query_one("#current", SessionPane).document.lines
        )
        names = {command.title for command in app.get_system_commands(app.screen)}
        assert {
            "Load as: Claude Code",
            "Load as: OpenClaw",
            "Load as: Hermes",
            "Load as: toolnexus (the contract)",
        } <= names


async def test_a_queued_agent_write_is_counted_on_the_health_line_and_announced(home: Path) -> None:
    from notebook_app.core.record.log.actor import Actor, ActorKind
    from notebook_app.core.memory.review.decisions import propose

    app = make_app(home)
    announced: list[tuple[str, str]] = []
    notify = app.notify
    # notifications expire after seconds, and a loaded machine can take that long: keep each one said
    app.notify = lambda message, **kw: (announced.append((kw.get("title", ""), message)), notify(message, **kw))[1]
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "no problems found" in health(app), "the first verdict")
        agent = Actor(ActorKind.MCP, session="20261130-000000-0000abcd", client_name="kip-host", client_version="1")
        queued = propose(home, {"action": "add", "text": "wants a weekly digest"}, by=agent)
        assert "queued for review" in queued.output
        app.screen.read_again()  # the watcher is off in tests; a read is what follows any change
        await wait_until(pilot, lambda: health(app).startswith("✉ 1 to review"), "the count on the health line")
        assert ("review", "1 proposal to review — p") in announced


async def test_with_the_watcher_on_a_proposal_reaches_the_health_line_by_itself(home: Path) -> None:
    from notebook_app.core.record.log.actor import Actor, ActorKind
    from notebook_app.core.memory.review.decisions import propose

    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "no problems found" in health(app), "the first verdict")
        await wait_until(
            pilot, lambda: any(w.group == "log-watch" and w.is_running for w in app.screen.workers), "the log watcher"
        )
        agent = Actor(ActorKind.MCP, session="20261130-000000-0000abcd", client_name="kip-host", client_version="1")
        propose(home, {"action": "add", "text": "wants a weekly digest"}, by=agent)
        await wait_until(
            pilot, lambda: health(app).startswith("✉ 1 to review"), "the count, seen by the watcher", attempts=1500
        )


async def test_a_secret_in_the_history_is_shown_in_the_doctor_and_redacted_with_y(home: Path) -> None:
    from notebook_app.core.memory.edits.guarded_splice import delete_entry
    from notebook_app.core.record.log.actor import CLI, NOTEBOOK
    from notebook_app.core.memory.tool import MemoryTool

    key = "sk-ant-api03-" + "Qx7vT2mN9pL4rK8sW1yZ3bH6" * 2
    MemoryTool(home, by=CLI).call({"action": "add", "text": f"deploy key {key}"})
    line = (home / "MEMORY.md").read_text().splitlines().index(f"- deploy key {key}") + 1
    assert not delete_entry(home, "MEMORY.md", line, f"- deploy key {key}", by=NOTEBOOK).is_error
    log = home / ".notebook" / "events.jsonl"
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await wait_until(pilot, lambda: "secrets in the history" in health(app), "the history in the health line")
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert "the history (.notebook) · 2" in prompts
        listing.highlighted = prompts.index("the history (.notebook) · 2") + 1
        record = screen.selected.record
        detail = lambda: str(screen.query_one("#doctor-detail").content)  # noqa: E731
        await wait_until(pilot, lambda: f"would redact {record}" in detail(), "the redaction's dry run")
        assert key not in detail() and key.encode() in log.read_bytes()
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: len([f for f in (screen.report.findings if screen.report else ()) if f.record]) == 1,
            "one record left",
        )
        await pilot.press("y")
        await wait_until(pilot, lambda: key.encode() not in log.read_bytes(), "both redacted")
        await pilot.press("escape")
        await wait_until(pilot, lambda: "no problems found" in health(app), "healthy again")


async def test_a_fix_whose_dry_run_fails_says_so_under_the_finding_not_as_the_doctors_verdict(
    home: Path, monkeypatch
) -> None:
    (home / "MEMORY.md").write_text(DUPLICATED)
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        index = next(
            i
            for i in range(listing.option_count)
            if (listing.get_option_at_index(i).id or "") in screen._findings
            and screen._findings[listing.get_option_at_index(i).id].rule == "hygiene.duplicate"
        )
        fix = screen._findings[listing.get_option_at_index(index).id].fix

        def broken(self, home):
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(type(fix), "preview", broken)
        listing.highlighted = index
        detail = lambda: str(screen.query_one("#doctor-detail").content)  # noqa: E731
        await wait_until(pilot, lambda: "its dry run failed" in detail(), "the failed dry run under the finding")
        assert "Input/output error" in detail()
        assert "could not finish" not in str(screen.query_one("#doctor-summary").content)


async def test_the_fix_preview_draws_hidden_characters_as_the_panes_markers(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.\nCareful \u202eand\u202c plain\u200b.\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_doctor(pilot)
        listing = screen.query_one(OptionList)
        index = next(
            i
            for i in range(listing.option_count)
            if (f := screen._findings.get(listing.get_option_at_index(i).id or "")) is not None
            and f.rule == "security.bidi"
        )
        listing.highlighted = index
        detail = lambda: str(screen.query_one("#doctor-detail").content)  # noqa: E731
        await wait_until(pilot, lambda: "y applies it" in detail(), "the fix's dry run")
        assert "now:   Careful ⇆and⇆ plain∙." in detail()
        assert not any(raw in detail() for raw in ("\u202e", "\u202c", "\u200b"))
