"""A file's size against the 2 MiB cap (a Hermes store: its characters against Hermes's limit; an OpenClaw load:
its UTF-16 units against OpenClaw's cap, and OpenClaw's words for it), and what is wrong.

A file with a character limit in the home's file map (Hermes's
``memories/MEMORY.md`` and ``USER.md``) is measured as Hermes's memory tool
measures it (``core/memory/sections.py`` ``store_usage``): the 2 MiB cap is
not what Hermes counts or caps. The limit comes down from the pane; the
meter's module loads only for such a file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Static

from notebook_app.app.view_model.live_files import LiveFile
from notebook_app.app.widgets.home.file_list import human_size
from notebook_app.core.home.files import FileStatus
from notebook_app.core.home.reading import MEMORY_TARGETS
from notebook_app.core.home.soul import MAX_FILE_BYTES, BootstrapFile

if TYPE_CHECKING:
    from notebook_app.core.hosts.openclaw.pane import OpenClawPane
    from notebook_app.core.memory.sections import Usage


def size_line(name: str, live: LiveFile | None, limit: int | None = None, host: OpenClawPane | None = None) -> Content:
    """``N bytes · X% of the 2 MiB cap``; for a file with Hermes's ``limit``, ``N of L chars · X%``; on an OpenClaw
    load (``host``), ``N bytes · X% of OpenClaw's C-unit cap``, or only the bytes where it has no cap for it."""
    if live is None:
        return Content.styled(f"{name}: absent · the next session skips it", "$foreground-muted")
    if not live.loads:
        return Content.styled(f"{name}: not loaded", "$text-error bold")
    if limit is not None:
        meter = hermes_meter(live, limit)
        over = Content.styled(f" · {meter.over:,} over", "$text-error") if meter.over else ""
        return Content.assemble(
            (f"{meter.chars:,}", "bold"),
            (f" of {meter.limit:,} chars", "$foreground-muted"),
            " · ",
            share_of_limit(meter),
            over,
        )
    if host is not None:
        if host.cap is None or host.units is None:
            return Content.styled(f"{live.size:,} bytes", "bold")
        return Content.assemble(
            (f"{live.size:,} bytes", "bold"),
            " · ",
            share_of_host_cap(host),
            (f" of OpenClaw's {host.cap:,}-unit cap", "$foreground-muted"),
        )
    if live.cap is None:  # a host that cuts by its own rules, shown by its load (✂ in the list)
        return Content.styled(f"{live.size:,} bytes", "bold")
    return Content.assemble(
        (f"{live.size:,} bytes", "bold"), " · ", share_of_cap(live), (" of the 2 MiB cap", "$foreground-muted")
    )


def share_of_host_cap(host: OpenClawPane) -> Content:
    """The file's part of OpenClaw's cap, in its UTF-16 units, coloured as it nears or passes it."""
    share = (host.units or 0) / host.cap if host.cap else 0.0
    style = "$text-error" if share > 1 else "$text-warning" if share > 0.8 else "$text-success"
    return Content.styled(f"{share:.2%}" if share < 0.01 else f"{share:.0%}", style)


def hermes_meter(live: LiveFile, limit: int) -> Usage:
    """The store as Hermes's memory tool counts it: its entries joined, repeats dropped, in code points."""
    from notebook_app.core.memory.sections import store_usage  # lazy: the write path

    return store_usage(live.text, limit)


def share_of_limit(meter: Usage) -> Content:
    """Hermes's percentage of its limit, coloured as the store nears or passes it."""
    style = "$text-error" if meter.over else "$text-warning" if meter.percent > 80 else "$text-success"
    return Content.styled(f"{meter.percent}%", style)


def share_of_cap(live: LiveFile) -> Content:
    """The file's part of the 2 MiB cap, coloured as it nears or passes it."""
    style = "$text-error" if live.dropped_bytes else "$text-warning" if live.share > 0.8 else "$text-success"
    return Content.styled(f"{live.share:.2%}" if live.share < 0.01 else f"{live.share:.0%}", style)


def title_facts(
    live: LiveFile | None, limit: int | None = None, host: OpenClawPane | None = None
) -> tuple[Content, ...]:
    """A file's size facts for its title rule, longest first: the pane picks the first that fits."""
    if live is None:
        return (Content.styled("absent", "$foreground-muted"),)
    if not live.loads:
        return (Content.styled("not loaded", "$text-error bold"),)
    if limit is not None:
        meter = hermes_meter(live, limit)
        share = share_of_limit(meter)
        return (
            Content.assemble((f"{meter.chars:,} of {meter.limit:,} chars", "$foreground-muted"), " · ", share),
            Content.assemble((f"{meter.chars:,}/{meter.limit:,}", "$foreground-muted"), " · ", share),
            share,
        )
    if host is not None:
        size = Content.styled(human_size(live.size), "$foreground-muted")
        if host.cap is None or host.units is None:
            return (size,)
        share = share_of_host_cap(host)
        cap = (f" of {host.cap:,} units", "$foreground-muted")
        return (Content.assemble(size, " · ", share, cap), Content.assemble(size, " · ", share), share)
    if live.cap is None:
        return (Content.styled(human_size(live.size), "$foreground-muted"),)
    share = share_of_cap(live)
    return (
        Content.assemble(
            (human_size(live.size), "$foreground-muted"), " · ", share, (" of the cap", "$foreground-muted")
        ),
        Content.assemble((human_size(live.size), "$foreground-muted"), " · ", share),
        share,
    )


def problems(name: str, live: LiveFile | None, loaded: BootstrapFile | None) -> Content:
    """Plain-language warnings; the core's own wording where it has one."""
    if live is None:
        return Content()  # the size line says it, once
    editable = name in MEMORY_TARGETS.values()
    if not live.loads:
        consequence = " The memory tool will not edit it." if editable else ""
        return Content.assemble(
            ("⊘ not loaded ", "$text-error bold"), f"{live.read.describe()}: the next session skips it.{consequence}"
        )
    lines: list[Content] = []
    if live.status is FileStatus.LINK:
        consequence = " The memory tool will not edit it: a link could point anywhere." if editable else ""
        lines.append(
            Content.assemble(
                ("↪ link ", "$text-warning bold"), f"{live.read.describe()}; it loads as its target.{consequence}"
            )
        )
    if b"\r\n" in live.read.data:
        lines.append(
            Content.assemble(("↵ CRLF ", "$text-warning bold"), "Windows line endings (CR LF), shown without ␍.")
        )
    if live.unshown_bytes:
        lines.append(
            Content.assemble(
                ("⋯ partly shown ", "$text-warning bold"),
                f"the notebook reads the first {len(live.read.data):,} "
                f"bytes; {live.unshown_bytes:,} more are not shown.",
            )
        )
    if live.dropped_bytes:
        where = f" (cut marked after line {live.cut_line + 1:,})" if live.cut_line is not None else ""
        lines.append(
            Content.assemble(
                ("✂ truncated ", "$text-warning bold"),
                f"{live.size:,} bytes is over the {MAX_FILE_BYTES:,}-byte cap: the next session "
                f"does not see the last {live.dropped_bytes:,} bytes{where}.",
            )
        )
    if loaded is not None and loaded.decode_error:
        consequence = " The memory tool will not edit it until it is fixed." if editable else ""
        lines.append(
            Content.assemble(
                ("✖ bad bytes ", "$text-error bold"),  # not "unreadable": it loads, with � in their place
                f"{name} is {loaded.decode_error}; the next session "
                f"loads it with � in place of bad bytes.{consequence}",
            )
        )
    return Content("\n").join(lines)


def folded(notes: Content, key: str) -> Content:
    """The warnings in one row: the key that unfolds them first (the row is cut at the pane's edge), then the first."""
    count = len(notes.plain.split("\n"))
    first = notes.split("\n")[0]
    more = f"{count} warnings" if count > 1 else "in full"
    return Content.assemble((f"▸ {key} ", "$text-accent bold"), (f"{more}: ", "$foreground-muted"), first)


class FileSummary(Static):
    """Size line on top, warnings under it (folded to one row unless unfolded); markup never parsed from file data."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._rows: tuple[int, int] | None = None
        """(width, rows) the shown text needs, when every line fits unwrapped."""
        self.unfolded = False
        """Warnings in full; else in one row, with :attr:`fold_key` to unfold them."""
        self.fold_key = "w"
        self.compact = False
        """The size line is left out: the pane's title rule says it."""

    @property
    def rows(self) -> int:
        """Rows its text takes at its width (a folded summary never wraps)."""
        text = getattr(self.content, "plain", str(self.content))  # a plain str until the first show_file
        lines = len(text.split("\n")) if text else 0
        width = self.content_size.width
        if not lines or not self.unfolded or not width:
            return lines
        return self.get_content_height(self.size, self.app.size, width)

    def show_file(
        self,
        name: str,
        live: LiveFile | None,
        loaded: BootstrapFile | None,
        *,
        limit: int | None = None,
        host: OpenClawPane | None = None,
    ) -> None:
        """Show ``name``'s facts; ``limit``: Hermes's character limit of the store, its meter in place of the cap's;
        ``host``: OpenClaw's words for the file (a row of their own) and its cap in place of the 2 MiB one."""
        notes = problems(name, live, loaded)
        note = host.note if host is not None and live is not None else None
        self.set_class(bool(notes.plain), "-warned")
        self.set_class(bool(notes.plain or note) and self.unfolded, "-unfolded")  # w shows the host's words whole

        if notes.plain and not self.unfolded:
            notes = folded(notes, self.fold_key)
        facts = [] if self.compact else [size_line(name, live, limit, host)]
        if note:
            facts.append(Content.assemble(("ⓘ ", "$text-accent"), (note, "$foreground-muted")))
        content = Content("\n").join([*facts, notes]) if notes.plain else Content("\n").join(facts)
        if content.plain == getattr(self.content, "plain", None):
            return
        width = self.content_size.width
        lines = content.plain.split("\n")
        rows = (width, len(lines)) if width and all(cell_len(line) <= width for line in lines) else None
        # Same rows as before: a repaint will do; a layout would repaint the whole screen.
        self.update(content, layout=rows is None or rows != self._rows)
        self._rows = rows
