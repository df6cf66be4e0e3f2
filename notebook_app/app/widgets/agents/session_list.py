"""Recorded agent sessions, newest first: who, when, and how many writes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from textual import on
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from notebook_app.core.sessions.agents import CallCounts, SessionSummary


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def count_words(counts: CallCounts) -> list[tuple[str, str]]:
    """``0 writes · 1 error · 3 proposals`` as (words, style) parts: the list and the journal say the same."""
    parts = [(plural(counts.writes, "write"), "$text-success" if counts.writes else "$foreground-muted")]
    if counts.errors:
        parts.append((plural(counts.errors, "error"), "$text-error"))
    if counts.proposals:
        parts.append((plural(counts.proposals, "proposal"), "$text-warning"))
    return parts


def session_prompt(summary: SessionSummary, clock: Callable[[datetime], str]) -> Content:
    """Two rows: the client as it announced itself; its start time and counts."""
    counts: list[str | tuple[str, str]] = []
    for words in count_words(summary.counts):
        counts += [(" · ", "$foreground-muted"), words] if counts else [words]
    presence = ("  ● connected", "$text-success") if summary.live else ("  ended", "$foreground-muted")
    return Content.assemble(
        (summary.client_label, "bold" if summary.client_name else "$foreground-muted italic"),
        presence,
        "\n",
        (f"{clock(summary.started_at)} · ", "$foreground-muted"),
        *counts,
    )


class SessionList(OptionList):
    """Picks the session the panes show; keeps that choice while the list changes."""

    @dataclass
    class Chosen(Message):
        """The person moved to another session."""

        session_id: str

    def __init__(self, clock: Callable[[datetime], str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.clock = clock
        self.summaries: tuple[SessionSummary, ...] = ()

    @property
    def chosen(self) -> str | None:
        option = self.highlighted_option
        return option.id if option is not None else None

    def show_sessions(self, summaries: Sequence[SessionSummary]) -> None:
        """Show ``summaries``; the highlighted session stays so, else the newest is."""
        summaries = tuple(summaries)
        if summaries == self.summaries:
            return
        chosen = self.chosen
        self.summaries = summaries
        self.clear_options()
        self.add_options(Option(session_prompt(s, self.clock), id=s.id) for s in summaries)
        ids = [s.id for s in summaries]
        if ids:
            self.highlighted = ids.index(chosen) if chosen in ids else 0

    @on(OptionList.OptionHighlighted)
    def _chosen(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))
