"""Export from the notebook: the palette's Export to: HOST, the plan shown first, y then y writes exactly it."""

from __future__ import annotations

import shutil
from importlib.resources import files
from pathlib import Path

import pytest
from notebook_pilot import SIZE, make_app, started, wait_until
from textual.widgets import Input

from notebook_app.app.screens.export.screen import ExportScreen

SECRET = "gh" + "p_" + "abcdefghijklmnopqrstuvwxyz" + "0123456789"  # assembled: never a whole token in the source


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    home = tmp_path / "demo"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)
    return home


def said(screen: ExportScreen) -> str:
    return str(screen.query_one("#export-summary").content)


def shown(screen: ExportScreen) -> str:
    return str(screen.query_one("#export-plan-text").content)


TITLES = {"toolnexus": "toolnexus", "openclaw": "OpenClaw", "hermes": "Hermes", "claude-code": "Claude Code"}


async def plan_to(pilot, target: str, destination: Path) -> ExportScreen:
    """Export to: ``target`` chosen in the palette, the destination given, and the plan (or its refusal) shown."""
    app = pilot.app
    await started(pilot)
    await pilot.press("ctrl+p", *f"Export to: {TITLES[target]}")
    await wait_until(pilot, lambda: any(c.option_count for c in app.screen.query("CommandList")), "the command")
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ExportScreen), "the export view")
    screen = app.screen
    screen.query_one(Input).value = str(destination)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not said(screen).startswith("Planning"), "the plan")
    await wait_until(pilot, lambda: screen.plan is not None or said(screen).startswith("⚠"), "the plan or why not")
    return screen


async def test_the_palette_offers_export_to_each_of_the_four_hosts(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        exports = [title for title in titles if title.startswith("Export to: ")]
        assert exports == ["Export to: toolnexus", "Export to: OpenClaw", "Export to: Hermes", "Export to: Claude Code"]


async def test_the_plan_is_shown_first_and_y_then_y_writes_exactly_it(demo: Path, tmp_path: Path) -> None:
    destination = tmp_path / "as-hermes"
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "hermes", destination)
        assert "memories/MEMORY.md ← MEMORY.md" in shown(screen)
        assert "entries: 18 loaded" in shown(screen)
        assert not destination.exists()  # a plan writes nothing
        await pilot.press("y")
        assert said(screen).startswith(f"y again writes 6 files to {destination}")
        assert not destination.exists()
        plan = screen.plan
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ExportScreen), "back to the notebook")
    assert plan is not None
    written = sorted(str(path.relative_to(destination)) for path in destination.rglob("*") if path.is_file())
    assert written == sorted(file.path for file in plan.files)
    for file in plan.files:
        assert (destination / file.path).read_text(encoding="utf-8") == file.text


async def test_esc_after_the_first_y_writes_nothing(demo: Path, tmp_path: Path) -> None:
    destination = tmp_path / "as-openclaw"
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "openclaw", destination)
        await pilot.press("y", "escape")
        assert said(screen).startswith("Not written.")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ExportScreen), "back to the notebook")
    assert not destination.exists()


async def test_a_secret_refuses_the_export_by_rule_file_and_line_never_by_its_text(demo: Path, tmp_path: Path) -> None:
    with (demo / "MEMORY.md").open("a", encoding="utf-8") as memory:
        memory.write(f"- deploy token {SECRET}\n")
    destination = tmp_path / "leak"
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "hermes", destination)
        assert said(screen).startswith("⚠ Refused: the source holds secrets the doctor found")
        assert "MEMORY.md:" in said(screen) and "--allow-secrets" in said(screen)
        assert SECRET not in shown(screen) and SECRET[:8] not in shown(screen) + said(screen)
        await pilot.press("y", "y")
        await pilot.pause()
    assert not destination.exists()


async def test_a_destination_that_is_not_empty_is_refused_and_m_merges_replacing_no_file(
    demo: Path, tmp_path: Path
) -> None:
    destination = tmp_path / "there"
    destination.mkdir()
    (destination / "SOUL.md").write_text("# Someone else\n", encoding="utf-8")
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "toolnexus", destination)
        assert said(screen).startswith("⚠ ") and screen.plan is None
        await pilot.press("m")
        await wait_until(pilot, lambda: screen.plan is not None, "the merge's plan")
        assert screen.plan.merge
        await pilot.press("y", "y")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ExportScreen), "back to the notebook")
    assert (destination / "SOUL.md").read_text(encoding="utf-8") == "# Someone else\n"
    assert (destination / "SOUL.incoming.md").read_text(encoding="utf-8") == (demo / "SOUL.md").read_text()


async def test_claude_code_names_both_places_it_writes_before_writing(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-config"))
    project = tmp_path / "project"
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "claude-code", project)
        assert screen.plan is not None
        memory = screen.plan.places[next(place for place in screen.plan.places if place.value == "memory")]
        assert str(memory).startswith(str(tmp_path / "claude-config" / "projects"))
        assert "auto-memory folder: " + str(memory) in shown(screen)
        await pilot.press("y")
        assert f"to {project} and {memory};" in said(screen)
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(pilot.app.screen, ExportScreen), "back to the notebook")
    assert (project / "CLAUDE.md").is_file() and (memory / "MEMORY.md").is_file()


async def test_a_destination_typed_after_the_plan_makes_it_unwritable_until_planned_again(
    demo: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "toolnexus", first)
        await pilot.press("d")  # the destination has the focus: typing there is what follows
        screen.query_one(Input).value = str(second)
        await pilot.pause()
        assert screen.plan is None and said(screen).startswith("The destination changed")
        screen.query_one("#export-plan").focus()
        await pilot.press("y", "y")
        await pilot.pause()
    assert not first.exists() and not second.exists()


async def test_a_plan_made_for_what_was_asked_before_is_never_the_one_shown(demo: Path, tmp_path: Path) -> None:
    """A slow plan for the first destination lands after the second was asked: it is dropped, the second shown."""
    first, second = tmp_path / "first", tmp_path / "second"
    async with make_app(demo).run_test(size=SIZE) as pilot:
        screen = await plan_to(pilot, "toolnexus", first)
        made = screen._plan_job(str(first), False)  # what the worker handed back for the first destination
        await pilot.press("d")
        screen.query_one(Input).value = str(second)
        await pilot.press("enter")
        screen._planned(made)  # the first's plan arriving late
        assert screen.plan is None or screen.plan.places[next(iter(screen.plan.places))] == second
        await wait_until(pilot, lambda: screen.plan is not None, "the second plan")
        assert str(second) in shown(screen) and str(first) not in shown(screen)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45)], ids=["80x24", "100x30", "160x45"])
def test_the_plan_of_the_demo_as_an_openclaw_home_at_each_size(
    snap_compare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """The view as a person first sees a plan: the destination offered beside the home, paths from ~."""
    monkeypatch.setenv("HOME", str(tmp_path))
    home = tmp_path / "wren"
    shutil.copytree(str(files("notebook_app") / "demo_home"), home)

    async def run_before(pilot) -> None:
        await started(pilot)
        await pilot.press("ctrl+p", *"Export to: OpenClaw")
        await wait_until(pilot, lambda: any(c.option_count for c in pilot.app.screen.query("CommandList")), "found")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ExportScreen), "the export view")
        assert pilot.app.screen.query_one(Input).value == "~/wren-openclaw"
        await pilot.press("enter")
        await wait_until(pilot, lambda: pilot.app.screen.plan is not None, "the plan")
        await pilot.pause()

    assert snap_compare(make_app(home), terminal_size=size, run_before=run_before)
