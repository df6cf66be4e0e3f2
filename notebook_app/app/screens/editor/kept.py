"""An editor's unsaved buffer when the notebook ends: kept as an editing copy, said at exit and at the next open.

However the notebook ends (``ctrl+q``; a served tab closed, which Textual turns
into ``ExitApp``; SIGTERM or SIGHUP), the app asks each screen on its stack to
keep what it would lose (:meth:`~..keyed.KeyedScreen.keep_unsaved`); the
editor keeps its buffer with :func:`notebook_app.core.memory.edits.copies.keep_buffer`, in the user's
state directory, never in the home. The words go to stderr (textual-serve relays
a served tab's stderr to the server's output, though not after a frame failed to
reach the closed page), and the next notebook on the home says where the copy
is, once (:func:`tell_kept`): that is the word that always arrives.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.screen import Screen

from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.workers import run_once

if TYPE_CHECKING:
    from notebook_app.core.memory.edits.copies import KeptCopy


STDERR_GRACE = 0.25
"""Seconds a served notebook waits, after saying on stderr what it kept, before it ends (only when it kept one)."""


def keep_at_exit(app: App, stack: Iterable[Screen], home_label: str) -> list[str]:
    """Each screen on ``stack`` keeps what it would lose (the editor: its unsaved buffer); the words, once said.

    Served, they are said on stderr now (relayed to the server's output while it still reads it) and none are returned;
    in a terminal they are returned, to be printed once the screen is given back (:func:`...launch` does).
    """
    said = [w for s in reversed(list(stack)) if isinstance(s, KeyedScreen) and (w := s.keep_unsaved(home_label))]
    if not app.is_web:
        return said
    for words in said:
        print(f"persona-notebook: {words}", file=sys.__stderr__, flush=True)
    if said:  # textual-serve stops reading a tab's stderr once its stdout ends: a moment for it to take them
        time.sleep(STDERR_GRACE)
    return []


def end_on_signals(app: App) -> None:
    """In a terminal, SIGTERM and SIGHUP end the notebook as ctrl+q does, so that an unsaved buffer is kept.

    Textual's terminal driver leaves them to their default (the process dies at once); served, its web driver
    already turns SIGTERM (and SIGINT) into ExitApp; tests run headless.
    """
    if app.is_web or app.is_headless:
        return

    loop = asyncio.get_running_loop()
    for number in (getattr(signal, name, None) for name in ("SIGTERM", "SIGHUP")):
        if number is not None:
            try:
                loop.add_signal_handler(number, app.exit)
            except (NotImplementedError, RuntimeError):  # Windows: no signal handlers on the loop
                pass


def kept_words(name: str, kept: Path | str, home_label: str) -> str:
    """What ending the notebook did with an unsaved buffer of ``name``: where it is kept, or why it could not be."""
    if isinstance(kept, str):
        return f"{name} had unsaved changes in the editor, and {kept}: they are lost"
    return (
        f"{name} had unsaved changes in the editor: kept at {kept} (the text they were made on beside it, "
        f"{kept.name}.base); nothing was written in {home_label}"
    )


def tell_kept(node: App[Any], home: Path, *, shown: Callable[[Path], str] = str) -> None:
    """Say in one notification the buffers kept for ``home`` that no notebook has said yet (looked for in a thread)."""

    def job() -> list[KeptCopy]:
        from notebook_app.core.memory.edits.copies import edits_dir, kept_copies, mark_told  # lazy: the write path

        untold = [kept for kept in kept_copies(home, edits_dir=edits_dir()) if not kept.told]
        for kept in untold:
            mark_told(kept)
        return untold

    def said(untold: list[KeptCopy]) -> None:
        if untold:
            title, words = kept_notice(untold, shown)
            node.notify(words, title=title, severity="warning", markup=False, timeout=30)

    run_once(node, "kept-copies", job, done=said, failed=lambda _words: None)  # a look only: nothing to lose


def kept_notice(untold: list[KeptCopy], shown: Callable[[Path], str] = str) -> tuple[str, str]:
    """The title and words for buffers kept when a notebook on this home last ended."""
    names = sorted({kept.name for kept in untold})
    title = f"unsaved {', '.join(names)} kept"
    where = "\n".join(shown(kept.path) for kept in untold)
    base = f"{names[0]}.base" if len(names) == 1 else "NAME.base"
    return title, (
        "The editor had unsaved changes when the notebook last ended; nothing was written. They are in:\n"
        f"{where}\nbeside the text they were made on ({base})."
    )
