"""The review view: each proposal with its dry run against the file now; approve, reject, edit, all."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import MEMORY, SIZE, make_app, started, wait_until
from textual.widgets import Input, OptionList

from notebook_app.app.screens.review.screen import ReviewScreen
from notebook_app.core.history.query import history
from notebook_app.core.memory.review.decisions import pending, propose
from notebook_app.core.record.log.actor import Actor

AGENT = Actor.mcp("20261130-210000-0000abcd", "kip-host", "1.4")


def queue(home: Path, args: dict[str, str]) -> str:
    result = propose(home, args, by=AGENT)
    assert not result.is_error, result
    return result.output.split("(id ")[1].split(")")[0]


def detail(app) -> str:
    return str(app.screen.query_one("#review-detail").content)


def status(home: Path, proposal_id: str) -> str:
    return next(p for p in pending(home, include_decided=True) if p.id == proposal_id).status


async def open_review(pilot) -> ReviewScreen:
    await pilot.press("p")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen) and pilot.app.screen.listed, "the queue")
    return pilot.app.screen


async def test_y_approves_the_selected_proposal_exactly_as_the_agent_sent_it(home: Path) -> None:
    pid = queue(home, {"action": "replace", "text": "timezone: UTC", "with": "timezone: IST"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        assert [row.proposal.id for row in screen.rows] == [pid]
        assert "-- timezone: UTC\n+- timezone: IST" in detail(app) and "If approved now: loads next session" in detail(
            app
        )
        assert "by mcp:kip-host 1.4 · session 20261130-210000-0000abcd" in detail(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: status(home, pid) == "approved", "the approval")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("timezone: UTC", "timezone: IST")
        [write] = [e for e in history(home) if e.action == "approved"]
        assert write.by.session == AGENT.session and write.by.approved_by.kind.value == "notebook"
        assert "edited" not in write.extra
        await wait_until(
            pilot, lambda: screen.rows and screen.rows[0].proposal.status == "approved", "shown as approved"
        )


async def test_x_rejects_with_the_reason_given_and_leaves_the_file(home: Path) -> None:
    pid = queue(home, {"action": "add", "text": "likes loud music"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        await pilot.press("x")
        assert screen.is_typing
        await pilot.press(*"not true")  # letters type the reason: x, y and e act no more
        await pilot.press("enter")
        await wait_until(pilot, lambda: status(home, pid) == "rejected", "the rejection")
        [proposal] = pending(home, include_decided=True)
        assert proposal.reason == "not true"
        assert (home / "MEMORY.md").read_text() == MEMORY


async def test_a_proposal_whose_text_is_gone_shows_not_found_live_and_fails_cleanly_when_approved(home: Path) -> None:
    pid = queue(home, {"action": "replace", "text": "likes tide tables", "with": "likes tide charts"})
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        assert "If approved now" in detail(app)
        changed = MEMORY.replace("likes tide tables", "likes sea shanties")
        (home / "MEMORY.md").write_text(changed)  # another writer, while the view is open
        await wait_until(
            pilot, lambda: "not found: likes tide tables: approving now would fail" in detail(app), "the miss, live"
        )
        await pilot.press("y")
        await wait_until(pilot, lambda: status(home, pid) == "failed", "the failed approval")
        assert (home / "MEMORY.md").read_text() == changed
        await wait_until(pilot, lambda: screen.rows and screen.rows[0].proposal.status == "failed", "shown as failed")
        assert "failed: not found: likes tide tables" in detail(app)
        # the watcher can show the failed row before the decision's own notice lands (its worker's callback)
        said = lambda: [n.message for n in app._notifications if n.severity == "error"]  # noqa: E731
        await wait_until(pilot, lambda: any("not found: likes tide tables" in m for m in said()), "the failure said")


async def test_capital_y_approves_all_shown_oldest_first_once_confirmed(home: Path) -> None:
    ids = [queue(home, {"action": "add", "text": text}) for text in ("first", "second", "third")]
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        await pilot.press("Y")
        assert "Approve all 3 proposals shown" in detail(app)
        assert (home / "MEMORY.md").read_text() == MEMORY  # nothing before y confirms
        queue(home, {"action": "add", "text": "arrived after"})  # not shown: not approved
        await pilot.press("y")
        await wait_until(pilot, lambda: all(status(home, pid) == "approved" for pid in ids), "all approved")
        assert (home / "MEMORY.md").read_text() == MEMORY + "- first\n- second\n- third\n"
        assert [p.field("text") for p in pending(home)] == ["arrived after"]
        await wait_until(pilot, lambda: len(screen.rows) == 4, "the newcomer listed")


async def test_esc_cancels_approve_all_and_then_leaves_the_view(home: Path) -> None:
    queue(home, {"action": "add", "text": "first"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        await pilot.press("X", "escape")
        assert screen.confirming is None and app.screen is screen
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ReviewScreen), "back to the notebook")
        assert len(pending(home)) == 1


async def test_e_edits_the_text_shows_its_dry_run_and_approves_the_edit(home: Path) -> None:
    pid = queue(home, {"action": "replace", "text": "timezone: UTC", "with": "timezone: IST"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await open_review(pilot)
        await pilot.press("e")
        field = app.screen.query_one("#review-input", Input)
        assert field.value == "timezone: IST"
        field.value = "timezone: Asia/Kolkata"
        await wait_until(pilot, lambda: "+- timezone: Asia/Kolkata" in detail(app), "the edit's dry run")
        assert "If approved now (edited)" in detail(app)
        await pilot.press("enter")
        await wait_until(pilot, lambda: status(home, pid) == "approved", "the approval")
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("timezone: UTC", "timezone: Asia/Kolkata")
        [write] = [e for e in history(home) if e.action == "approved"]
        assert write.extra.get("edited") is True and write.args["with"] == "timezone: Asia/Kolkata"


async def test_review_is_in_the_palette_and_an_empty_queue_says_how_one_fills(home: Path) -> None:
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert "Review the agents' proposals" in {command.title for command in app.get_system_commands(app.screen)}
        screen = await open_review(pilot)
        assert screen.rows == [] and "--review" in str(screen.query_one("#review-summary").content)


async def test_the_palette_turns_review_on_and_off_for_the_home_as_a_recorded_write(home: Path) -> None:
    from notebook_app.core.record.settings import load_settings

    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        commands = {command.title: command for command in app.get_system_commands(app.screen)}
        assert {"Turn review on for this home", "Turn review off for this home"} <= set(commands)
        await commands["Turn review on for this home"].callback()
        await wait_until(pilot, lambda: load_settings(home).review is True, "the setting on")
        await wait_until(
            pilot,
            lambda: any(
                n.title == "review setting" and n.message.startswith("review is on") for n in app._notifications
            ),
            "said",
        )
        await commands["Turn review off for this home"].callback()
        await wait_until(pilot, lambda: load_settings(home).review is False, "the setting off")
    changes = [e for e in history(home) if e.action == "setting"]
    assert [(e.args, e.by.kind.value) for e in changes] == [
        ({"review": False}, "notebook"),
        ({"review": True}, "notebook"),
    ]


async def test_at_80_columns_every_row_fits_the_queue_and_a_long_value_is_cut_between_words(home: Path) -> None:
    long = "the kelp survey at the north transect moves to the first Tuesday of every month from now on"
    queue(home, {"action": "replace", "text": "timezone: UTC", "with": long})
    queue(home, {"action": "add", "target": "user", "text": long})
    app = make_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        listing = screen.query_one(OptionList)
        width = listing.scrollable_content_region.width
        rows = [listing.get_option_at_index(i).prompt.plain for i in range(listing.option_count)]
        assert all(len(line) <= width for row in rows for line in row.split("\n"))  # no row wraps
        assert "mcp:kip-host 1.4" in rows[0].split("\n")[0]  # who on the first line, the call under it
        for row, before in ((rows[0], "  replace self: 'timezone: UTC' → '"), (rows[1], "  add user: '")):
            call = row.split("\n")[1]
            assert call.startswith(before) and call.endswith("…")
            kept = call.removeprefix(before).removesuffix("…")
            assert long.startswith(kept) and long[len(kept)] == " "  # the value stops at the end of a word


async def test_a_proposal_rejected_from_the_cli_stays_listed_with_its_outcome(home: Path) -> None:
    import subprocess
    import sys

    pid = queue(home, {"action": "add", "text": "likes loud music"})
    other = queue(home, {"action": "add", "text": "likes kelp"})
    app = make_app(home, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        assert [row.proposal.id for row in screen.rows] == [pid, other]
        done = subprocess.run(
            [sys.executable, "-m", "notebook_app", "reject", pid, "--home", str(home), "--reason", "not true"],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        await wait_until(
            pilot,
            lambda: [r.proposal.status for r in screen.rows] == ["rejected", "pending"],
            "the CLI's rejection, listed",
        )
        assert "rejected: not true" in detail(app)


async def test_an_edited_approval_shows_what_was_written_and_says_it_was_edited(home: Path) -> None:
    from notebook_app.app.screens.review.screen import row_prompt
    from notebook_app.core.memory.review.decisions import approve
    from notebook_app.core.record.log.actor import CLI

    pid = queue(home, {"action": "replace", "text": "Fridays", "with": "Mondays"})
    assert approve(home, pid, by=CLI, edited_args={"action": "replace", "text": "Fridays", "with": "Wednesdays"}).done
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        screen.decided.add(pid)
        screen._read_again()
        await wait_until(
            pilot, lambda: screen.rows and screen.rows[0].proposal.status == "approved", "the approval listed"
        )
        row = str(row_prompt(screen.rows[0], app.clock))
        assert "'Fridays' → 'Wednesdays'" in row and "Mondays" not in row and "edited" in row
        assert "'Fridays' → 'Wednesdays'" in detail(app) and "edited by cli" in detail(app)
        assert "the agent proposed 'Mondays'" in detail(app)


async def test_a_proposal_that_holds_a_secret_is_flagged_in_the_list_and_the_detail(home: Path) -> None:
    from notebook_app.app.screens.review.screen import row_prompt

    key = "sk-ant-api03-" + "Wv4" * 16
    queue(home, {"action": "add", "text": f"deploy key {key}"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        assert "⚠ holds an Anthropic API key" in str(row_prompt(screen.rows[0], app.clock))
        assert "⚠ it holds an Anthropic API key: approving writes it to MEMORY.md" in detail(app)


async def test_approve_all_counts_and_approves_only_the_proposals_that_apply_now(home: Path) -> None:
    fine = queue(home, {"action": "add", "text": "first"})
    miss = queue(home, {"action": "replace", "text": "likes tide tables", "with": "likes tide charts"})
    later = queue(home, {"action": "add", "text": "second"})
    (home / "MEMORY.md").write_text(MEMORY.replace("likes tide tables", "likes sea shanties"))  # known to miss now
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        await pilot.press("Y")
        assert "Approve all 2 proposals shown that apply now" in detail(app)
        assert "1 would miss now and stays pending" in detail(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: status(home, fine) == status(home, later) == "approved", "both approved")
        assert status(home, miss) == "pending"
        await wait_until(
            pilot, lambda: [r.proposal.status for r in screen.rows] == ["approved", "pending", "approved"], "listed"
        )


async def test_one_sessions_proposals_show_as_one_diff_and_are_still_decided_one_by_one(home: Path) -> None:
    merge = queue(home, {"action": "replace", "text": "timezone: UTC", "with": "timezone: IST (was UTC)"})
    other = propose(home, {"action": "add", "text": "by another agent"}, by=Actor.mcp("s-other", "claude-code", "2"))
    assert not other.is_error
    dropped = queue(home, {"action": "remove", "text": "- drafts go out on Fridays\n"})
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        assert [row.batch is not None for row in screen.rows] == [True, False, True]
        assert "Its session's batch: 2 proposals, oldest first, as one diff" in detail(app)
        assert (
            "MEMORY.md:\nfrom line 1:\n # Notes\n \n-- timezone: UTC\n+- timezone: IST (was UTC)\n"
            " - likes tide tables\n-- drafts go out on Fridays"
        ) in detail(app)
        await pilot.press("down")
        assert "Its session's batch" not in detail(app)
        await pilot.press("up", "y")  # a part of the batch: the merge alone
        await wait_until(pilot, lambda: status(home, merge) == "approved", "the approval")
        await wait_until(pilot, lambda: all(row.batch is None for row in screen.rows), "one left of the batch")
        assert status(home, dropped) == "pending"
        assert (home / "MEMORY.md").read_text() == MEMORY.replace("timezone: UTC", "timezone: IST (was UTC)")


async def test_on_a_hermes_home_the_dry_run_and_the_approval_are_in_its_section_stores(tmp_path: Path) -> None:
    """A Hermes home's proposal is dry-run against memories/MEMORY.md and y writes it there as a § entry, never
    a '- ' line in a MEMORY.md of its own."""
    from notebook_app.app.view_model.notebook import Notebook
    from notebook_app.core.home.layout import hermes_files

    home = tmp_path / "hermes"
    (home / "memories").mkdir(parents=True)
    (home / "SOUL.md").write_text("You are Hermes.\n")
    (home / "memories" / "MEMORY.md").write_text("likes tide tables\n§\ndrafts go out on Fridays")
    result = propose(home, {"action": "remove", "text": "Fridays"}, by=AGENT, files=hermes_files())
    assert not result.is_error, result
    app = make_app(home)
    app._notebook = Notebook(home, files=hermes_files())
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        screen = await open_review(pilot)
        pid = screen.rows[0].proposal.id
        assert "-drafts go out on Fridays" in detail(app), detail(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: status(home, pid) == "approved", "the approval")
    assert (home / "memories" / "MEMORY.md").read_text() == "likes tide tables"
    assert not (home / "MEMORY.md").exists()


async def test_an_approval_that_misses_by_a_hidden_character_names_the_near_match(home: Path) -> None:
    """As the CLI's approve and the form say it: the failure is followed by the near match, the character named."""
    pid = queue(home, {"action": "remove", "text": "likes tide tables"})
    (home / "MEMORY.md").write_text(MEMORY.replace("likes tide tables", "likes tide\u200b tables"))
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await open_review(pilot)
        await pilot.press("y")
        await wait_until(pilot, lambda: status(home, pid) == "failed", "the failed approval")
        said = [str(n.message) for n in app._notifications if n.severity == "error"]
        await wait_until(
            pilot,
            lambda: any("U+200B ZERO WIDTH SPACE in the file" in str(n.message) for n in app._notifications),
            f"the near match named: {said}",
        )
