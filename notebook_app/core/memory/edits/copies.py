"""Editing copies in the user's state directory: one layout for ``$EDITOR``'s copies and the editor's kept buffers.

A copy is a fresh private folder under :func:`edits_dir` holding ``NAME`` (the
text) and ``NAME.base`` (the text it is an edit of), so that it can be saved
back later through the guarded hand edit with that base. ``$EDITOR`` gets its
copies at the top of :func:`edits_dir` (:mod:`.editor_copy`). A built-in editor's
unsaved buffer, kept when the notebook ends with it open (a closed browser tab,
``ctrl+q``, SIGTERM), goes under ``kept/KEY/``, one folder per home (``KEY``:
a digest of its real path, which the folder's ``home`` file names), so that the
next notebook on that home finds it and says so, once (a ``.told`` mark).

Nothing here writes in the home: only in the user's state directory. Light on
purpose (no write path): the notebook looks for kept copies as it opens.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from notebook_app.core.home.names import base_name

KEPT = "kept"
TOLD = ".told"
"""In a kept copy's folder once a notebook has said where it is: it is said once, not at every start."""


def edits_dir() -> Path:
    """Where editing copies live: ``<user state dir>/persona-notebook/edits`` (``$XDG_STATE_HOME`` on Linux).

    One place for the CLI and the app, so a copy kept after a conflict is
    found where the other would look.
    """
    from platformdirs import user_state_dir  # lazy: platformdirs (17 ms), at first use

    return Path(user_state_dir("persona-notebook")) / "edits"


def make_copy(edits_dir: Path, name: str, base: str, text: str | None = None) -> Path:
    """A fresh private folder holding ``NAME`` (``text``, else the base) and ``NAME.base`` (what it started as)."""
    edits_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    plain = base_name(name)  # memories/MEMORY.md is copied as MEMORY.md: the folder is the home's, not the copy's
    folder = Path(tempfile.mkdtemp(prefix=f"{plain.removesuffix('.md')}-", dir=edits_dir))  # mode 0700
    data = base.encode("utf-8")
    (folder / f"{plain}.base").write_bytes(data)
    copy = folder / plain
    copy.write_bytes(data if text is None else text.encode("utf-8"))
    return copy


def kept_dir(home: str | os.PathLike[str], edits_dir: Path) -> Path:
    """The folder of ``home``'s kept buffers: ``EDITS/kept/KEY``, KEY a digest of the home's real path."""
    real = os.path.realpath(home)
    return edits_dir / KEPT / hashlib.sha256(os.fsencode(real)).hexdigest()[:32]


def keep_buffer(home: str | os.PathLike[str], name: str, text: str, base: str, *, edits_dir: Path) -> Path | str:
    """Keep an unsaved buffer of ``home``'s ``name`` (an edit of ``base``) as an editing copy; its path, or why not.

    The home is not touched: the copy is saved back, when wanted, as any
    editing copy is, through the guarded hand edit with ``NAME.base`` as its base.
    """
    folder = kept_dir(home, edits_dir)
    try:
        copy = make_copy(folder, name, base, text)
        (folder / "home").write_text(os.path.realpath(home) + "\n", encoding="utf-8")  # which home, for a person
    except OSError as error:
        return f"could not keep the unsaved {base_name(name)} in {folder} ({error.strerror or error})"
    return copy


@dataclass(frozen=True)
class KeptCopy:
    """A buffer kept for a home: the copy (its base beside it as ``NAME.base``) and whether it was said before."""

    path: Path
    told: bool

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def base(self) -> Path:
        return self.path.with_name(f"{self.path.name}.base")


def kept_copies(home: str | os.PathLike[str], *, edits_dir: Path) -> list[KeptCopy]:
    """The buffers kept for ``home``, oldest first; none when there are none or they cannot be read."""
    try:
        folders = [entry for entry in os.scandir(kept_dir(home, edits_dir)) if entry.is_dir(follow_symlinks=False)]
    except OSError:
        return []
    found: list[tuple[float, str, KeptCopy]] = []
    for folder in folders:
        try:
            names = os.listdir(folder.path)
        except OSError:
            continue
        for copy in (n for n in names if f"{n}.base" in names):
            kept = KeptCopy(Path(folder.path) / copy, told=TOLD in names)
            try:
                made = kept.base.stat().st_mtime  # written once, when the buffer was kept
            except OSError:
                continue
            found.append((made, folder.name, kept))
    return [kept for _, _, kept in sorted(found, key=lambda item: item[:2])]


def mark_told(copy: KeptCopy) -> None:
    """Remember that a notebook has said where ``copy`` is (best effort: said again next time if not kept)."""
    try:
        (copy.path.parent / TOLD).touch()
    except OSError:
        pass
