"""Plan a move: every file the target will hold, and every entry's place, before anything is written.

:func:`make_plan` maps a :class:`.model.Persona` onto a target host's layout (:mod:`.layouts`): whole files to
their place, entries into the target's dialect (``- `` lines or Hermes's ``§`` store), the entries the target
would merge (Hermes keeps one of exact copies) listed, and the entries past the target's cap (asked of its own
loader, :mod:`.fitting`) moved to an overflow file it does not load: never dropped. The target's folders must be
absent or empty, or, with ``merge``, a merge adds entries to its entry files as its own tool would and writes a
file it already has beside it (``SOUL.incoming.md``), replacing none. Reads the target, never writes it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from notebook_app.core.hostbase.host import Host
from notebook_app.core.hosts.opening.choose import open_home
from notebook_app.core.hosts.opening.result import Opening
from notebook_app.core.memory.sections import hermes_text, joined, measure
from notebook_app.portable.claude_import import claude_instructions
from notebook_app.portable.fitting import Loaded, fitting, probe
from notebook_app.portable.layouts import ENTRY_FILES, OVERFLOW, PROSE, Layout, layout_of
from notebook_app.portable.model import (
    Cut,
    Entry,
    Fate,
    Persona,
    PersonaFile,
    Place,
    Placement,
    Plan,
    PlannedFile,
    Problem,
    Role,
    SecretHit,
    digest,
)
from notebook_app.portable.reading import (
    folder_problem,
    layout_problem,
    parse_entries,
    parse_host,
    places_of,
    text_at,
)
from notebook_app.portable.secret_check import secret_hits
from notebook_app.portable.staging import stagings_beside

Spot = tuple[Place, str]
SEPARATOR_LINE = "§"
"""A line holding only this separates two entries of a ``§`` store (Hermes's)."""
INCOMING = ".incoming.md"
"""A merge never replaces a file: the persona's ``SOUL.md`` goes beside the home's own as ``SOUL.incoming.md``."""


def make_plan(
    persona: Persona,
    spec: str,
    dest: str | os.PathLike[str],
    *,
    merge: bool = False,
    allow_secrets: bool = False,
    soul_import: bool = False,
    env: Mapping[str, str] = os.environ,
) -> Plan | Problem:
    """The plan of writing ``persona`` as host ``spec`` (``NAME[@VERSION]``) at ``dest``, or why there is none.

    ``soul_import``: Claude Code only, the user's choice (never made for them): the project's CLAUDE.md imports
    the memory folder's SOUL.md (``@PATH``), so Claude Code loads it; without it the plan says what it would do.
    """
    parsed = parse_host(spec)
    if isinstance(parsed, Problem):
        return parsed
    host, version = parsed
    root = Path(os.path.abspath(os.path.expanduser(os.fspath(dest))))
    places = places_of(host, root, env)
    for place, folder in places.items():
        if (why := _place_problem(place, folder, merge)) is not None:
            return Problem(why)
    if merge and root.is_dir() and any(os.scandir(root)) and (why := layout_problem(host, root, env)) is not None:
        return Problem(f"--merge adds to {host.a_home}: {why}")
    secrets = secret_hits(persona)
    builder = _Builder(persona, host, version, places, merge)
    builder.blind = bool(secrets) and not allow_secrets and host.export.scratch
    for folder in places.values():
        builder.notes.extend(
            f"{left}: a staging folder a stopped --apply left (or one running now); no home: --apply removes it"
            for left in stagings_beside(folder)
        )
    try:
        for file in persona.files:
            if file.role is Role.ENTRIES:
                builder.entry_file(file)
            else:
                builder.whole_file(file)
        if host.export.instructions:  # a project's instruction files: CLAUDE.md, and the SOUL.md it may import
            claude_instructions(builder, soul_import)
    except _Refused as refused:
        return refused.problem
    return builder.plan(secrets, allow_secrets)


class _Refused(Exception):
    """A file of the target a merge cannot read as text: the plan is a usage error, nothing written."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def _place_problem(place: Place, folder: Path, merge: bool) -> str | None:
    what = "the auto-memory folder" if place is Place.MEMORY else "DEST"
    if not folder.exists() and not folder.is_symlink():
        return None
    if folder.is_symlink():
        return f"{what} {folder} is a symbolic link: a move never writes through one; nothing written"
    if not folder.is_dir():
        return f"{what} {folder} is not a folder; nothing written"
    try:
        empty = not any(os.scandir(folder))
    except OSError as why:
        return f"{what} {folder} cannot be listed ({why.strerror}); nothing written"
    if not empty and not merge:
        stopped = (
            " (an --apply stopped between its two folders leaves this one whole: --merge writes the rest)"
            if place is Place.MEMORY
            else ""
        )
        return f"{what} {folder} is not empty; give an absent or empty folder, or --merge to add to that home{stopped}"
    return None


class _Builder:
    """The plan as it is made: the planned texts by spot, the placements, the notes."""

    def __init__(self, persona: Persona, host: Host, version: str | None, places: dict[Place, Path], merge: bool):
        self.persona, self.host, self.version, self.places, self.merge = persona, host, version, places, merge
        self.layout: Layout = layout_of(host)
        self.stores = bool(host.export.stores)
        """The target keeps MEMORY.md and USER.md as ``§`` stores (Hermes): entries joined by ``§``, exact copies
        merged, its limit in characters; else ``- `` lines, cut by its loader."""
        self.texts: dict[Spot, str] = {}
        self.sources: dict[Spot, str] = {}
        self.befores: dict[Spot, str | None] = {}
        self.placements: list[Placement] = []
        self.notes: list[str] = []
        self.blind = False
        """A plan refused for secrets: the target's loader is not asked, as it reads a copy laid out on disk."""
        self.imported: Spot | None = None
        """Claude Code: the SOUL.md the project's CLAUDE.md imports (``soul_import``), which it then loads."""

    # what is there now -------------------------------------------------------------------------------------------

    def existing(self, spot: Spot) -> str | None:
        """The text at ``spot`` in the target now (None: nothing there); its digest is kept as the plan's base."""
        place, path = spot
        text = text_at(self.places[place] / path, links=False)
        if isinstance(text, Problem):
            raise _Refused(text)
        self.befores.setdefault(spot, None if text is None else digest(text.encode("utf-8")))
        return text

    def put(self, spot: Spot, text: str, source: str) -> None:
        if (why := folder_problem(self.places[spot[0]], spot[1])) is not None:
            raise _Refused(Problem(why))
        self.texts[spot] = text
        self.sources[spot] = source
        if spot not in self.befores:
            self.existing(spot)

    # whole files and notes ---------------------------------------------------------------------------------------

    def whole_file(self, file: PersonaFile) -> None:
        if file.role is Role.WHOLE:
            spot = self.layout.files[file.name]
        elif file.role is Role.NOTE:
            spot = self._note_spot(file)
        else:
            spot = self.layout.archive
        there = self.existing(spot) if self.merge else None
        if there is not None:
            if there == file.text:
                self.notes.append(f"{spot[1]}: the home has it already, the same text; not written again")
                return
            place, path = spot
            beside = self._beside(place, path, file.text)
            if beside is None:
                return
            spot = beside
            self.notes.append(f"{path}: the home has its own, kept; the persona's is written beside it as {spot[1]}")
        read = self.persona.host
        if file.role is Role.NOTE and file.path in read.export.instructions[1:]:
            agents = self.layout.files["AGENTS.md"][1]
            self.notes.append(
                f"{file.path}: {read.title} loads it as well as {read.export.instructions[0]}, which goes to {agents};"
                f" it goes to {spot[1]}, a note {self.host.title} does not load"
            )
        self.put(spot, file.text, file.path)

    def _note_spot(self, file: PersonaFile) -> Spot:
        """Where a note goes: its name in the target's notes folder, renamed (``note-X.md``, ``note-2-X.md``, …)
        until no other planned file, none of the seven, no side file and no archive is there; a rename is said."""
        base = file.name.removeprefix("notes/")
        taken = set(self.texts) | set(self.layout.files.values()) | {self.layout.archive}
        sides = {self.layout.side_path(name, suffix) for name in ENTRY_FILES for suffix in (OVERFLOW, PROSE)}
        for number in range(1, 10_000):
            name = base if number == 1 else "note-" + base if number == 2 else f"note-{number - 1}-{base}"
            spot = self.layout.note_path(name)
            if spot not in taken and spot not in sides:
                break
        if name != base:
            self.notes.append(
                f"{file.path}: renamed {spot[1]}: {base} there is another file of the move's or a name kept for one"
            )
        return spot

    def _beside(self, place: Place, path: str, text: str) -> Spot | None:
        """The first ``NAME.incoming.md`` (``NAME.incoming-2.md``, …) not there; None when one holds ``text``."""
        for number in range(1, 1000):
            spot = (place, path.removesuffix(".md") + (INCOMING if number == 1 else f".incoming-{number}.md"))
            there = self.existing(spot)
            if there == text:
                self.notes.append(f"{spot[1]}: the home has the persona's {path} beside its own already")
                return None
            if there is None:
                return spot
        self.notes.append(f"{path}: 999 copies of it beside the home's already; the persona's is not written")
        return None

    def _add_to(self, spot: Spot, text: str, source: str) -> None:
        """Put ``text`` at a side file, after what a merged-into home holds there already: a merge replaces none."""
        there = self.existing(spot) if self.merge else None
        if there and there.strip():
            if self.stores and spot[1].endswith(OVERFLOW):
                text = there + "\n§\n" + text
            else:
                text = there + ("" if there.endswith("\n") else "\n") + text
        self.put(spot, text, source)

    # entry files -------------------------------------------------------------------------------------------------

    def entry_file(self, file: PersonaFile) -> None:
        spot = self.layout.files[file.name]
        there = self.existing(spot) if self.merge else None
        parsed, _ = parse_entries(there, spot[1], self.host) if there else ([], [])
        old = list({e.text: e for e in parsed}.values()) if self.stores else parsed
        fresh: list[Entry] = []
        changed: dict[int, str] = {}
        seen = {e.text for e in old}
        kept: list[str] = []
        unfit: list[str] = []
        for entry in file.entries:
            text, how = self._in_dialect(entry.text)
            if self.stores and SEPARATOR_LINE in (line.strip() for line in text.split("\n")):
                side = self.layout.side_path(file.name, PROSE)
                why = "a line of only § would split it in a § store: kept as a '- ' line"
                self.placements.append(Placement(entry, Fate.UNLOADED, side[0], side[1], None, why))
                unfit.append(f"- {entry.text}")
                continue
            if text in seen:
                fate = Fate.PRESENT if any(e.text == text for e in old) else Fate.MERGED
                if fate is Fate.PRESENT or self.stores:
                    self.placements.append(Placement(entry, fate, spot[0], spot[1], None, how))
                    continue
            seen.add(text)
            changed[len(fresh)] = how
            fresh.append(entry)
            kept.append(text)
        fits = self._fit(file, spot, there, [e.text for e in old], kept)
        loads = file.name not in self.host.export.unloaded
        if loads:
            self.notes.extend(self._lost_prose(file, unfit))
        self.put(spot, self._entry_text(file, there, [e.text for e in old], kept[:fits]), file.path)
        for number, entry in enumerate(fresh[:fits], start=len(old) + 1):
            fate = Fate.LOADED if loads else Fate.UNLOADED
            self.placements.append(Placement(entry, fate, spot[0], spot[1], number, changed[number - len(old) - 1]))
        if fits < len(fresh):
            side = self.layout.side_path(file.name, OVERFLOW)
            self._add_to(side, self._join(kept[fits:]), f"{file.path} (overflow)")
            for number, entry in enumerate(fresh[fits:], start=1):
                how = changed[fits + number - 1]
                self.placements.append(Placement(entry, Fate.OVERFLOW, side[0], side[1], number, how))

    def _in_dialect(self, text: str) -> tuple[str, str]:
        """An entry's text as the target's dialect can hold it, and how it was changed (``""``: not at all).

        Hermes reads its store with universal newlines: a carriage return in a ``- `` entry is a line break to it
        (and a ``§`` between two is a separator), so the entry is planned, measured and written as Hermes reads it."""
        if self.stores:
            if "\r" in text:
                return hermes_text(text), f"its carriage returns made line breaks: {self.host.title} reads them so"
            return text, ""
        if "\n" in text:
            lines = [line.strip() for line in text.split("\n") if line.strip()]
            return " ".join(lines), f"its {len(lines)} lines joined with spaces: a '- ' entry is one line"
        return text, ""

    def _join(self, texts: list[str]) -> str:
        return joined(texts) if self.stores else "".join(f"- {t}\n" for t in texts)

    def _entry_text(self, file: PersonaFile, there: str | None, old: list[str], new: list[str]) -> str:
        if self.stores:
            return joined(old + new)
        if there is not None:
            gap = "" if not there or there.endswith("\n") else "\n"
            return there + gap + self._join(new)
        if not self.persona.host.export.stores and len(new) == len(file.entries) and not file.read_back:
            return file.text  # a '- ' file to a '- ' host, whole: its layout and prose kept byte for byte
        head = "".join(f"{line}\n" for line in file.prose)  # a blank line after it only where the source had one
        return head + self._join(new)

    def _lost_prose(self, file: PersonaFile, unfit: list[str]) -> list[str]:
        """A ``§`` store has no place for a heading, nor for an entry holding a ``§`` line: they go to a side file,
        said so (an import reads its ``- `` lines back as entries)."""
        if not self.stores or not (file.prose or unfit):
            return []
        side = self.layout.side_path(file.name, PROSE)
        text = "".join(f"{line}\n" for line in (*file.prose, *unfit))
        count = sum(1 for line in file.prose if line)  # the blank line kept before the entries is not one
        there = self.existing(side) if self.merge else None
        if there is not None and (there.startswith(text) or f"\n{text}" in there):
            # a merge of the same lines again (the same home merged twice) adds none: the file is said unchanged
            self.put(side, there, f"{file.path} (prose)")
            return [f"{file.name}: its lines that are no entries (headings, prose: {count}) are in {side[1]} already"]
        self._add_to(side, text, f"{file.path} (prose)")
        return [f"{file.name}: its lines that are no entries (headings, prose: {count}) go to {side[1]}"]

    def _fit(self, file: PersonaFile, spot: Spot, there: str | None, old: list[str], new: list[str]) -> int:
        """How many of ``new`` the target loads uncut after ``old``: Hermes's character limit, else its loader."""
        if self.stores:
            limit = self._store_limit(file.name)
            return fitting(len(new), lambda n: measure(old + new[:n], limit).over == 0)
        if file.name in self.host.export.unloaded:
            return len(new)

        def fits(count: int) -> bool:
            texts = {**self.texts, spot: self._entry_text(file, there, old, new[:count])}
            loaded = self._probe(texts)[spot]
            return loaded.cut is None

        return fitting(len(new), fits)

    def _store_limit(self, name: str) -> int:
        """The store's limit: the target home's own (Hermes's ``config.yaml``) where it has one (a merge), else
        the host's."""
        opened = open_home(self.places[Place.HOME], host=self.host.id) if self.places[Place.HOME].is_dir() else None
        own = self.host.limits()
        limits = opened.files.limits if isinstance(opened, Opening) else own
        return int(limits.get(name, own[name]))

    # the plan ----------------------------------------------------------------------------------------------------

    def plan(self, secrets: tuple[SecretHit, ...], allow_secrets: bool) -> Plan:
        loaded = self._probe(self.texts)
        files: list[PlannedFile] = []
        cuts = []
        for spot in sorted(self.texts, key=self._order):
            load = Loaded(True) if spot == self.imported else loaded.get(spot, Loaded(False))
            note = load.cut or load.unasked or ("" if load.loads else self._unloaded(spot))
            before = self.befores.get(spot)
            files.append(PlannedFile(spot[0], spot[1], self.texts[spot], self.sources[spot], load.loads, note, before))
            if load.cut is not None:
                cuts.append(Cut(spot[0], spot[1], load.cut))
        return Plan(
            self.persona,
            self.host,
            self.version,
            self.places,
            self.merge,
            tuple(files),
            tuple(self.placements),
            tuple(cuts),
            secrets,
            allow_secrets,
            tuple(self.notes),
        )

    def _probe(self, texts: dict[Spot, str]) -> dict[Spot, Loaded]:
        """What the target loads of ``texts``; a plan refused for secrets never lays them out in a scratch folder
        (a kill there would leave a copy of each secret): its files are not asked of the loader, said so."""
        if self.blind:
            why = f"not asked of {self.host.title}'s loader: the plan is refused for secrets"
            return {spot: Loaded(False, None, why) for spot in texts}
        return probe(self.host, self.version, texts)

    def _order(self, spot: Spot) -> tuple[int, int, str]:
        place, path = spot
        order = [s for s in self.layout.files.values()]
        return (0 if place is Place.HOME else 1, order.index(spot) if spot in order else len(order), path)

    def _unloaded(self, spot: Spot) -> str:
        place, path = spot
        for there, prefix, words in self.host.export.unloaded_words:
            if place is there and path.startswith(prefix):
                return words
        return f"{self.host.title} does not load it: kept, never dropped"
