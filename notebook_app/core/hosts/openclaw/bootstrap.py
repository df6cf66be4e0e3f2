"""What OpenClaw injects from a workspace, entry by entry, as its own resolveBootstrapContextForRun builds it.

OpenClaw reads its bootstrap files (AGENTS.md, SOUL.md, ... in its order),
filters them for the session kind, then builds one context entry per file
(``{path, content}``) for the system prompt: the text after ``trimEnd()``,
cut past its cap with a head, a marker and a tail (AGENTS.md keeps a "policy
digest" of its rule lines too), all of them within a total cap. Sizes are
JavaScript string lengths (UTF-16 units); the cut works on UTF-16 units, so
this module does too (:func:`_units`). The rules per release are data
(``openclaw-releases.toml``, chosen by version in :mod:`.openclaw_releases`),
each citing the golden that proves it. Reading never writes. Never raises.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from notebook_app.core.home.files import FileRead, FileStatus, read_file
from notebook_app.core.hosts.injected import InjectedPart, PartStatus, Unit
from notebook_app.core.hosts.openclaw.digest import agents_cut
from notebook_app.core.hosts.utf16 import cut_slice, text_of, trim_end, truncate_safe, units

READ_LIMIT = 64 * 1024 * 1024
"""Releases without a byte limit read a file whole; past this we read no further (no case comes near it)."""


def _part(name: str, path: str, status: str, raw_len: int | None, injected: str, **rest) -> InjectedPart:
    """An entry: ``path`` as OpenClaw writes it (the name, or the absolute path, by release), ``raw_len`` in UTF-16
    units of the file's text after trimEnd() (None: not read), ``injected`` exactly what it puts in the prompt."""
    return InjectedPart(name, path, PartStatus(status), injected, raw_len, unit=Unit.UTF16, **rest)


@dataclass(frozen=True)
class OpenClawLoad:
    version: str
    kind: str
    parts: tuple[InjectedPart, ...]
    file_cap: int
    total_cap: int | None
    skipped: tuple[tuple[str, str], ...] = ()
    """(file, why) for files OpenClaw leaves out without an entry."""
    notes: tuple[str, ...] = ()

    host = "openclaw"
    unit = Unit.UTF16

    @property
    def injected_total(self) -> int:
        return sum(part.injected_len for part in self.parts)

    @property
    def caps(self) -> dict[str, int | None]:
        return {"cap": self.total_cap, "file_cap": self.file_cap}


# --- the cut -----------------------------------------------------------------------------------------
def _marker(name: str, head: int, tail: int, total: int) -> str:
    return (
        f"\n[...truncated, read {name} for full content...]\n"
        f"…(truncated {name}: kept {head}+{tail} chars of {total})…\n"
    )


def _plain(trimmed: str, name: str, cap: int, rel: dict) -> str:
    """2026.1.29: head and tail by ratio of the cap, raw slices, the marker outside the cap."""
    head, tail = int(cap * rel["head_ratio"]), int(cap * rel["tail_ratio"])
    return "\n".join([trimmed[:head], _marker(name, head, tail, len(trimmed)), trimmed[-tail:] if tail else trimmed])


def _budgeted(trimmed: str, name: str, cap: int, rel: dict) -> str:
    """2026.9.6: the marker inside the cap, head/tail ratios of what is left, settled in three passes."""
    total = len(trimmed)

    def full(h: int, t: int) -> str:
        return units(_marker(name, h, t, total))

    def compact(h: int, t: int) -> str:
        return units(f"[…truncated {h}+{t}/{total}]")

    template = full if cap - len(full(0, 0)) - 2 >= 16 else compact

    def seps(h: int, t: int, m: str) -> int:
        return (h > 0) + (t > 0) if "\n" in m else 0

    h = t = 0
    m = template(h, t)
    for _ in range(3):
        budget = max(0, cap - len(m) - seps(h, t, m))
        nh, nt = int(budget * rel["head_ratio"]), int(budget * rel["tail_ratio"])
        nm = template(nh, nt)
        if nh == h and nt == t and len(nm) == len(m):
            break
        h, t, m = nh, nt, nm
    length = h + t + len(m) + seps(h, t, m)
    while length > cap and (t > 0 or h > 0):
        over = length - cap
        if t > 0:
            t = max(0, t - over)
        else:
            h = max(0, h - over)
        m = template(h, t)
        length = h + t + len(m) + seps(h, t, m)
    if h == 0 and t == 0 and total > 0:
        single = template(1, 0)
        if 1 + len(single) + seps(1, 0, single) <= cap:
            h, m = 1, single
    safe = bool(rel.get("safe_slices"))
    parts = [p for p in (cut_slice(trimmed, 0, h, safe), m, cut_slice(trimmed, -t, None, safe) if t > 0 else "") if p]
    out = ("\n" if "\n" in m else "").join(parts)
    return truncate_safe(out, cap)


def _clamp(content: str, budget: int) -> str:
    if budget <= 0:
        return ""
    if len(content) <= budget:
        return content
    if budget <= 3:
        return truncate_safe(content, budget)
    return truncate_safe(content, budget - 1) + "…"


# --- reading and building ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _File:
    name: str
    path: Path
    content: str | None
    """The text read (UTF-16 units); None: missing."""
    unreadable: bool = False
    size: int = 0
    """Bytes on disk (0 when not read)."""
    decode_error: str | None = None
    """Where the bytes stop being UTF-8 (they are read with U+FFFD, as OpenClaw's readFile does)."""


def _read(root: Path, name: str, rel: dict) -> _File | None:
    """One file as the release's loadWorkspaceBootstrapFiles returns it; None: not listed at all."""
    path = root / name
    listed = name in os.listdir(root) if root.is_dir() else False
    if name in rel.get("skip_absent", []) and not listed and not path.exists():
        return None
    read = read_file(path, limit=int(rel.get("max_bytes", READ_LIMIT)) + 1)
    if rel.get("links", "follow") == "inside" and read.status is FileStatus.LINK and not _inside(path, root):
        return _File(name, path, None)
    return file_from(path, read, rel)


def file_from(path: Path, read: FileRead, rel: dict) -> _File:
    """The file OpenClaw makes of what was read at ``path``; nothing read from disk (:func:`_read` reads)."""
    name = read.name
    links = rel.get("links", "follow")
    if links == "refuse" and read.status in (FileStatus.LINK, FileStatus.DANGLING_LINK, FileStatus.LINK_LOOP):
        return _File(name, path, units("[UNREADABLE: symlink path component not allowed]"), unreadable=True)
    if read.status in (FileStatus.ABSENT, FileStatus.DANGLING_LINK, FileStatus.LINK_LOOP):
        return _File(name, path, None)
    if not read.status.loads:
        if rel.get("unreadable") == "unreadable":
            return _File(name, path, units("[UNREADABLE: path does not have the required file type]"), unreadable=True)
        return _File(name, path, None)
    limit = rel.get("max_bytes")
    if limit is not None and read.size > int(limit):
        if rel.get("over_bytes") == "missing":
            return _File(name, path, None)
        return _File(name, path, units(f"[UNREADABLE: File exceeds {int(limit)} bytes]"), unreadable=True)
    text, error = _decoded(read.data)
    return _File(name, path, units(text), size=max(read.size, len(read.data)), decode_error=error)


def _decoded(data: bytes) -> tuple[str, str | None]:
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as error:
        where = f"not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})"
        return data.decode("utf-8", "replace"), where


def _inside(path: Path, root: Path) -> bool:
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root))
    except OSError:
        return False


def setup_completed(root: Path) -> bool:
    """The workspace's own record that its first-run setup is done: .openclaw/workspace-state.json setupCompletedAt."""
    read = read_file(root / ".openclaw" / "workspace-state.json", limit=1024 * 1024)
    if not read.status.loads:
        return False
    try:
        state = json.loads(read.data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    done = state.get("setupCompletedAt") if isinstance(state, dict) else None
    return isinstance(done, str) and bool(done.strip())


def session_files(names: list[str], kind: str, rel: dict) -> list[str]:
    """The files of ``names`` release ``rel`` keeps in a ``kind`` session, in their order."""
    if kind in rel.get("drop_memory", []):
        names = [name for name in names if name != "MEMORY.md"]
    if kind in ("subagent", "cron") and kind in rel:
        return [name for name in names if name in rel[kind]]
    return names


def _for_session(files: list[_File], kind: str, rel: dict) -> list[_File]:
    kept = set(session_files([f.name for f in files], kind, rel))
    return [f for f in files if f.name in kept]


def _entry(file: _File, content: str, raw: str | None, rel: dict, cap: int | None) -> InjectedPart:
    shown = file.name if rel["entry_path"] == "name" else str(file.path)
    text = text_of(content)
    if file.content is None:
        return _part(file.name, shown, "missing", None, text, markers=(text,))
    if file.unreadable:
        return _part(file.name, shown, "unreadable", None, text, markers=(text,))
    raw_len = len(raw or "")
    if len(content) >= raw_len and content == raw:
        return _part(file.name, shown, "injected", raw_len, text)
    markers = tuple(
        m.group()
        for m in re.finditer(
            r"\[\.\.\.truncated, read [^\]]*\]|\[Policy digest from [^\]]*\]"
            r"|\[\.\.\.\d+ more policy lines omitted\.\.\.\]"
            r"|…\(truncated [^)]*\)…|\[…truncated [^\]]*\]",
            text,
        )
    )
    kept = re.search(r"kept (\d+)\+(?:policy \d+\+)?(\d+) chars|\[…truncated (\d+)\+(\d+)/", text)
    cut = None
    if kept:  # the head and tail the marker names, in UTF-16 units of the trimmed text
        h, t = (int(x) for x in (kept.group(1, 2) if kept.group(1) else kept.group(3, 4)))
        cut = {"head_end": h, "tail_start": raw_len - t, "dropped": raw_len - h - t}
    return _part(file.name, shown, "cut", raw_len, text, cut=cut, markers=markers)


@dataclass(frozen=True)
class Workspace:
    """What OpenClaw read of a workspace before it builds its entries: the files in its order, the ones it leaves
    out at once, and whether the workspace says its setup is completed. From disk (:func:`read_workspace`) or
    from bytes already read (:func:`workspace_of`); :func:`build_entries` reads nothing."""

    root: Path
    files: tuple[_File, ...]
    skipped: tuple[tuple[str, str], ...] = ()
    setup_done: bool = False

    def with_file(self, name: str, data: bytes, rel: dict) -> Workspace:
        """This workspace as if file ``name`` held ``data`` (a regular file): the dry run of a write."""
        if name not in _names(rel):
            return self
        by_name = {f.name: f for f in self.files}
        by_name[name] = file_from(self.root / name, FileRead(name, FileStatus.REGULAR, len(data), data), rel)
        files = tuple(by_name[n] for n in _names(rel) if n in by_name)
        return replace(self, files=files, skipped=tuple(s for s in self.skipped if s[0] != name))


def _names(rel: dict) -> list[str]:
    return list(rel["files"]) + ([rel["memory_alt"]] if "memory_alt" in rel else [])


def link_dropped(name: str) -> tuple[str, str]:
    return name, f"{name} is a link: OpenClaw leaves it out"


def read_workspace(root: Path, rel: dict) -> Workspace:
    """The release's files in ``root`` as its loadWorkspaceBootstrapFiles lists them (reads through :func:`_read`)."""
    files: list[_File] = []
    skipped: list[tuple[str, str]] = []
    for name in _names(rel):
        if name == rel.get("memory_alt") and not (root / name).exists():
            continue
        file = _read(root, name, rel)
        if file is None:
            continue
        if file.unreadable and name in rel.get("links_dropped", []) and (root / name).is_symlink():
            skipped.append(link_dropped(name))
            continue
        files.append(file)
    done = rel.get("bootstrap_done") == "workspace-state" and setup_completed(root)
    return Workspace(root, tuple(files), tuple(skipped), done)


_LINKS = (FileStatus.LINK, FileStatus.DANGLING_LINK, FileStatus.LINK_LOOP)


def workspace_of(root: Path, rel: dict, reads: Mapping[str, FileRead], *, setup_done: bool = False) -> Workspace:
    """The workspace ``root`` from reads already made (a frozen snapshot's bytes), as :func:`read_workspace`
    would list it: a name without a read is absent. Reads nothing."""
    files: list[_File] = []
    skipped: list[tuple[str, str]] = []
    for name in _names(rel):
        read = reads.get(name) or FileRead(name, FileStatus.ABSENT)
        if read.status is FileStatus.ABSENT and (name == rel.get("memory_alt") or name in rel.get("skip_absent", [])):
            continue
        file = file_from(root / name, read, rel)
        if file.unreadable and name in rel.get("links_dropped", []) and read.status in _LINKS:
            skipped.append(link_dropped(name))
            continue
        files.append(file)
    done = rel.get("bootstrap_done") == "workspace-state" and setup_done
    return Workspace(root, tuple(files), tuple(skipped), done)


def build(root: Path, rel: dict, kind: str) -> tuple[list[InjectedPart], list[tuple[str, str]]]:
    return build_entries(read_workspace(root, rel), rel, kind)


def build_entries(workspace: Workspace, rel: dict, kind: str) -> tuple[list[InjectedPart], list[tuple[str, str]]]:
    """The context entries OpenClaw builds from ``workspace`` for a ``kind`` session, and what it leaves out."""
    files = list(workspace.files)
    skipped = list(workspace.skipped)
    if workspace.setup_done:
        files = [f for f in files if f.name != "BOOTSTRAP.md"]
        skipped.append(
            ("BOOTSTRAP.md", ".openclaw/workspace-state.json says setup is completed: OpenClaw drops BOOTSTRAP.md")
        )
    kept = _for_session(files, kind, rel)
    skipped += [(f.name, f"not loaded in a {kind} session") for f in files if f not in kept]
    cap = int(rel["file_cap"])
    total = rel.get("total_cap")
    remaining = int(total) if total is not None else None
    entries: list[InjectedPart] = []
    for file in kept:
        if remaining is not None and remaining <= 0:
            break
        if file.content is None:
            text = units(f"[MISSING] Expected at: {file.path}")
            if remaining is not None:
                text = _clamp(text, remaining)
                if not text:
                    break
                remaining = max(0, remaining - len(text))
            entries.append(_entry(file, text, None, rel, cap))
            continue
        if remaining is not None and remaining < int(rel.get("min_file_budget", 0)):
            skipped.append((file.name, f"less than {rel['min_file_budget']} of the total cap is left: not loaded"))
            break
        budget = min(cap, int(rel["user_cap"])) if file.name == "USER.md" and "user_cap" in rel else cap
        limit = max(1, min(budget, remaining)) if remaining is not None else budget
        trimmed = trim_end(file.content)
        if len(trimmed) <= limit:
            content = trimmed
        elif file.name == "AGENTS.md" and rel.get("agents_digest"):
            content = agents_cut(trimmed, limit, rel)
        elif rel["trim"] == "plain":
            content = _plain(trimmed, file.name, limit, rel)
        else:
            content = _budgeted(trimmed, file.name, limit, rel)
        if remaining is not None:
            content = _clamp(content, remaining)
        if not content:
            continue
        if remaining is not None:
            remaining = max(0, remaining - len(content))
        entries.append(_entry(file, content, trimmed, rel, cap))
    return entries, skipped
