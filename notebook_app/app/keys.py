"""The keyboard contract in one place: bindings, the help screen, the palette.

Every key of every view is a :class:`Key` here, grouped by the view it acts
in (``../shared/spec/keys.md`` is the map). A screen declares its group as
``KEYS`` and gets its bindings from :func:`bindings`; help lists the groups;
the palette offers every key with a command name. Letter keys are not
priority bindings, so a focused text input types them; keys that must work
while typing (``f1``–``f4``, ``tab`` inside the form) are priority bindings.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType

TOOLNEXUS_FILES = ("AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md")
"""What ``1``–``7`` pick in a toolnexus home (the contract's order); another host's list is its own."""


BROWSER_KEPT = frozenset({"ctrl+w", "ctrl+t", "ctrl+n", "ctrl+tab", "f11", "f12"})
"""Keys a browser keeps for itself (close, new tab or window, next tab, full screen, its tools): served
(``persona-notebook serve``), the notebook never sees them, so no binding may have only these."""


@dataclass(frozen=True, kw_only=True)
class Key:
    keys: str
    """Textual key name(s), comma-separated."""
    display: str
    action: str
    label: str
    """Short footer text."""
    help: str
    """What the key does, for the help screen and the command palette."""
    id: str
    """The binding id: unique, and what a keymap file remaps."""
    show: bool = True
    """In the footer; the footer keeps to what fits 80 columns (help and the palette list every key)."""
    command: str = ""
    """Its name in the command palette; empty when it is no palette command."""
    priority: bool = False
    """Checked before the focused widget: for keys that work while typing."""


@dataclass(frozen=True)
class KeyGroup:
    title: str
    keys: tuple[Key, ...]


# fmt: off
# A table, a key to a row; formatted, every field of every key would take a line of its own.
APP_KEYS: tuple[Key, ...] = (
    Key(keys="question_mark", display="?", action="help", label="Help", id="help", command="Help",
        help="Show this help"),
    Key(keys="f1", display="f1", action="help(True)", label="Help", id="help-anywhere", show=False, priority=True,
        help="Show this help, also while typing"),
    Key(keys="q", display="q", action="quit(True)", label="Quit", id="quit", show=False,
        help="Quit the notebook (ctrl+q too)"),
)

PANE_KEYS: tuple[Key, ...] = (
    Key(keys="f2", display="f2", action="show_pane('home')", label="Home", id="focus-home", show=False, priority=True,
        help="The first pane: Home's file list, or the agent-session list (narrow: its tab); works while typing"),
    Key(keys="f3", display="f3", action="show_pane('current')", label="Current", id="focus-current", show=False,
        priority=True, help="The Current session pane (narrow: its tab); works while typing"),
    Key(keys="f4", display="f4", action="show_pane('next')", label="Next", id="focus-next-session", show=False,
        priority=True, help="The Next session pane (narrow: its tab); works while typing"),
)
"""Bound by every view of panes (:class:`~notebook_app.app.screens.panes.PaneScreen`)."""

NOTEBOOK_KEYS: tuple[Key, ...] = (
    Key(keys="a", display="a", action="add", label="Add", id="add", command="Add a memory entry",
        help="Add an entry: opens the form with action add, focus on text"),
    Key(keys="r", display="r", action="replace", label="Replace", id="replace", command="Replace text in memory",
        help="Replace text: the form with text and with, pre-filled from the selected entry"),
    Key(keys="x", display="x", action="remove", label="Remove", id="remove", command="Remove text from memory",
        help="Remove text: the form with text, pre-filled from the selected entry"),
    Key(keys="e", display="e", action="edit_entry", label="Edit", id="edit-entry", command="Edit the selected entry",
        help="Edit the selected entry line in place (guarded: refused if it changed since you selected it)"),
    Key(keys="d", display="d", action="delete_entry", label="Delete", id="delete-entry",
        command="Delete the selected entry",
        help="Delete the selected entry line, its line ending included (guarded; enter confirms)"),
    Key(keys="E", display="E", action="edit_file", label="Edit file", id="edit-file", command="Edit the selected file",
        show=False, help="Edit the whole selected file in the built-in editor (saved with the conflict guard)"),
    Key(keys="o", display="o", action="open_editor", label="$EDITOR", id="open-editor",
        command="Open the selected file in $EDITOR", show=False,
        help="Open the selected file in $VISUAL / $EDITOR (a copy; the notebook steps aside and saves it back with "
             "the guard)"),
    Key(keys="t", display="t", action="toggle_target", label="Target", id="toggle-target",
        command="Toggle target: self / user", show=False,
        help="Switch between the USER.md and MEMORY.md panes; the target follows: self (MEMORY.md) or user (USER.md)"),
    Key(keys="ctrl+t,f8", display="ctrl+t", action="toggle_target_in_form", label="Target",
        id="toggle-target-form", help="Toggle the target while typing in the form (f8 too: a browser keeps ctrl+t)"),
    Key(keys="enter", display="enter", action="submit", label="Apply", id="submit",
        help="Submit the form through the memory tool; in replace, enter in text moves to with"),
    Key(keys="escape", display="esc", action="close_form", label="Close", id="close-form",
        help="Close the form (asks first when it would discard typing)"),
    Key(keys="tab", display="tab", action="form_field(1)", label="Next", id="focus-next", show=False, priority=True,
        help="Focus the next pane; in the form, the next field (tab stays inside an open form)"),
    Key(keys="shift+tab", display="shift+tab", action="form_field(-1)", label="Previous", id="focus-previous",
        show=False, priority=True, help="Focus the previous pane; in the form, the previous field"),
    *(
        Key(keys=str(n), display=str(n), action=f"pick_file({n})", label=f"File {n}", id=f"pick-{n}", show=False,
            help=f"Show file {n} of the list, in the host's order"
                 + (f" (toolnexus: {TOOLNEXUS_FILES[n - 1]})" if n <= len(TOOLNEXUS_FILES) else ""))
        for n in range(1, 10)
    ),
    Key(keys="h", display="h", action="app.history", label="History", id="history", command="Show the history",
        show=False,
        help="History: who wrote what, when; each record's diff; undo and restore"),
    Key(keys="p", display="p", action="app.review", label="Review", id="review", command="Review the agents' proposals",
        show=False,
        help="Review: the agents' proposals waiting for you, each with its dry run against the file now; approve, "
             "reject, edit"),
    Key(keys="w", display="w", action="toggle_warnings", label="Warnings", id="toggle-warnings",
        command="Show or fold the files' warnings", show=False,
        help="A file's warnings: folded to one row each, or in full"),
    Key(keys="b", display="b", action="blame", label="Blame", id="blame", command="Toggle the blame gutter", show=False,
        help="Blame gutter on/off: who last wrote each line, and when"),
    Key(keys="exclamation_mark", display="!", action="app.doctor", label="Doctor", id="doctor",
        command="Open the home doctor", show=False,
        help="The home doctor: every finding by file, jump to its line, apply its fix"),
    Key(keys="T", display="T", action="app.tidy", label="Tidy", id="tidy", command="Tidy memory", show=False,
        help="Tidy: duplicates, rewordings, superseded facts and over-cap files as one patch; accept hunks, apply"),
    Key(keys="slash", display="/", action="find", label="Find", id="find", command="Find in the home", show=False,
        help="Find in every bootstrap file and both sessions as you type: matches highlighted and counted; enter / ↓ "
             "next, ↑ previous, esc closes"),
    Key(keys="ctrl+g", display="ctrl+g", action="go_to_line", label="Go to line", id="go-to-line", command="Go to line",
        show=False,
        help="Go to a line by number in the selected file (the pane last focused, or the match last shown)"),
    Key(keys="n", display="n", action="next_session", label="Next", id="next-session", command="Start the next session",
        help="Start the next session: the preview becomes the new current snapshot"),
    Key(keys="s", display="s", action="app.agent_sessions", label="Agents", id="agent-sessions",
        command="Show agent sessions", show=False,
        help="Agent sessions: each agent's frozen soul against Next, and its writes"),
    Key(keys="L", display="L", action="app.injects", label="Injects", id="injects",
        command="Show what the host injects next session", show=False,
        help="What the chosen host (Load as: in the palette) injects next session, file by file: raw → injected, "
             "where the cut falls, the total, tokens, what is not modelled"),
)

MOVING_KEYS: tuple[Key, ...] = (
    Key(keys="up", display="↑", action="cursor(-1)", label="Up", id="entry-up", show=False,
        help="In a file: the previous entry (or scroll)"),
    Key(keys="down", display="↓", action="cursor(1)", label="Down", id="entry-down", show=False,
        help="In a file: the next entry (or scroll)"),
    Key(keys="pageup", display="pgup", action="page(-1)", label="Page up", id="entry-page-up", show=False,
        help="In a file: a page up"),
    Key(keys="pagedown", display="pgdn", action="page(1)", label="Page down", id="entry-page-down", show=False,
        help="In a file: a page down"),
    Key(keys="home", display="home", action="edge(-1)", label="First", id="entry-first", show=False,
        help="In a file: the first entry"),
    Key(keys="end", display="end", action="edge(1)", label="Last", id="entry-last", show=False,
        help="In a file: the last entry"),
)

FIND_KEYS: tuple[Key, ...] = (
    Key(keys="enter,down", display="enter / ↓", action="step(1)", label="Next", id="find-next", priority=True,
        help="In the find bar: the next match (after the last, the first); in go to line, go"),
    Key(keys="up", display="↑", action="step(-1)", label="Previous", id="find-previous", priority=True,
        help="In the find bar: the previous match"),
    Key(keys="escape", display="esc", action="close", label="Close", id="close-find",
        help="Close the find bar (esc closes it first: before the form, or the editor)"),
)
"""Bound by the find bar while it has focus; enter and the arrows act before its input sees them."""

AGENT_KEYS: tuple[Key, ...] = (
    Key(keys="escape,s", display="esc", action="back", label="Back", id="agent-sessions-back",
        command="Back to the notebook", help="Back from agent sessions to the notebook's own session"),
)

DOCTOR_KEYS: tuple[Key, ...] = (
    Key(keys="enter", display="enter", action="jump", label="Go to line", id="doctor-jump",
        help="In the doctor: show the finding's line in the notebook"),
    Key(keys="y", display="y", action="apply_fix", label="Apply fix", id="doctor-fix",
        help="In the doctor: apply the fix shown (its dry run first; guarded)"),
    Key(keys="escape", display="esc", action="back", label="Back", id="doctor-back", command="Back to the notebook",
        help="Back from the doctor to the notebook"),
)

TIDY_KEYS: tuple[Key, ...] = (
    Key(keys="space", display="space", action="toggle", label="Accept", id="tidy-toggle",
        help="In tidy: accept or decline the selected hunk (none is accepted until you say so)"),
    Key(keys="A", display="A", action="accept_all", label="Accept all", id="tidy-accept-all",
        help="In tidy: accept every hunk shown"),
    Key(keys="enter", display="enter", action="jump", label="Go to line", id="tidy-jump",
        help="In tidy: show the hunk's first line in the notebook"),
    Key(keys="y", display="y", action="apply", label="Apply", id="tidy-apply",
        help="In tidy: show every entry the accepted hunks move or remove; y again applies them as one write"),
    Key(keys="escape", display="esc", action="back", label="Back", id="tidy-back", command="Back to the notebook",
        help="In tidy: cancel the confirmation, else back to the notebook"),
)

EXPORT_KEYS: tuple[Key, ...] = (
    Key(keys="y", display="y", action="apply", label="Write", id="export-apply",
        help="In export: say where the plan writes; y again writes exactly the plan"),
    Key(keys="m", display="m", action="merge", label="Merge", id="export-merge",
        help="In export: merge into a home that is there (no file replaced), or not; the plan is made again"),
    Key(keys="d", display="d", action="destination", label="Where", id="export-destination",
        help="In export: edit the destination (enter makes the plan)"),
    Key(keys="escape", display="esc", action="back", label="Back", id="export-back",
        help="In export: cancel the confirmation, else back to the notebook; nothing is written"),
)

HISTORY_KEYS: tuple[Key, ...] = (
    Key(keys="u", display="u", action="undo", label="Undo", id="history-undo",
        help="In the history: show what undoing the selected record does (y applies it)"),
    Key(keys="R", display="R", action="restore", label="Restore", id="history-restore",
        help="In the history: show what restoring its file to just after the record does (y applies it)"),
    Key(keys="y", display="y", action="apply", label="Apply", id="history-apply",
        help="In the history: apply the dry run shown"),
    Key(keys="f", display="f", action="cycle_file", label="File", id="history-file",
        help="In the history: cycle the file filter"),
    Key(keys="w", display="w", action="cycle_who", label="Who", id="history-who",
        help="In the history: cycle the who filter (notebook, cli, mcp, library, outside)"),
    Key(keys="escape", display="esc", action="back", label="Back", id="history-back", command="Back to the notebook",
        help="Back from the history to the notebook"),
)

REVIEW_KEYS: tuple[Key, ...] = (
    Key(keys="y", display="y", action="approve", label="Approve", id="review-approve",
        help="In the review: approve the selected proposal (applied now, against the file as it is); after Y or X, "
             "confirms"),
    Key(keys="x", display="x", action="reject", label="Reject", id="review-reject",
        help="In the review: reject the selected proposal, asking for an optional reason (enter rejects)"),
    Key(keys="e", display="e", action="edit", label="Edit", id="review-edit",
        help="In the review: edit the proposal's text, then enter approves the edit (recorded as edited)"),
    Key(keys="Y", display="Y", action="approve_all", label="All", id="review-approve-all",
        help="In the review: approve all proposals shown, oldest first (y confirms)"),
    Key(keys="X", display="X", action="reject_all", label="Reject all", id="review-reject-all", show=False,
        help="In the review: reject all proposals shown (y confirms)"),
    Key(keys="escape", display="esc", action="back", label="Back", id="review-back", command="Back to the notebook",
        help="In the review: close the reason or edit, cancel a confirmation, else back to the notebook"),
)

EDITOR_KEYS: tuple[Key, ...] = (
    Key(keys="ctrl+s", display="ctrl+s", action="save", label="Save", id="editor-save", command="Save the file",
        help="In the editor: save, guarded (merged with what others wrote since; a conflict opens both sides)"),
    Key(keys="ctrl+f", display="ctrl+f", action="find", label="Find", id="editor-find", command="Find in the file",
        help="In the editor: find in the buffer as you type (unsaved edits too), from the cursor: the match "
             "selected, the count shown; enter / ↓ next, ↑ previous, esc closes"),
    Key(keys="ctrl+g", display="ctrl+g", action="go_to_line", label="Go to line", id="editor-go-to-line",
        command="Go to a line of the file", show=False, help="In the editor: go to a line by number"),
    Key(keys="ctrl+z", display="ctrl+z", action="undo", label="Undo", id="editor-undo", show=False,
        help="In the editor: undo in the buffer (not the history's u)"),
    Key(keys="ctrl+y", display="ctrl+y", action="redo", label="Redo", id="editor-redo", show=False,
        help="In the editor: redo in the buffer"),
    Key(keys="escape", display="esc", action="close", label="Close", id="editor-close", command="Close the editor",
        help="Close the editor, after its find bar (with unsaved changes it asks: esc again discards them)"),
)

CONFLICT_KEYS: tuple[Key, ...] = (
    Key(keys="1", display="1", action="choose('mine')", label="Mine", id="conflict-mine",
        help="In the conflict view: keep your lines at the marked conflict"),
    Key(keys="2", display="2", action="choose('theirs')", label="Theirs", id="conflict-theirs",
        help="In the conflict view: keep the lines on disk (the other writer's) at the marked conflict"),
    Key(keys="3", display="3", action="choose('both')", label="Both", id="conflict-both",
        help="In the conflict view: keep both, theirs first, at the marked conflict"),
    Key(keys="up", display="↑", action="step(-1)", label="Previous", id="conflict-previous", show=False,
        help="In the conflict view: mark the previous conflict"),
    Key(keys="down", display="↓", action="step(1)", label="Next", id="conflict-next", show=False,
        help="In the conflict view: mark the next conflict"),
    Key(keys="ctrl+s", display="ctrl+s", action="save", label="Save", id="conflict-save", command="Save the resolution",
        help="In the conflict view: save the resolution, guarded again"),
    Key(keys="escape", display="esc", action="back", label="Back", id="conflict-back", command="Back to the editor",
        help="Back to the editor from the conflict view, nothing written (your edit is still in the editor)"),
)
INJECTS_KEYS: tuple[Key, ...] = (
    Key(keys="escape", display="esc", action="back", label="Back", id="injects-back", command="Back to the notebook",
        help="Back from what the host injects to the notebook"),
)
# fmt: on

KEY_GROUPS: tuple[KeyGroup, ...] = (
    KeyGroup("Everywhere", APP_KEYS + PANE_KEYS),
    KeyGroup("Notebook", NOTEBOOK_KEYS),
    KeyGroup("Moving in a file (Home pane)", MOVING_KEYS),
    KeyGroup("Find bar", FIND_KEYS),
    KeyGroup("Agent sessions", AGENT_KEYS),
    KeyGroup("Doctor", DOCTOR_KEYS),
    KeyGroup("Tidy", TIDY_KEYS),
    KeyGroup("Export", EXPORT_KEYS),
    KeyGroup("History", HISTORY_KEYS),
    KeyGroup("Review", REVIEW_KEYS),
    KeyGroup("Built-in editor", EDITOR_KEYS),
    KeyGroup("Conflict view", CONFLICT_KEYS),
    KeyGroup("What the host injects", INJECTS_KEYS),
)

ALL_KEYS: tuple[Key, ...] = tuple(key for group in KEY_GROUPS for key in group.keys)


def bindings(keys: tuple[Key, ...]) -> list[BindingType]:
    return [
        Binding(k.keys, k.action, k.label, show=k.show, key_display=k.display, id=k.id, priority=k.priority)
        for k in keys
    ]
