"""Take a persona anywhere: export and import between hosts, with a plan first (issue 25). UI-free.

Above the core, through its faces only: :func:`read_persona` reads a persona from any of the four hosts' homes
(toolnexus, OpenClaw, Hermes, Claude Code), :func:`make_plan` says where each file and entry lands in a target
host's home, what its loader cuts, what it merges and what moves to an overflow file it does not load (never a
silent drop), and :func:`apply_plan` writes exactly that plan, or nothing. Secrets the doctor finds refuse the
write unless allowed, named by rule, file and line, never by their text. The CLI (``export``, ``import``) is a
shell over it. The table of where each file goes is :data:`LAYOUTS` and docs/portable.md. Names load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_face

if TYPE_CHECKING:
    from .layouts import LAYOUTS, Layout
    from .model import (
        Applied,
        Cut,
        Entry,
        Fate,
        Host,
        Persona,
        PersonaFile,
        Place,
        Placement,
        Plan,
        PlannedFile,
        Problem,
        Role,
        SecretHit,
    )
    from .planning import make_plan
    from .reading import read_persona
    from .words import plan_json, plan_text
    from .writing import apply_plan

_HOME_OF: dict[str, str] = {
    "LAYOUTS": "layouts",
    "Layout": "layouts",
    "Applied": "model",
    "Cut": "model",
    "Entry": "model",
    "Fate": "model",
    "Host": "model",
    "Persona": "model",
    "PersonaFile": "model",
    "Place": "model",
    "Placement": "model",
    "Plan": "model",
    "PlannedFile": "model",
    "Problem": "model",
    "Role": "model",
    "SecretHit": "model",
    "make_plan": "planning",
    "read_persona": "reading",
    "plan_json": "words",
    "plan_text": "words",
    "apply_plan": "writing",
}
lazy_face(__name__, _HOME_OF)

__all__ = [
    "LAYOUTS",
    "Applied",
    "Cut",
    "Entry",
    "Fate",
    "Host",
    "Layout",
    "Persona",
    "PersonaFile",
    "Place",
    "Placement",
    "Plan",
    "PlannedFile",
    "Problem",
    "Role",
    "SecretHit",
    "apply_plan",
    "make_plan",
    "plan_json",
    "plan_text",
    "read_persona",
]
