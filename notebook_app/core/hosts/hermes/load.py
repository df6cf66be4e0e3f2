"""What Hermes Agent 0.19.0 injects from a home, part by part, as its own code builds it.

Hermes reads ``$HERMES_HOME/SOUL.md`` (its identity), one project context file
from a working directory (only when one is given), and the ``§`` entries of
``memories/MEMORY.md`` and ``memories/USER.md``. Each :class:`InjectedPart` holds
the exact text Hermes's own function returns for it (``load_soul_md()``,
``build_context_files_prompt(skip_soul=True)``, ``format_for_system_prompt``),
in prompt order. The rules are data (``hermes-0.19.0.toml``), each citing the
golden that proves it. Reading never writes: where Hermes itself would write
(its default SOUL.md), the part says so. Never raises.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.hosts import versions
from notebook_app.core.hosts.hermes.config import NOT_READ, HermesConfig, read_config
from notebook_app.core.hosts.hermes.rules import rules
from notebook_app.core.hosts.hermes.threats import SCANNED, threat_rules
from notebook_app.core.hosts.injected import InjectedPart, PartStatus, Unit

READ_LIMIT = 64 * 1024 * 1024
"""Hermes reads a file whole; past this we read no further (no case comes near it)."""

SEEDS_SOUL = "Hermes writes its default SOUL.md at the next start and loads that"
NOT_MODELLED = (
    "Hermes replaces a file its scan flags; its scan of memory entries (the characters and the threat rules "
    "it blocks) is checked here, its scan of SOUL.md and the context file is not"
)


def proven_releases() -> tuple[dict[str, object], ...]:
    """The Hermes releases a golden proves, oldest first: the one whose rules file this is, covering up to its
    ``until`` when a newer release's goldens proved equal (``make hosts``; itself alone without one)."""
    r = rules()
    return ({"version": str(r["version"]), **({"until": str(r["until"])} if "until" in r else {})},)


def hermes_version(version: str | None) -> tuple[str | None, str]:
    """The proven release ``version`` names (None: the newest; ``0.19``: its newest release) and the sentence
    saying which, or (None, the error to print)."""
    return versions.proven_version("hermes", "Hermes", proven_releases(), version)


@dataclass(frozen=True)
class HermesLoad:
    version: str
    parts: tuple[InjectedPart, ...]
    cap: int
    """The per-file cap in force for SOUL.md and the context file."""
    notes: tuple[str, ...] = ()
    host = "hermes"
    unit = Unit.CODEPOINTS

    @property
    def injected_total(self) -> int:
        return sum(part.injected_len for part in self.parts)

    @property
    def caps(self) -> dict[str, int | None]:
        return {"cap": None, "file_cap": self.cap}

    def part(self, name: str) -> InjectedPart | None:
        return next((p for p in self.parts if p.name == name), None)

    @property
    def text(self) -> str:
        """The parts as Hermes joins them into its system prompt: each stripped, ``\\n\\n`` between (0.19.0's
        ``agent/system_prompt.py``, which puts its own guidance, skills and a timestamp between them; left out)."""
        return "\n\n".join(part.injected.strip() for part in self.parts if part.injected and part.injected.strip())


class _Unread(Exception):
    """Hermes's read failed: the reason in words."""


def _read_text(path: Path) -> str | None:
    """``Path.read_text(encoding='utf-8')`` as Hermes does it: None when absent, universal newlines."""
    return _text(read_file(path, limit=READ_LIMIT), path.name)


def read(path: Path) -> FileRead:
    """The one read of a file Hermes reads whole (what :func:`soul_part` and :func:`memory_part` take)."""
    return read_file(path, limit=READ_LIMIT)


def _text(read: FileRead, name: str) -> str | None:
    """The text Hermes's ``read_text`` gives of what was read, None when absent; :class:`_Unread` says why not."""
    if read.status in (FileStatus.ABSENT, FileStatus.DANGLING_LINK):
        return None
    if not read.status.loads:
        raise _Unread(f"{name} is a {read.status.value}")
    try:
        text = read.data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Unread(f"{name} is not valid UTF-8 at byte {error.start}") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def file_cap(context_length: int | None = None) -> int:
    r = rules()
    cap = int(r["file_cap"])
    if not isinstance(context_length, int) or context_length <= 0:
        return cap
    budget = int(context_length * r["dynamic_chars_per_token"] * r["dynamic_fraction"])
    return max(cap, min(budget, int(r["dynamic_ceiling"])))


def _cut(text: str, label: str, path: Path, cap: int) -> tuple[str, dict[str, int] | None, tuple[str, ...]]:
    if len(text) <= cap:
        return text, None, ()
    r = rules()
    head, tail = int(cap * r["head_ratio"]), int(cap * r["tail_ratio"])
    marker = str(r["marker"]).format(label=label, head=head, tail=tail, total=len(text), path=path)
    cut = {"head_end": head, "tail_start": len(text) - tail, "dropped": len(text) - head - tail}
    return text[:head] + marker + text[-tail:], cut, (marker.strip(),)


def _clean(text: str) -> str:
    """Stripped, one leading BOM dropped (soul-bom)."""
    text = text.strip()
    return text[1:] if text.startswith("\ufeff") else text


def _soul(home: Path, cap: int) -> InjectedPart:
    return soul_part(read(home / "SOUL.md"), home / "SOUL.md", cap)


def soul_part(found: FileRead, path: Path, cap: int) -> InjectedPart:
    """What ``load_soul_md()`` returns for a SOUL.md read as ``found``; ``path`` is what its marker names."""
    try:
        text = _text(found, "SOUL.md")
    except _Unread as why:
        return InjectedPart("SOUL.md", "SOUL.md", PartStatus.SKIPPED, None, note=f"{why}: Hermes loads no SOUL.md")
    if text is None:
        return InjectedPart("SOUL.md", "SOUL.md", PartStatus.SEEDED, None, note=SEEDS_SOUL)
    content = _clean(text)
    if not content:
        return InjectedPart(
            "SOUL.md", "SOUL.md", PartStatus.SKIPPED, None, len(text), "SOUL.md is empty: Hermes loads no SOUL.md"
        )
    body, cut, markers = _cut(content, "SOUL.md", path, cap)
    return InjectedPart(
        "SOUL.md", "SOUL.md", PartStatus.CUT if cut else PartStatus.INJECTED, body, len(text), cut=cut, markers=markers
    )


def _git_root(start: Path) -> Path | None:
    return next((p for p in (start, *start.parents) if (p / ".git").exists()), None)


def _front_matter(text: str) -> str:
    text = text.lstrip("\ufeff")
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            body = text[end + 4 :].lstrip("\n")
            return body or text
    return text


def _context(cwd: Path, cap: int) -> InjectedPart:
    """The one project context file, as build_context_files_prompt(skip_soul=True) returns it."""
    root = _git_root(cwd)
    dirs = [cwd, *cwd.parents] if root else [cwd]
    for directory in dirs:
        found = next((directory / n for n in (".hermes.md", "HERMES.md") if (directory / n).is_file()), None)
        if found is not None:
            part = _one(found, cwd, ".hermes.md", cap, front_matter=True)
            if part is not None:
                return part
            break
        if root and directory == root:
            break
    for names, label in ((("AGENTS.md", "agents.md"), "AGENTS.md"), (("CLAUDE.md", "claude.md"), "CLAUDE.md")):
        for name in names:
            if (cwd / name).exists():
                part = _one(cwd / name, cwd, label, cap)
                if part is not None:
                    return part
    return _cursorrules(cwd, cap) or InjectedPart(
        "context", "", PartStatus.MISSING, None, note="no project context file in the working directory"
    )


def _one(path: Path, cwd: Path, label: str, cap: int, *, front_matter: bool = False) -> InjectedPart | None:
    try:
        text = _read_text(path)
    except _Unread:
        return None
    content = _clean(text or "")
    if not content:
        return None
    if front_matter:
        content = _front_matter(content)
    try:
        rel = str(path.relative_to(cwd))
    except ValueError:
        rel = path.name
    return _framed(rel, f"## {rel}\n\n{content}", label, path, cap, len(text or ""))


def _cursorrules(cwd: Path, cap: int) -> InjectedPart | None:
    sections = ""
    sources = [cwd / ".cursorrules"]
    rules_dir = cwd / ".cursor" / "rules"
    if rules_dir.is_dir():
        sources += sorted(rules_dir.glob("*.mdc"))
    for path in sources:
        try:
            content = _clean(_read_text(path) or "")
        except _Unread:
            continue
        if content:
            sections += f"## {path.relative_to(cwd)}\n\n{content}\n\n"
    if not sections:
        return None
    return _framed(".cursorrules", sections, ".cursorrules", cwd / ".cursorrules", cap, None)


def _framed(name: str, text: str, label: str, path: Path, cap: int, raw_len: int | None) -> InjectedPart:
    body, cut, markers = _cut(text, label, path, cap)
    preamble = str(rules()["context_preamble"])
    if cut:
        cut = {key: value + len(preamble) if key != "dropped" else value for key, value in cut.items()}
    return InjectedPart(
        name, name, PartStatus.CUT if cut else PartStatus.INJECTED, preamble + body, raw_len, cut=cut, markers=markers
    )


def memory_part(found: FileRead, name: str, limit: int, header: str) -> InjectedPart:
    """What ``format_for_system_prompt`` returns for ``memories/NAME`` read as ``found``."""
    rel = f"memories/{name}"
    try:
        text = _text(found, name)
    except _Unread as why:
        if "UTF-8" in str(why):
            return InjectedPart(
                name, rel, PartStatus.FAILED, None, note=f"Hermes 0.19.0 fails to load its memory: {why}"
            )
        text = None
    if not text or not text.strip():
        status = PartStatus.MISSING if text is None else PartStatus.SKIPPED
        return InjectedPart(name, rel, status, None, len(text) if text is not None else None, f"{rel}: no entries")
    kept = entries_of(text)
    shown = [blocked_entry(name, entry) or entry for entry in kept]
    content = str(rules()["entry_separator"]).join(shown)
    pct = min(100, int(len(content) / limit * 100)) if limit > 0 else 0
    rule = str(rules()["block_rule"])
    title = header.format(pct=pct, current=len(content), limit=limit)
    over = f"; over its {limit:,}-character limit, loaded whole" if len(content) > limit else ""
    return InjectedPart(
        name,
        rel,
        PartStatus.INJECTED,
        f"{rule}\n{title}\n{rule}\n{content}",
        len(text),
        note=f"{len(kept)} entries{over}{_blocked_note(kept)}",
    )


def _blocked_note(kept: list[str]) -> str:
    """How many entries Hermes's scan blocks, and what it found, for a part's note ("" for none)."""
    blocked = [entry for entry in kept if blocked_entry("", entry) is not None]
    if not blocked:
        return ""
    found = dict.fromkeys(finding for entry in blocked for finding in scan_findings(entry))
    return (
        f"; {len(blocked)} blocked by Hermes's scan ({', '.join(found)}): "
        "Hermes loads its [BLOCKED: …] placeholder instead"
    )


def blocked_characters(text: str) -> list[str]:
    """The characters of ``text`` that Hermes's memory scan blocks (``U+200D`` …), by code point; [] for none."""
    blocked = _blocked_set()
    return [f"U+{ord(c):04X}" for c in sorted(set(text) & blocked)]


@cache
def _blocked_set() -> frozenset[str]:
    return frozenset(chr(int(str(point)[2:], 16)) for point in rules()["blocked_characters"])


def scan_findings(text: str) -> list[str]:
    """What Hermes's memory scan finds in ``text``, as it names them: each blocked character
    (``invisible_unicode_U+200D``), then each threat rule it meets (``ssh_backdoor`` …); [] for none."""
    scanned = text[:SCANNED]
    chars = [str(rules()["blocked_finding"]).format(codepoint=point) for point in blocked_characters(scanned)]
    return chars + threat_rules(scanned)


def blocked_entry(name: str, entry: str) -> str | None:
    """What Hermes's ``load_from_disk`` puts in the system prompt instead of ``entry`` of ``name`` when its scan
    blocks it (a blocked character or a threat rule); None when the entry loads as it is. An entry that already
    starts with ``[BLOCKED:`` is never scanned (``_sanitize_entries_for_snapshot``)."""
    if entry.startswith("[BLOCKED:"):
        return None
    found = scan_findings(entry)
    if not found:
        return None
    return str(rules()["blocked_placeholder"]).format(file=name, findings=", ".join(found))


def blocked_write(text: str) -> str | None:
    """Hermes's own refusal of an add or replace whose text its scan blocks (the first finding); None otherwise."""
    scanned = text[:SCANNED]
    if chars := blocked_characters(scanned):
        return str(rules()["blocked_write"]).format(codepoint=chars[0])
    if found := threat_rules(scanned):
        return str(rules()["blocked_rule_write"]).format(rule=found[0])
    return None


def entries_of(text: str) -> list[str]:
    """The entries MemoryStore keeps of a memory file's text: split on a line holding only §, stripped, empty
    ones and repeats dropped (their join is what its header counts)."""
    entries = [e.strip() for e in text.split(str(rules()["entry_separator"]))]
    return list(dict.fromkeys(e for e in entries if e))


def hermes_load(
    home: str | os.PathLike[str], cwd: str | os.PathLike[str] | None = None, context_length: int | None = None
) -> HermesLoad:
    """What Hermes 0.19.0 injects with ``$HERMES_HOME`` at ``home``; the context file only with ``cwd``. Its
    ``config.yaml`` sets the caps, limits and which memory blocks are on (:mod:`.config`)."""
    r = rules()
    root = Path(home)
    config = read_config(root, int(r["memory_limit"]), int(r["user_limit"]))
    cap = config.context_file_max_chars or file_cap(context_length)
    parts = [_soul(root, cap)]
    notes = [NOT_MODELLED, config.said, NOT_READ]
    if config.context_file_max_chars:
        notes.append(f"config.yaml's context_file_max_chars {cap:,} is the cap of SOUL.md and the context file")
    if cwd is None:
        notes.append("no working directory given: no project context file")
    else:
        parts.append(_context(Path(cwd).resolve(), cap))
    parts += memory_parts({n: read(root / "memories" / n) for n in ("MEMORY.md", "USER.md")}, config)
    return HermesLoad(str(r["version"]), tuple(parts), cap, tuple(notes))


def memory_parts(found: dict[str, FileRead], config: HermesConfig) -> list[InjectedPart]:
    """MEMORY.md and USER.md as the blocks switched on load them; one that is off is said so, and nothing is read
    when both are (AIAgent makes no MemoryStore then: hermes-config-both-off)."""
    r = rules()
    wanted = {"MEMORY.md": config.memory_enabled, "USER.md": config.user_profile_enabled}
    off = {
        name: f"switched off in config.yaml ({key}: false)"
        for name, key in (("MEMORY.md", "memory.memory_enabled"), ("USER.md", "memory.user_profile_enabled"))
    }
    if not any(wanted.values()):
        return [InjectedPart(n, f"memories/{n}", PartStatus.SKIPPED, None, note=off[n]) for n in wanted]
    mem = memory_part(found["MEMORY.md"], "MEMORY.md", config.memory_char_limit, str(r["memory_header"]))
    if mem.status == PartStatus.FAILED:  # the store's load fails before either block is built
        return [mem, InjectedPart("USER.md", "memories/USER.md", PartStatus.FAILED, None, note=mem.note)]
    user = memory_part(found["USER.md"], "USER.md", config.user_char_limit, str(r["user_header"]))
    return [
        part
        if wanted[part.name]
        else InjectedPart(part.name, part.path, PartStatus.SKIPPED, None, part.raw_len, off[part.name])
        for part in (mem, user)
    ]
