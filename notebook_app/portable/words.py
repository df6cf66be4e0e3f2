"""A plan in words and as JSON: what the CLI prints and the notebook shows before anything is written.

Both name every file with its place and size, every entry that does not simply load (merged, already there,
moved to overflow, unloaded, changed to fit the dialect), the cuts the target's loader makes, and the secrets by
rule, file and line. Neither ever holds an entry's text beyond the first words of it, nor a secret's text.
"""

from __future__ import annotations

from notebook_app.core.hostbase.export import Place
from notebook_app.portable.model import Entry, Fate, Plan

SCHEMA = 1
"""The version of :func:`plan_json`'s shape."""
SHOWN = 60
"""How much of an entry a listing shows."""


_HIDDEN = "(its text not shown: the doctor finds a secret on its line, or its file was not scanned)"


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN else flat[: SHOWN - 1] + "…"


def _secret(plan: Plan, entry: Entry, scanned: set[str]) -> bool:
    """Whether the entry's text may hold a secret: a secret the doctor found lies on one of its lines, or its file
    was never scanned (its text is then never shown: hidden unless known clean)."""
    if entry.file not in scanned:
        return True
    last = entry.line + entry.text.count("\n")
    return any(h.file == entry.file and (h.line is None or entry.line <= h.line <= last) for h in plan.secrets)


def plan_text(plan: Plan) -> str:
    """The plan for a person: the places, each file, then the entries that need a word, the cuts, the secrets."""
    src = plan.source
    how = "merge into" if plan.merge else "to"
    out = [f"move the {src.host.title} home {src.root} {how} {plan.host.title} ({plan.spec})"]
    for place, folder in plan.places.items():
        what = "auto-memory folder" if place is Place.MEMORY else "home"
        out.append(f"  {what}: {folder}")
    out.append("files:")
    for file in plan.files:
        mark = "●" if file.loads else "○"
        size = len(file.text.encode("utf-8"))
        where = f"[{file.place.value}] " if len(plan.places) > 1 else ""
        state = "new" if file.before is None else "unchanged: not written" if file.unchanged else "changed"
        note = f" — {file.note}" if file.note else ""
        out.append(f"  {mark} {where}{file.path} ← {file.source} ({size:,} bytes, {state}){note}")
    scanned = {path for path, _ in plan.source.scanned()}
    counts = {fate: sum(1 for p in plan.placements if p.fate is fate) for fate in Fate}
    said = ", ".join(f"{n} {fate.value}" for fate, n in counts.items() if n)
    out.append(f"entries: {said or 'none'}")
    for placement in plan.placements:
        if placement.fate is Fate.LOADED and not placement.changed:
            continue
        entry = placement.entry
        where = f"{placement.path} #{placement.number}" if placement.number is not None else placement.path
        why = f" ({placement.changed})" if placement.changed else ""
        hidden = _secret(plan, entry, scanned)
        shown = _HIDDEN if hidden else _short(entry.text)
        out.append(f"  {placement.fate.value}: {entry.file}:{entry.line} → {where}{why}: {shown}")
    for cut in plan.cuts:
        out.append(f"cut: {cut.path}: {cut.words}")
    for note in plan.notes:
        out.append(f"note: {note}")
    for hit in plan.secrets:
        out.append(f"secret: {hit.words()}" + (" (moved: --allow-secrets)" if plan.allow_secrets else ""))
    if (refusal := plan.refusal) is not None:
        out.append(f"refused: {refusal}")
    return "\n".join(out)


def plan_json(plan: Plan) -> dict[str, object]:
    """The plan as data: ``schema``, the source, the target and its places, files, entries, cuts, notes, secrets."""
    return {
        "schema": SCHEMA,
        "source": {"host": plan.source.host.id, "home": str(plan.source.root)},
        "target": {"host": plan.host.id, "version": plan.version, "merge": plan.merge},
        "places": {place.value: str(folder) for place, folder in plan.places.items()},
        "files": [
            {
                "place": f.place.value,
                "path": f.path,
                "source": f.source,
                "bytes": len(f.text.encode("utf-8")),
                "loads": f.loads,
                "note": f.note,
                "replaces": f.before is not None,
                "unchanged": f.unchanged,
            }
            for f in plan.files
        ],
        "entries": [
            {
                "file": p.entry.file,
                "line": p.entry.line,
                "fate": p.fate.value,
                "place": p.place.value,
                "path": p.path,
                "number": p.number,
                "changed": p.changed or None,
            }
            for p in plan.placements
        ],
        "cuts": [{"place": c.place.value, "path": c.path, "words": c.words} for c in plan.cuts],
        "notes": list(plan.notes),
        "secrets": [{"rule": s.rule, "file": s.file, "line": s.line} for s in plan.secrets],
        "refused": plan.refusal,
    }
