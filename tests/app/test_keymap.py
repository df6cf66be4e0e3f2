"""keymap.toml remaps bindings by id; help, footer and the form's hints follow; a bad file is one notice."""

from __future__ import annotations

from pathlib import Path

from notebook_pilot import SIZE, make_app, started, wait_until

from notebook_app.app.keymap import load_keymap
from notebook_app.app.screens.help import HelpScreen
from notebook_app.app.widgets.form.action_form import ActionForm


def keymap_file(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "xdg-config" / "persona-notebook"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "keymap.toml"
    path.write_text(text)
    return path


async def test_a_remapped_key_acts_and_help_footer_and_form_show_it(home: Path, tmp_path: Path) -> None:
    keymap_file(tmp_path, 'add = "ctrl+n"\nsubmit = "ctrl+s"\n')
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        footer_keys = {binding.key for (_, binding, _, _) in app.screen.active_bindings.values()}
        assert "ctrl+n" in footer_keys and "a" not in footer_keys
        await pilot.press("a")
        assert not app.screen.query_one(ActionForm).is_open
        await pilot.press("ctrl+n")
        form = app.screen.query_one(ActionForm)
        assert form.is_open
        assert str(form.query_one("#form-keys").content) == "ctrl+s apply · esc close · ctrl+t target"
        await pilot.press("escape", "f1")
        assert isinstance(app.screen, HelpScreen)
        rows = [str(label.content) for label in app.screen.query(".help-key")]
        assert "ctrl+n" in rows and "a" not in rows


async def test_a_bad_keymap_is_one_notification_and_the_app_runs(home: Path, tmp_path: Path) -> None:
    keymap_file(tmp_path, "add = [1\n")
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        notes = [n for n in app._notifications if n.title == "keymap"]
        assert len(notes) == 1 and "keymap.toml" in notes[0].message and "no key was remapped" in notes[0].message
        await pilot.press("a")
        assert app.screen.query_one(ActionForm).is_open


def test_unknown_ids_wrong_types_and_clashes_are_refused_one_by_one(tmp_path: Path) -> None:
    text = 'add = "ctrl+n"\nfly = "f9"\nremove = 3\nreplace = "x"\nnext-session = "n,ctrl+x"\nagent-sessions = "a"\n'
    keymap, problems = load_keymap(keymap_file(tmp_path, text))
    # "a" is free once add moved to ctrl+n; "x" is still remove's, whose remap was refused
    assert keymap == {"add": "ctrl+n", "next-session": "n,ctrl+x", "agent-sessions": "a"}
    assert len(problems) == 3
    assert any("unknown binding id 'fly'" in p for p in problems)
    assert any("remove must be keys as a string" in p for p in problems)
    assert any("replace = 'x' clashes with 'remove' in Notebook" in p for p in problems)


def test_the_docs_list_every_binding_id_in_table_order() -> None:
    from notebook_app.app.keys import ALL_KEYS

    page = (Path(__file__).parents[2] / "docs" / "screen.md").read_text(encoding="utf-8")
    section = page[page.index("\n## Your own keys\n") :]
    listed = section[: section.index("Remap them")]
    ids = [part.strip(" `\n(),.") for part in listed.split("`")[1::2]]
    assert ids == [key.id for key in ALL_KEYS]


def test_no_key_is_bound_only_to_one_a_browser_keeps_for_itself() -> None:
    """Served, ctrl+t and friends never reach the notebook: each such binding has another key beside it."""
    from notebook_app.app.keys import ALL_KEYS, BROWSER_KEPT

    kept_only = [key.id for key in ALL_KEYS if not set(key.keys.split(",")) - BROWSER_KEPT]
    assert kept_only == []
    assert any("ctrl+t" in key.keys.split(",") for key in ALL_KEYS)  # the table does use one: the test has teeth


async def test_a_remap_that_shadows_an_app_wide_key_is_one_notification_naming_both(home: Path, tmp_path: Path) -> None:
    keymap_file(tmp_path, 'add = "q"\n')
    app = make_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        notes = [n for n in app._notifications if n.title == "keymap"]
        assert len(notes) == 1, [n.message for n in notes]
        assert "add = 'q'" in notes[0].message and "'quit'" in notes[0].message
        await pilot.press("a")  # add keeps its own key
        assert app.screen.query_one(ActionForm).is_open
        await pilot.press("escape", "q")  # and q still quits
        await wait_until(pilot, lambda: app._exit, "the app to quit")


def test_shadowing_is_refused_both_ways_and_a_key_freed_first_is_not_a_shadow(tmp_path: Path) -> None:
    text = 'quit = "y"\nhistory-undo = "f1"\nadd = "ctrl+q,x"\n'
    keymap, problems = load_keymap(keymap_file(tmp_path, text))
    assert keymap == {}
    assert any(
        p.startswith(f"{tmp_path / 'xdg-config' / 'persona-notebook' / 'keymap.toml'}: quit = 'y'") for p in problems
    )
    assert any("quit = 'y'" in p and "'export-apply'" in p and "'review-approve'" in p for p in problems)
    assert any("history-undo = 'f1'" in p and "'help-anywhere'" in p for p in problems)
    assert any("add = 'x'" in p and "'remove'" in p for p in problems)  # a clash in its own view, as before
    assert len(problems) == 3
    moved, none = load_keymap(keymap_file(tmp_path, 'quit = "ctrl+q"\nadd = "q"\n'))
    assert (moved, none) == ({"quit": "ctrl+q", "add": "q"}, [])  # q is free once quit moved
    kept, refused = load_keymap(keymap_file(tmp_path, 'quit = "y"\nadd = "q"\n'))
    assert kept == {} and "add = 'q' would take it from 'quit'" in refused[1]  # quit's move refused: q is its again
