"""What a proven release of Claude Code loads at the start of a session, file by file, as its own binary sends it.

Claude Code puts its instruction files and its auto memory in one
``<system-reminder>`` block of the first user message: the user's
``~/.claude/CLAUDE.md`` and ``~/.claude/rules/**.md``, then for every folder
from the top down to the working directory its ``CLAUDE.md``,
``.claude/CLAUDE.md``, ``.claude/rules/**.md`` and ``CLAUDE.local.md`` (each
followed by its ``@path`` imports), AGENTS.md where none of those loads, and
``~/.claude/projects/<slug>/memory/MEMORY.md`` cut to 200 lines and 25,000
UTF-16 units with its WARNING. Each part (:class:`.injected.InjectedPart`) holds the exact text
of its entry; :attr:`ClaudeLoad.reminder` the whole block. The rules are data:
``claude-code-releases.toml`` lists each proven release and the rules file it
loads by (``claude-code-2.1.332.toml``; ``claude-code-2.1.337.toml``, which
quotes the auto memory), each rule citing the golden that proves it. Reading
never writes. Never raises.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files as package_files
from pathlib import Path
from typing import Any

from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.hosts import versions
from notebook_app.core.hosts.claude_code import text as js
from notebook_app.core.hosts.claude_code.imports import import_paths
from notebook_app.core.hosts.injected import InjectedPart, PartStatus, Unit

NOT_MODELLED = (
    "Claude Code's managed policy files (/etc/claude-code), its settings (claudeMdExcludes, "
    "autoMemoryDirectory, additional directories), git worktrees and slugs over 200 characters are not read here"
)


@cache
def _releases() -> tuple[dict[str, str], ...]:
    text = (package_files(__package__) / "claude-code-releases.toml").read_text(encoding="utf-8")
    return tuple(tomllib.loads(text)["release"])


@cache
def _rules_file(name: str) -> dict[str, Any]:
    """``claude-code-<name>.toml``, over the file its ``base`` names (its tables merged key by key)."""
    data = tomllib.loads((package_files(__package__) / f"claude-code-{name}.toml").read_text(encoding="utf-8"))
    base = data.pop("base", None)
    if base is None:
        return data
    under = _rules_file(str(base))
    merged = {**under, **data}
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(under.get(key), dict):
            merged[key] = {**under[key], **value}
    return merged


@cache
def rules(version: str | None = None) -> dict[str, Any]:
    """The rules proven release ``version`` (None: the newest) loads by, as tomllib reads them (values typed
    Any); ``version`` is that release's own, ``rules_of`` the release whose rules file it shares."""
    table = _releases()
    found = [r for r in table if version is None or r["version"] == version]
    if not found:
        raise ValueError(f"Claude Code {version} is no proven release: {', '.join(proven_versions())}")
    chosen = found[-1]
    return {**_rules_file(chosen["rules"]), "version": chosen["version"], "rules_of": chosen["rules"]}


def proven_versions() -> tuple[str, ...]:
    return tuple(r["version"] for r in _releases())


def proven_releases() -> tuple[dict[str, object], ...]:
    """The Claude Code releases a golden proves, oldest first; each its own release only (no range)."""
    return tuple({"version": r["version"]} for r in _releases())


def claude_code_version(version: str | None) -> tuple[str | None, str]:
    """The proven release ``version`` names (None: the newest; ``2.1``: its newest release; a newer one: the
    newest, said so) and the sentence saying which, or (None, the error to print)."""
    return versions.proven_version("claude-code", "Claude Code", proven_releases(), version)


def _part(
    name: str,
    path: str,
    kind: str,
    status: str,
    injected: str | None,
    raw_len: int | None = None,
    note: str = "",
    **rest,
) -> InjectedPart:
    """A file's part: ``kind`` is Project | Local | User | AutoMem, lengths in UTF-16 units (the cut, of
    MEMORY.md's trimmed text), the text that of its entry after ``Contents of PATH (KIND):``."""
    return InjectedPart(name, path, PartStatus(status), injected, raw_len, note, unit=Unit.UTF16, kind=kind, **rest)


@dataclass(frozen=True)
class ClaudeLoad:
    version: str
    root: str
    cwd: str
    memory_dir: str
    parts: tuple[InjectedPart, ...]
    notes: tuple[str, ...] = ()
    reminder: str | None = None
    host = "claude-code"
    unit = Unit.UTF16

    @property
    def caps(self) -> dict[str, int | None]:
        return {"cap": None}

    @property
    def loaded(self) -> tuple[InjectedPart, ...]:
        return tuple(p for p in self.parts if p.injected is not None)

    @property
    def injected_total(self) -> int:
        """UTF-16 units of the whole block (0 when nothing loads)."""
        return len(js.units(self.reminder)) if self.reminder else 0


@dataclass
class _Walk:
    cwd: Path
    home: Path
    rules: dict[str, Any]
    parts: list[InjectedPart] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)


def slug(path: str) -> str:
    """Claude Code's folder name for a project (cc-slug-odd): each UTF-16 unit not an ASCII letter or digit is '-'."""
    return re.sub(r"[^A-Za-z0-9]", "-", js.units(path))


def git_root(start: Path) -> Path | None:
    return next((p for p in (start, *start.parents) if (p / ".git").exists()), None)


def _read(path: Path, version: str | None = None) -> tuple[str | None, str]:
    """The file's text, or None and why it does not load."""
    return text_of(read(path, version), path.name, version)


def read(path: Path, version: str | None = None) -> FileRead:
    """The one read of a file Claude Code reads (up to one byte past its limit: what :func:`text_of` takes)."""
    return read_file(path, limit=int(rules(version)["max_file_bytes"]) + 1)


def text_of(read: FileRead, name: str, version: str | None = None) -> tuple[str | None, str]:
    """The text of a file read as ``read``, or None and why it does not load."""
    limit = int(rules(version)["max_file_bytes"])
    if read.status in (FileStatus.ABSENT, FileStatus.DANGLING_LINK):
        return None, ""
    if not read.status.loads:
        return None, f"{name} is a {read.status.value}: Claude Code skips it"
    if read.size > limit:
        return None, f"{name} is {read.size:,} bytes, over Claude Code's {limit:,}-byte limit: it is not loaded"
    return js.decode(read.data), ""


def _name(path: Path, walk: _Walk) -> str:
    for base, label in ((walk.home, "~"), (walk.cwd, "")):
        try:
            rel = path.relative_to(base)
        except ValueError:
            continue
        return f"{label}/{rel}" if label else str(rel)
    return os.path.relpath(path, walk.cwd)


def _file(walk: _Walk, path: Path, kind: str, depth: int = 0, parent: str | None = None, rule: bool = False) -> None:
    """One instruction file and, right after it, its imports (depth first, to the import depth)."""
    key = os.path.normpath(path)
    if key in walk.seen or depth >= int(walk.rules["import_depth"]):
        return
    if depth > 0 and kind != "User" and not _inside(path, walk.cwd):
        return  # cc-import-outside-cwd
    walk.seen.add(key)
    raw, why = _read(path, walk.rules["version"])

    def add(status: str, entry: str | None, note: str = "") -> None:
        size = len(js.units(raw)) if raw is not None else None
        walk.parts.append(_part(_name(path, walk), str(path), kind, status, entry, size, note, imported_by=parent))

    if raw is None:
        if why:
            add("skipped", None, why)
        return
    body, front = js.strip_front_matter(raw)
    if rule and "paths" in front:  # a rule is never imported: parent is None
        add("skipped", None, "a rule for some paths only (paths: front matter): loaded when one is read")
        return
    entry = js.js_trim(js.strip_comments(body))
    if not entry:
        add("skipped", None, "it holds no text: not loaded")
        return
    add("injected", entry)
    for target in import_paths(body, path.parent, walk.home):
        _file(walk, target, kind, depth + 1, str(path))


def _inside(path: Path, folder: Path) -> bool:
    return os.path.normpath(path) == os.path.normpath(folder) or os.path.normpath(path).startswith(
        os.path.normpath(folder) + os.sep
    )


def _rules(walk: _Walk, folder: Path, kind: str) -> None:
    """Every .md under ``folder``, in directory order, depth first (cc-user, cc-project-rules)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        path = folder / name
        if path.is_dir():
            _rules(walk, path, kind)
        elif name.endswith(".md") and path.is_file():
            _file(walk, path, kind, rule=True)


def _walk_dirs(cwd: Path) -> list[Path]:
    """The working directory and each folder above it, the top first, the filesystem root left out."""
    return list(reversed([p for p in (cwd, *cwd.parents) if p != Path(p.anchor)]))


def _agents(walk: _Walk, dirs: list[Path]) -> None:
    """AGENTS.md where no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md of the walk loads (cc-agents-*)."""
    claude = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
    loaded = [p for p in walk.parts if p.injected is not None and p.kind in ("Project", "Local")]
    if any(p.imported_by is None and any(p.path.endswith("/" + n) for n in claude) for p in loaded):
        return
    texts = {p.injected for p in loaded}
    for folder in dirs:
        for name in walk.rules["agents_names"]:
            path = folder / name
            raw, _ = _read(path, walk.rules["version"])
            entry = js.js_trim(raw or "")
            if entry and os.path.normpath(path) not in walk.seen and entry not in texts:
                walk.seen.add(os.path.normpath(path))
                walk.parts.append(
                    _part(_name(path, walk), str(path), "Project", "injected", entry, len(js.units(raw or "")))
                )


def _memory(memory_dir: Path, walk: _Walk) -> None:
    path, version = memory_dir / "MEMORY.md", walk.rules["version"]
    part = memory_part(read(path, version), str(path), version)
    if part is not None:
        walk.parts.append(part)


def memory_part(found: FileRead, path: str, version: str | None = None, *, quote: bool = True) -> InjectedPart | None:
    """The auto memory's entry for a MEMORY.md read as ``found`` at ``path`` by release ``version`` (None: the
    newest); None when it adds none. ``quote``: as it is sent (2.1.337 quotes it); else the file's own lines, as
    the panes show them."""
    r = rules(version)
    raw, why = text_of(found, "MEMORY.md", version)
    if raw is None:
        return _part("MEMORY.md", path, "AutoMem", "skipped", None, note=why) if why else None
    body, _ = js.strip_front_matter(raw)
    content, cut, markers = memory_text(js.units(js.strip_comments(body)), version=version)
    entry = js.js_trim(js.text(js.clean_memory(content)))
    if not js.js_trim(body):
        return None
    if quote and entry:
        entry = quoted(entry, r)
    return _part(
        "MEMORY.md",
        path,
        "AutoMem",
        "cut" if cut else "injected",
        entry or None,
        len(js.units(raw)),
        cut=cut,
        markers=markers,
    )


def memory_text(
    value: str,
    line_cap: int | None = None,
    unit_cap: int | None = None,
    version: str | None = None,
) -> tuple[str, dict[str, int] | None, tuple[str, ...]]:
    """Its HMo() on a unit string: trimmed, the first 200 lines, at most 25,000 units cut at a newline, the WARNING.
    ``line_cap`` and ``unit_cap`` replace the proven 200 and 25,000 (a person's own profile)."""
    r = rules(version)
    line_cap = int(r["memory_line_cap"]) if line_cap is None else line_cap
    unit_cap = int(r["memory_unit_cap"]) if unit_cap is None else unit_cap
    whole = js.js_trim(value)
    lines, size = whole.count("\n") + 1, len(whole)
    over_lines, over_units = lines > line_cap, size > unit_cap
    if not over_lines and not over_units:
        return whole, None, ()
    kept = "\n".join(whole.split("\n")[:line_cap]) if over_lines else whole
    if len(kept) > unit_cap:
        newline = kept.rfind("\n", 0, unit_cap + 1)
        kept = kept[: newline if newline > 0 else unit_cap]
    whole_lines = kept.count("\n") + 1 if whole[len(kept) : len(kept) + 1] == "\n" else 0
    start = len(kept) + 1
    end = whole.find("\n", start)
    first_cut = js.js_trim(whole[start : end if end >= 0 else None])
    if whole_lines == 0:
        said = f"everything after the first {len(kept)} characters of line 1 was cut off"
    else:
        said = f"{lines - whole_lines} of {lines} lines were cut off, starting at line {whole_lines + 1}"
        if first_cut:
            said += f' ("{js.shorten(first_cut, 80)}")'
    if over_units and not over_lines:
        what = f"{js.size_words(size)} (limit: {js.size_words(unit_cap)}) \u2014 index entries are too long"
    elif over_lines and not over_units:
        what = f"{lines} lines (limit: {line_cap})"
    else:
        what = f"{lines} lines and {js.size_words(size)}"
    warning = str(r["memory_warning"]).format(what=what, cut=said)
    cut = {"head_end": len(kept), "tail_start": size, "dropped": size - len(kept)}
    return kept + js.units(warning), cut, (js.text(js.js_trim(warning)),)  # our words in whole characters


def quoted(entry: str, r: dict[str, Any]) -> str:
    """The auto memory's text as a release that quotes it sends it (2.1.337: its paragraph, a blank line, every
    line given one ``> ``, a run of ``> `` at its start collapsed into it); unchanged by a release that does not."""
    mark = r.get("memory_quote")
    if not mark:
        return entry
    run = re.compile(f"^(?:{re.escape(str(mark))})+")
    return f"{r['memory_preface']}\n\n" + "\n".join(f"{mark}{run.sub('', line)}" for line in entry.split("\n"))


def quoting_notes(r: dict[str, Any]) -> tuple[str, ...]:
    """What a release that quotes the auto memory says of it: the flag, and that the file's own lines are kept."""
    if not r.get("memory_quote"):
        return ()
    return (
        f"Claude Code {r['version']} sends MEMORY.md after a paragraph of its own with each line quoted "
        f"{str(r['memory_quote'])!r}, behind {r['memory_quote_flag']}; the file itself keeps its own lines",
    )


def render(parts: tuple[InjectedPart, ...] | list[InjectedPart], version: str | None = None) -> str | None:
    """The <system-reminder> block of the loaded parts, or None when none loads (empty-home)."""
    r = rules(version)
    kinds: dict[str, str] = r["kinds"]
    entries = [
        str(r["entry"]).format(path=p.path, kind=kinds.get(p.kind or "", ""), text=p.injected)
        for p in parts
        if p.injected is not None
    ]
    if not entries:
        return None
    return f"{r['open']}{r['preamble']}\n\n" + "\n\n".join(entries) + str(r["close"])


def claude_code_load(
    root: str | os.PathLike[str],
    cwd: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    version: str | None = None,
) -> ClaudeLoad:
    """What proven release ``version`` of Claude Code (None: the newest) loads for a project at ``root``, run in
    ``cwd`` (default: root), with HOME ``home``."""
    r = rules(version)
    project = Path(os.path.abspath(root))
    here = Path(os.path.abspath(cwd)) if cwd is not None else project
    user = Path(os.path.abspath(home if home is not None else os.path.expanduser("~")))
    walk = _Walk(here, user, r)
    _file(walk, user / ".claude" / "CLAUDE.md", "User")
    _rules(walk, user / ".claude" / "rules", "User")
    dirs = _walk_dirs(here)
    for folder in dirs:
        _file(walk, folder / "CLAUDE.md", "Project")
        _file(walk, folder / ".claude" / "CLAUDE.md", "Project")
        _rules(walk, folder / ".claude" / "rules", "Project")
        _file(walk, folder / "CLAUDE.local.md", "Local")
    _agents(walk, dirs)
    anchor = git_root(here) or here
    memory_dir = user / ".claude" / "projects" / slug(str(anchor)) / "memory"
    _memory(memory_dir, walk)
    parts = tuple(walk.parts)
    notes = [
        NOT_MODELLED,
        f"auto memory of {anchor} ({'its git root' if git_root(here) else 'no git root: the working directory'})",
        *(quoting_notes(r) if any(p.kind == "AutoMem" and p.injected is not None for p in parts) else ()),
    ]
    return ClaudeLoad(
        str(r["version"]),
        str(project),
        str(here),
        str(memory_dir) + os.sep,
        parts,
        tuple(notes),
        render(parts, str(r["version"])),
    )


WHOSE = {
    "User": "Claude Code's user instructions",
    "Project": "Claude Code's project instructions",
    "Local": "Claude Code's local project instructions",
}
"""What each kind of instruction file is, in words: the file list's help and a refused write say it."""


def instruction_files(load: ClaudeLoad, home: str | os.PathLike[str]) -> tuple[tuple[str, str, str], ...]:
    """The instruction files ``load`` injects, in its order (the memory left out): each as (the name a person
    knows it by, its path, what it is in words). The name is from the project root (``CLAUDE.md``,
    ``.claude/rules/x.md``), else from the user's home (``~/.claude/CLAUDE.md``), else the path itself."""
    root, user = Path(load.root), Path(os.path.abspath(home))
    found: list[tuple[str, str, str]] = []
    for part in load.parts:
        if part.kind not in WHOSE or part.injected is None:
            continue
        path = Path(part.path)
        name = _relative(path, root) or (f"~/{rest}" if (rest := _relative(path, user)) else None) or str(path)
        found.append((name, part.path, WHOSE[str(part.kind)]))
    return tuple(found)


def _relative(path: Path, base: Path) -> str | None:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return None
