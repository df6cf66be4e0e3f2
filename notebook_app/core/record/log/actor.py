"""Who makes a write: the ``by`` object every recorded change carries (spec §7).

A human write names its actor so that the history can say who changed what;
the kinds are a closed set, shared by the splice, the history and the review
queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ActorKind(Enum):
    NOTEBOOK = "notebook"
    CLI = "cli"
    MCP = "mcp"
    LIBRARY = "library"
    OUTSIDE = "outside"
    """A write no process of ours made (an editor, ``echo >>``): seen, never made, by the core."""


@dataclass(frozen=True)
class Actor:
    """One writer; for an MCP session also which session and which client."""

    kind: ActorKind
    session: str | None = None
    client_name: str | None = None
    client_version: str | None = None
    approved_by: Actor | None = None
    """For a reviewed write: the human who approved the agent's proposal (spec §7)."""

    @property
    def is_human(self) -> bool:
        """A person at the notebook or a shell: their writes keep the file's entry dialect (spec §9)."""
        return self.kind in (ActorKind.NOTEBOOK, ActorKind.CLI)

    @classmethod
    def mcp(cls, session: str, client_name: str | None = None, client_version: str | None = None) -> Actor:
        return cls(ActorKind.MCP, session, client_name, client_version)

    def to_json(self) -> dict[str, object]:
        """The ``by`` object as the event log and ``--json`` print it."""
        value: dict[str, object] = {"kind": self.kind.value}
        if self.session is not None:
            value["session"] = self.session
        if self.kind is ActorKind.MCP:
            value["client"] = {"name": self.client_name, "version": self.client_version}
        if self.approved_by is not None:
            value["approved_by"] = self.approved_by.to_json()
        return value


NOTEBOOK = Actor(ActorKind.NOTEBOOK)
CLI = Actor(ActorKind.CLI)
LIBRARY = Actor(ActorKind.LIBRARY)
