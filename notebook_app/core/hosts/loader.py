"""A home's soul as a given host loads it: its files, order, caps, cuts and markers.

The section layout (``## NAME``, a blank line, the body) stays the notebook's
own, so every pane and mark reads a host's soul as it reads the contract's;
each body is what that host injects for the file. Reading goes through the
one read path under the home's shared lock, like :func:`..home.soul.compose`.
Composing is a pure function of the bytes read and the profile, so the dry
run of a pending write (:meth:`Composition.with_text`) re-composes the host's
soul with one file changed, the total cap included.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.files import FileStatus, read_file
from notebook_app.core.home.reading import reads_of
from notebook_app.core.home.refusals import decode_error
from notebook_app.core.home.soul import (
    SECTION_SEPARATOR,
    BootstrapFile,
    Composition,
    SkippedFile,
    home_path,
    section_heading,
)
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.claude_code import text as js
from notebook_app.core.hosts.claude_code.load import memory_text

if TYPE_CHECKING:  # a profile is read here, never built: at run time the profile imports this module
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.hosts.profile import FileRule, HostProfile

READ_LIMIT = 8 * 1024 * 1024
"""Bytes read of a file for a host without a read limit of its own (the doctor's limit too)."""


@dataclass(frozen=True)
class _Raw:
    name: str
    data: bytes
    size: int


def compose_for_host(home: str | os.PathLike[str], host: HostProfile, *, layout: FileMap | None = None) -> Composition:
    """Read the files ``host`` loads and compose them as it does; never raises. ``layout``: the home as opened
    (Claude Code's instruction files are read from its :attr:`FileMap.host_files`)."""
    if host.proven is not None and (proven := registered(host.proven).compose(home, host, layout)) is not None:
        return proven  # the proven loader loads when its host is asked for
    root = home_path(home)
    raws: list[_Raw] = []
    skipped: list[SkippedFile] = []
    limit = (host.max_file_bytes + 1) if host.max_file_bytes else READ_LIMIT
    with reads_of(root) as valid:
        for name in host.files:
            read = read_file(root / name, limit=limit, valid_bytes=valid.get(name))
            if not read.status.loads:
                if read.status.exists:
                    skipped.append(SkippedFile.of(read))
                continue
            if host.max_file_bytes is not None and read.size > host.max_file_bytes:
                skipped.append(
                    SkippedFile(
                        name,
                        FileStatus.REGULAR,
                        (
                            f"{name} is {read.size:,} bytes, over {host.title}'s "
                            f"{host.max_file_bytes:,}-byte read limit; {host.title} does not load it"
                        ),
                    )
                )
                continue
            raws.append(_Raw(name, read.data, read.size))
    return _compose(host, raws, skipped)


def as_host(composition: Composition, host: HostProfile, *, home: str | os.PathLike[str] | None = None) -> Composition:
    """A contract composition (a frozen snapshot) as ``host`` would have loaded the same files.

    Built from the bytes the contract loaded (up to 2 MiB a file, more than
    any host's cap), so a session's Current can be shown as any host sees it
    without reading the files again: they may have changed since. ``home`` is
    where the files were: OpenClaw writes a missing file's path into the soul, Hermes
    its SOUL.md's path and reads its config.yaml there (None: the working directory).
    """
    if host.is_contract:
        return composition
    if host.proven is not None:
        where = home if home is not None else os.getcwd()
        if (proven := registered(host.proven).as_host(composition, host, where)) is not None:
            return proven
    raws = [_Raw(f.name, bytes(f.loaded), f.size) for f in composition.files if f.name in host.files]
    return _compose(host, raws, [s for s in composition.skipped if s.name in host.files])


def recompose(composition: Composition, name: str, data: bytes, *, path: str | None = None) -> Composition:
    """``composition`` (a host's) as if file ``name`` held ``data``: the dry run of a write to ``path`` (from the
    home's top; None: ``name`` there), which only Hermes, reading its stores in ``memories/``, needs."""
    host = composition.profile
    assert host is not None
    if (
        host.proven is not None
        and (proven := registered(host.proven).recompose(composition, name, data, path=path)) is not None
    ):
        return proven
    raws = [_Raw(f.name, bytes(f.loaded), f.size) for f in composition.files if f.name != name]
    if name in host.files:
        raws.append(_Raw(name, data, len(data)))
    return _compose(host, raws, [s for s in composition.skipped if s.name != name])


def _compose(host: HostProfile, raws: list[_Raw], skipped: list[SkippedFile]) -> Composition:
    by_name = {raw.name: raw for raw in raws}
    remaining = host.total_cap
    files: list[BootstrapFile] = []
    loads: list[FileLoad] = []
    for name in host.files:
        raw = by_name.get(name)
        if raw is None:
            continue
        if remaining is not None and remaining < max(1, host.min_file_budget):
            skipped.append(
                SkippedFile(
                    name,
                    FileStatus.REGULAR,
                    (f"{host.title}'s total cap of {host.total_cap:,} is used up before {name}; it does not load"),
                )
            )
            continue
        rule = host.rule_for(name)
        body, load = load_file(rule, raw.data, raw.size, remaining)
        if remaining is not None:
            remaining = max(0, remaining - load.rendered)
        files.append(
            BootstrapFile(
                name=name,
                body=body,
                size=raw.size,
                truncated=load.truncated,
                decode_error=decode_error(raw.data),
                loaded=raw.data,
            )
        )
        loads.append(load)
    parts: list[str] = []
    for file in files:
        parts += (SECTION_SEPARATOR if parts else "", section_heading(file.name), file.body)
    order = {name: index for index, name in enumerate(host.files)}
    return Composition(
        soul="".join(parts),
        files=tuple(files),
        skipped=tuple(sorted(skipped, key=lambda s: order.get(s.name, len(order)))),
        host=host.name,
        host_loads=tuple(loads),
        profile=host,
    )


def length(text: str, unit: str) -> int:
    if unit == "bytes":
        return len(text.encode("utf-8"))
    if unit == "utf16" and not text.isascii():
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def head(text: str, count: int, unit: str) -> str:
    """The first ``count`` units of ``text``; a character split by the limit is dropped."""
    if count <= 0:
        return ""
    if unit == "chars" or text.isascii():
        return text[:count]
    codec = "utf-16-le" if unit == "utf16" else "utf-8"
    size = 2 if unit == "utf16" else 1
    return text.encode(codec)[: count * size].decode(codec, "ignore")


def tail(text: str, count: int, unit: str) -> str:
    if count <= 0:
        return ""
    if unit == "chars" or text.isascii():
        return text[-count:]
    codec = "utf-16-le" if unit == "utf16" else "utf-8"
    size = 2 if unit == "utf16" else 1
    return text.encode(codec)[-count * size :].decode(codec, "ignore")


def load_file(rule: FileRule, data: bytes, size: int, remaining: int | None) -> tuple[str, FileLoad]:
    """The body ``rule``'s host injects for a file of ``data``, and the facts of its load."""
    unit = rule.unit
    if rule.cut == "head":
        return _head_cut(rule, data, size)
    text = data.decode("utf-8", "replace")
    lead = len(text) - len(text.lstrip()) if rule.strip == "both" else 0
    content = text.strip() if rule.strip == "both" else text.rstrip() if rule.strip == "end" else text
    if rule.entries:
        entries = [entry.strip() for entry in content.split(rule.entries)]
        content = rule.entries.join(dict.fromkeys(entry for entry in entries if entry))
    total = length(content, unit)
    cap = rule.file_cap
    if remaining is not None:
        cap = remaining if cap is None else min(cap, remaining)
    values = {"name": rule.name, "total": total, "current": total, "budget": rule.budget or 0}
    if cap is None or total <= cap:
        body = content
        load = FileLoad(rule.name, unit, total, total, cap, budget=rule.budget)
    else:
        head_count, tail_count, body = _head_tail(rule, content, cap, values)
        start = lead + len(head(content, head_count, unit))
        end = lead + len(content) - len(tail(content, tail_count, unit))
        exact = not rule.entries  # entries were rebuilt: their offsets are not the file's
        load = FileLoad(
            rule.name,
            unit,
            total,
            head_count + tail_count,
            cap,
            truncated=True,
            cut_line=text.count("\n", 0, start) + 1 if exact else None,
            cut_offset=len(text[:start].encode("utf-8")) if exact else None,
            resume_line=(text.count("\n", 0, end) + 1 if tail_count and exact else None),
            budget=rule.budget,
        )
    if rule.header:
        budget = rule.budget or 1
        over = " ⚠ OVER BUDGET" if total > budget else ""
        body = rule.header.format(**values, pct=min(100, int(total / budget * 100)), over=over) + body
    return body, _rendered(load, body)


def _rendered(load: FileLoad, body: str) -> FileLoad:
    return replace(load, rendered=length(body, load.unit))


def _head_tail(rule: FileRule, content: str, cap: int, values: dict[str, object]) -> tuple[int, int, str]:
    """Keep a head and a tail of ``content`` around the marker, within ``cap`` units."""
    unit, join = rule.unit, rule.join

    def marker(h: int, t: int) -> str:
        omitted = values["total"] - h - t  # type: ignore[operator]  # "total" is the int length the caller measured
        return rule.marker.format(**values, head=h, tail=t, omitted=omitted)

    def render(h: int, t: int) -> str:
        parts = [head(content, h, unit), marker(h, t), tail(content, t, unit)]
        return join.join(part for part in parts if part)

    if not rule.marker_in_budget:
        h, t = int(cap * rule.head_ratio), int(cap * rule.tail_ratio)
        return h, t, render(h, t)
    h = t = 0
    for _ in range(3):  # the marker names the counts, so its length depends on them: settle it
        text = marker(h, t)
        separators = len(join) * ((h > 0) + (t > 0)) if "\n" in text else 0
        budget = max(0, cap - length(text, unit) - separators)
        h, t = int(budget * rule.head_ratio), int(budget * rule.tail_ratio)
    while length(render(h, t), unit) > cap and (h or t):
        over = length(render(h, t), unit) - cap
        if t:
            t = max(0, t - over)
        else:
            h = max(0, h - over)
    return h, t, render(h, t)


def _head_cut(rule: FileRule, data: bytes, size: int) -> tuple[str, FileLoad]:
    """The first ``line_cap`` lines or ``file_cap`` bytes, whichever comes first; no marker."""
    if rule.unit == "utf16":
        return _units_head_cut(rule, data, size)
    end = len(data)
    if rule.file_cap is not None:
        end = min(end, rule.file_cap)
    if rule.line_cap is not None:
        newline = -1
        for _ in range(rule.line_cap):
            newline = data.find(b"\n", newline + 1, end)
            if newline < 0:
                break
        if newline >= 0 and newline + 1 < end:
            end = newline + 1
    raw = max(size, len(data))
    cut = end < raw
    kept = data[:end].decode("utf-8", "ignore" if cut else "replace")
    load = FileLoad(
        rule.name,
        "bytes",
        raw,
        len(kept.encode("utf-8")) if cut else raw,
        rule.file_cap,
        truncated=cut,
        cut_line=data.count(b"\n", 0, end) + 1 if cut else None,
        cut_offset=end if cut else None,
    )
    return kept, _rendered(load, kept)


def _units_head_cut(rule: FileRule, data: bytes, size: int) -> tuple[str, FileLoad]:
    """Claude Code's cut of MEMORY.md, proven by its goldens (claude-code@2.1.332, cc-memory-*): the first
    ``line_cap`` lines of the trimmed text, then at most ``file_cap`` UTF-16 units, at the last newline at or
    before them. The WARNING it adds is the proven loader's (core.hosts.claude_code.load); not shown here."""

    whole = js.units(data.decode("utf-8", "replace"))
    lead = len(whole) - len(whole.lstrip(js.JS_SPACE))
    _, cut, _ = memory_text(whole, rule.line_cap or len(whole) + 1, rule.file_cap or len(whole) + 1)
    raw = len(whole)
    if cut is None:
        return _rendered_head(rule, js.text(whole), FileLoad(rule.name, "utf16", raw, raw, rule.file_cap))
    end = lead + cut["head_end"]
    end += whole[end : end + 1] == "\n"  # a whole-line cut keeps its newline, as before
    kept = whole[:end]
    if kept and 0xD800 <= ord(kept[-1]) <= 0xDBFF:
        kept = kept[:-1]  # the half of a pair the cut splits is dropped (cc-memory-astral-split)
    body = js.text(kept)
    load = FileLoad(
        rule.name,
        "utf16",
        raw,
        len(kept),
        rule.file_cap,
        truncated=True,
        cut_line=whole.count("\n", 0, end) + 1,
        cut_offset=len(body.encode("utf-8")),
    )
    return _rendered_head(rule, body, load)


def _rendered_head(rule: FileRule, body: str, load: FileLoad) -> tuple[str, FileLoad]:
    """CRLF and a lone CR read as LF, as Claude Code sends them (cc-memory-crlf)."""
    body = body.replace("\r\n", "\n").replace("\r", "\n")
    return body, _rendered(load, body)
