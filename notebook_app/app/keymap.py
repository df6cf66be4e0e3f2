"""The user's keymap: ``keymap.toml`` in the config folder, binding id → keys.

As Posting does: every binding has an id in the one key table, and a person
remaps it by id, e.g. ``add = "ctrl+n"`` or ``quit = "ctrl+x,q"``. Unknown ids,
values that are not strings, keys that would clash with another binding
of the same view, and keys that would shadow an app-wide one (``add = "q"``
takes ``q`` from quit) are refused, each as one problem naming both bindings;
the rest of the file still applies. Help, the footer and the form's hints show the keys in
force.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

from platformdirs import user_config_dir

from notebook_app.app.keys import KEY_GROUPS, Key, KeyGroup

KEYMAP_FILE = "keymap.toml"


def user_keymap_path() -> Path:
    return Path(user_config_dir("persona-notebook")) / KEYMAP_FILE


def load_keymap(path: Path) -> tuple[dict[str, str], list[str]]:
    """The remaps in ``path`` that can apply, and the problems with the rest (absent file: none)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}, []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        return {}, [f"{path}: {error}; no key was remapped"]
    return check_keymap(raw, str(path))


def check_keymap(raw: Mapping[str, object], where: str) -> tuple[dict[str, str], list[str]]:
    known = {key.id: group for group in KEY_GROUPS for key in group.keys}
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, value in raw.items():
        if binding_id not in known:
            problems.append(
                f"{where}: unknown binding id {binding_id!r} (the ids are in the help screen's table and README)"
            )
        elif not isinstance(value, str) or not value.strip():
            problems.append(f'{where}: {binding_id} must be keys as a string, like "ctrl+n"')
        else:
            keymap[binding_id] = ",".join(part.strip() for part in value.split(","))
    while (problem := _first_refused(known, keymap)) is not None:  # a refusal gives a key back: look again
        binding_id, words = problem
        problems.append(f"{where}: {words}; not remapped")
        del keymap[binding_id]
    return keymap, problems


def _first_refused(known: Mapping[str, KeyGroup], keymap: Mapping[str, str]) -> tuple[str, str] | None:
    """The first remap that clashes in its own view or shadows a binding in force with it, and why; None: none."""
    for binding_id in keymap:
        group = known[binding_id]
        taken = {k: key.id for key in group.keys if key.id != binding_id for k in keys_in_force(key, keymap).split(",")}
        clash = next((k for k in keymap[binding_id].split(",") if k in taken), None)
        if clash is not None:
            return binding_id, f"{binding_id} = {clash!r} clashes with {taken[clash]!r} in {group.title}"
        shadow = shadowing(binding_id, known, keymap)
        if shadow is not None:
            return binding_id, shadow
    return None


def shadowing(binding_id: str, known: Mapping[str, KeyGroup], keymap: Mapping[str, str]) -> str | None:
    """Whether remapped ``binding_id`` takes a key from a binding of another view in force at the same time, in words.

    The app-wide keys (help, quit, the pane keys) are in force in every view, and a view's own binding comes
    first: ``add = "q"`` would take ``q`` from quit, ``quit = "y"`` would lose ``y`` to each view's apply.
    Only keys the remap adds count: the table's own overlaps are by design.
    """
    everywhere = KEY_GROUPS[0]
    own = known[binding_id]
    others = [group for group in KEY_GROUPS[1:] if group is not own] if own is everywhere else [everywhere]
    default = next(key for key in own.keys if key.id == binding_id).keys.split(",")
    for k in (k for k in keymap[binding_id].split(",") if k not in default):
        holders = [
            (key.id, group.title)
            for group in others
            for key in group.keys
            if k in keys_in_force(key, keymap).split(",")
        ]
        if holders:
            named = ", ".join(f"{holder!r} ({title})" for holder, title in holders)
            verb = "would take it from" if own is not everywhere else "would lose it to"
            return f"{binding_id} = {k!r} {verb} {named}, in force at the same time"
    return None


def keys_in_force(key: Key, keymap: Mapping[str, str]) -> str:
    return keymap.get(key.id, key.keys)


def shown_key(key: Key, keymap: Mapping[str, str]) -> str:
    """How the key is written on screen: the remapped keys, else the table's display."""
    return keymap[key.id].replace(",", " / ") if key.id in keymap else key.display
