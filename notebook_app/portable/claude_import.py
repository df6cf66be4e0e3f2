"""Claude Code's project instructions in a move: the CLAUDE.md a persona without AGENTS.md does not get, said so,
and the ``@`` import of SOUL.md a person may choose (``export --soul-import``), never chosen for them.

Part of the plan (:mod:`.planning`): these read and add to its builder, as its own methods would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notebook_app.core.hostbase.export import Place

if TYPE_CHECKING:
    from notebook_app.portable.planning import Spot, _Builder


def claude_instructions(builder: _Builder, soul_import: bool) -> None:
    """A Claude Code project with no CLAUDE.md (the persona has no AGENTS.md) is no project to Claude Code nor
    to the notebook, and its SOUL.md is a topic file nobody loads: said so, with the ``@`` import offered; or,
    chosen, SOUL.md written in the project and CLAUDE.md importing it (after its own text when it has one).
    Claude Code loads a project's import only from inside the project (golden cc-import-outside-cwd), so
    SOUL.md moves there rather than being imported from the memory folder."""
    spot = builder.layout.files["AGENTS.md"]
    soul = builder.persona.file("SOUL.md")
    at = builder.layout.files["SOUL.md"]
    offered = soul is not None and builder.sources.get(at) == soul.path
    planned = spot in builder.texts
    there = builder.existing(spot) if builder.merge and not planned else None
    if offered and soul_import:
        _import_soul(builder, spot, at, there)
        return
    if planned or there is not None:
        return
    title = builder.host.title
    words = f"no {spot[1]}: the persona has no AGENTS.md, so DEST gets no file and is not seen as a {title}"
    words += " project afterwards"
    if offered:
        words += (
            f"; {at[1]} is then a topic file {title} does not load: --soul-import writes it in the project"
            f" and {spot[1]} with an @ import of it, so {title} loads it"
        )
    builder.notes.append(words)


def _import_soul(builder: _Builder, spot: Spot, at: Spot, there: str | None) -> None:
    """SOUL.md moved from the memory folder into the project, and ``@SOUL.md`` in the project's CLAUDE.md."""
    home = (Place.HOME, at[1])
    if there is not None and f"@{at[1]}" in there.splitlines() and builder.existing(home) == builder.texts[at]:
        # imported there already, the same text (the same home merged again): no copy of it in the memory folder
        builder.texts.pop(at)
        builder.sources.pop(at)
        builder.befores.pop(at, None)
        said = f"{at[1]}: the project imports it already from {spot[1]}, the same text; not written again"
        builder.notes.append(said)
        return
    if there is not None or (builder.merge and builder.existing(home) not in (None, builder.texts[at])):
        builder.notes.append(f"{spot[1]}: the project has its own {spot[1] if there else at[1]}; SOUL.md not imported")
        return
    text, source = builder.texts.pop(at), builder.sources.pop(at)
    builder.befores.pop(at, None)
    builder.put(home, text, source)
    builder.imported = home
    line = f"@{at[1]}\n"
    claude = builder.texts.get(spot)
    if claude is None:
        builder.put(spot, line, f"an @ import of {at[1]}")
    else:
        builder.texts[spot] = claude + ("" if not claude or claude.endswith("\n") else "\n") + line
