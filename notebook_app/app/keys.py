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

from textual.binding import Binding


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


APP_KEYS: tuple[Key, ...] = (
    Key(keys="question_mark", display="?", action="help", label="Help", help="Show this help", id="help", command="Help"),
    Key(keys="f1", display="f1", action="help(True)", label="Help", help="Show this help, also while typing", id="help-anywhere", show=False, priority=True),
    Key(keys="q", display="q", action="quit", label="Quit", help="Quit the notebook (ctrl+q too)", id="quit", show=False),
)

PANE_KEYS: tuple[Key, ...] = (
    Key(keys="f2", display="f2", action="show_pane('home')", label="Home", help="The first pane: Home's file list, or the agent-session list (narrow: its tab); works while typing", id="focus-home", show=False, priority=True),
    Key(keys="f3", display="f3", action="show_pane('current')", label="Current", help="The Current session pane (narrow: its tab); works while typing", id="focus-current", show=False, priority=True),
    Key(keys="f4", display="f4", action="show_pane('next')", label="Next", help="The Next session pane (narrow: its tab); works while typing", id="focus-next-session", show=False, priority=True),
)
"""Bound by every view of panes (:class:`~notebook_app.app.screens.panes.PaneScreen`)."""

NOTEBOOK_KEYS: tuple[Key, ...] = (
    Key(keys="a", display="a", action="add", label="Add", help="Add an entry: opens the form with action add, focus on text", id="add", command="Add a memory entry"),
    Key(keys="r", display="r", action="replace", label="Replace", help="Replace text: the form with text and with, pre-filled from the selected entry", id="replace", command="Replace text in memory"),
    Key(keys="x", display="x", action="remove", label="Remove", help="Remove text: the form with text, pre-filled from the selected entry", id="remove", command="Remove text from memory"),
    Key(keys="e", display="e", action="edit_entry", label="Edit", help="Edit the selected entry line in place (guarded: refused if it changed since you selected it)", id="edit-entry", command="Edit the selected entry"),
    Key(keys="d", display="d", action="delete_entry", label="Delete", help="Delete the selected entry line, its line ending included (guarded; enter confirms)", id="delete-entry", command="Delete the selected entry"),
    Key(keys="E", display="E", action="edit_file", label="Edit file", help="Edit the whole selected file in the built-in editor (saved with the conflict guard)", id="edit-file", command="Edit the selected file", show=False),
    Key(keys="o", display="o", action="open_editor", label="$EDITOR", help="Open the selected file in $VISUAL / $EDITOR (a copy; the notebook steps aside and saves it back with the guard)", id="open-editor", command="Open the selected file in $EDITOR", show=False),
    Key(keys="t", display="t", action="toggle_target", label="Target", help="Switch between the USER.md and MEMORY.md panes; the target follows: self (MEMORY.md) or user (USER.md)", id="toggle-target", command="Toggle target: self / user", show=False),
    Key(keys="ctrl+t", display="ctrl+t", action="toggle_target_in_form", label="Target", help="Toggle the target while typing in the form", id="toggle-target-form"),
    Key(keys="enter", display="enter", action="submit", label="Apply", help="Submit the form through the memory tool; in replace, enter in text moves to with", id="submit"),
    Key(keys="escape", display="esc", action="close_form", label="Close", help="Close the form (asks first when it would discard typing)", id="close-form"),
    Key(keys="tab", display="tab", action="form_field(1)", label="Next", help="Focus the next pane; in the form, the next field (tab stays inside an open form)", id="focus-next", show=False, priority=True),
    Key(keys="shift+tab", display="shift+tab", action="form_field(-1)", label="Previous", help="Focus the previous pane; in the form, the previous field", id="focus-previous", show=False, priority=True),
    Key(keys="1", display="1", action="pick_file(1)", label="AGENTS.md", help="Show AGENTS.md (file 1 in load order)", id="pick-1", show=False),
    Key(keys="2", display="2", action="pick_file(2)", label="SOUL.md", help="Show SOUL.md (file 2 in load order)", id="pick-2", show=False),
    Key(keys="3", display="3", action="pick_file(3)", label="IDENTITY.md", help="Show IDENTITY.md (file 3 in load order)", id="pick-3", show=False),
    Key(keys="4", display="4", action="pick_file(4)", label="USER.md", help="Show USER.md (file 4 in load order)", id="pick-4", show=False),
    Key(keys="5", display="5", action="pick_file(5)", label="TOOLS.md", help="Show TOOLS.md (file 5 in load order)", id="pick-5", show=False),
    Key(keys="6", display="6", action="pick_file(6)", label="HEARTBEAT.md", help="Show HEARTBEAT.md (file 6 in load order)", id="pick-6", show=False),
    Key(keys="7", display="7", action="pick_file(7)", label="MEMORY.md", help="Show MEMORY.md (file 7 in load order)", id="pick-7", show=False),
    Key(keys="h", display="h", action="app.history", label="History", help="History: who wrote what, when; each record's diff; undo and restore", id="history", command="Show the history", show=False),
    Key(keys="p", display="p", action="app.review", label="Review", help="Review: the agents' proposals waiting for you, each with its dry run against the file now; approve, reject, edit", id="review", command="Review the agents' proposals", show=False),
    Key(keys="w", display="w", action="toggle_warnings", label="Warnings", help="A file's warnings: folded to one row each, or in full", id="toggle-warnings", command="Show or fold the files' warnings", show=False),
    Key(keys="b", display="b", action="blame", label="Blame", help="Blame gutter on/off: who last wrote each line, and when", id="blame", command="Toggle the blame gutter", show=False),
    Key(keys="exclamation_mark", display="!", action="app.doctor", label="Doctor", help="The home doctor: every finding by file, jump to its line, apply its fix", id="doctor", command="Open the home doctor", show=False),
    Key(keys="slash", display="/", action="find", label="Find", help="Find in every bootstrap file and both sessions as you type: matches highlighted and counted; enter / ↓ next, ↑ previous, esc closes", id="find", command="Find in the home", show=False),
    Key(keys="ctrl+g", display="ctrl+g", action="go_to_line", label="Go to line", help="Go to a line by number in the selected file (the pane last focused, or the match last shown)", id="go-to-line", command="Go to line", show=False),
    Key(keys="n", display="n", action="next_session", label="Next", help="Start the next session: the preview becomes the new current snapshot", id="next-session", command="Start the next session"),
    Key(keys="s", display="s", action="app.agent_sessions", label="Agents", help="Agent sessions: each agent's frozen soul against Next, and its writes", id="agent-sessions", command="Show agent sessions", show=False),
)

MOVING_KEYS: tuple[Key, ...] = (
    Key(keys="up", display="↑", action="cursor(-1)", label="Up", help="In a file: the previous entry (or scroll)", id="entry-up", show=False),
    Key(keys="down", display="↓", action="cursor(1)", label="Down", help="In a file: the next entry (or scroll)", id="entry-down", show=False),
    Key(keys="pageup", display="pgup", action="page(-1)", label="Page up", help="In a file: a page up", id="entry-page-up", show=False),
    Key(keys="pagedown", display="pgdn", action="page(1)", label="Page down", help="In a file: a page down", id="entry-page-down", show=False),
    Key(keys="home", display="home", action="edge(-1)", label="First", help="In a file: the first entry", id="entry-first", show=False),
    Key(keys="end", display="end", action="edge(1)", label="Last", help="In a file: the last entry", id="entry-last", show=False),
)

FIND_KEYS: tuple[Key, ...] = (
    Key(keys="enter,down", display="enter / ↓", action="step(1)", label="Next", help="In the find bar: the next match (after the last, the first); in go to line, go", id="find-next", priority=True),
    Key(keys="up", display="↑", action="step(-1)", label="Previous", help="In the find bar: the previous match", id="find-previous", priority=True),
    Key(keys="escape", display="esc", action="close", label="Close", help="Close the find bar (esc closes it first: before the form, or the editor)", id="close-find"),
)
"""Bound by the find bar while it has focus; enter and the arrows act before its input sees them."""

AGENT_KEYS: tuple[Key, ...] = (
    Key(keys="escape,s", display="esc", action="back", label="Back", help="Back from agent sessions to the notebook's own session", id="agent-sessions-back", command="Back to the notebook"),
)

DOCTOR_KEYS: tuple[Key, ...] = (
    Key(keys="enter", display="enter", action="jump", label="Go to line", help="In the doctor: show the finding's line in the notebook", id="doctor-jump"),
    Key(keys="y", display="y", action="apply_fix", label="Apply fix", help="In the doctor: apply the fix shown (its dry run first; guarded)", id="doctor-fix"),
    Key(keys="escape", display="esc", action="back", label="Back", help="Back from the doctor to the notebook", id="doctor-back", command="Back to the notebook"),
)

HISTORY_KEYS: tuple[Key, ...] = (
    Key(keys="u", display="u", action="undo", label="Undo", help="In the history: show what undoing the selected record does (y applies it)", id="history-undo"),
    Key(keys="R", display="R", action="restore", label="Restore", help="In the history: show what restoring its file to just after the record does (y applies it)", id="history-restore"),
    Key(keys="y", display="y", action="apply", label="Apply", help="In the history: apply the dry run shown", id="history-apply"),
    Key(keys="f", display="f", action="cycle_file", label="File", help="In the history: cycle the file filter", id="history-file"),
    Key(keys="w", display="w", action="cycle_who", label="Who", help="In the history: cycle the who filter (notebook, cli, mcp, library, outside)", id="history-who"),
    Key(keys="escape", display="esc", action="back", label="Back", help="Back from the history to the notebook", id="history-back", command="Back to the notebook"),
)

REVIEW_KEYS: tuple[Key, ...] = (
    Key(keys="y", display="y", action="approve", label="Approve", help="In the review: approve the selected proposal (applied now, against the file as it is); after Y or X, confirms", id="review-approve"),
    Key(keys="x", display="x", action="reject", label="Reject", help="In the review: reject the selected proposal, asking for an optional reason (enter rejects)", id="review-reject"),
    Key(keys="e", display="e", action="edit", label="Edit", help="In the review: edit the proposal's text, then enter approves the edit (recorded as edited)", id="review-edit"),
    Key(keys="Y", display="Y", action="approve_all", label="All", help="In the review: approve all proposals shown, oldest first (y confirms)", id="review-approve-all"),
    Key(keys="X", display="X", action="reject_all", label="Reject all", help="In the review: reject all proposals shown (y confirms)", id="review-reject-all", show=False),
    Key(keys="escape", display="esc", action="back", label="Back", help="In the review: close the reason or edit, cancel a confirmation, else back to the notebook", id="review-back", command="Back to the notebook"),
)

EDITOR_KEYS: tuple[Key, ...] = (
    Key(keys="ctrl+s", display="ctrl+s", action="save", label="Save", help="In the editor: save, guarded (merged with what others wrote since; a conflict opens both sides)", id="editor-save", command="Save the file"),
    Key(keys="ctrl+f", display="ctrl+f", action="find", label="Find", help="In the editor: find in the buffer as you type (unsaved edits too), from the cursor: the match selected, the count shown; enter / ↓ next, ↑ previous, esc closes", id="editor-find", command="Find in the file"),
    Key(keys="ctrl+g", display="ctrl+g", action="go_to_line", label="Go to line", help="In the editor: go to a line by number", id="editor-go-to-line", command="Go to a line of the file", show=False),
    Key(keys="ctrl+z", display="ctrl+z", action="undo", label="Undo", help="In the editor: undo in the buffer (not the history's u)", id="editor-undo", show=False),
    Key(keys="ctrl+y", display="ctrl+y", action="redo", label="Redo", help="In the editor: redo in the buffer", id="editor-redo", show=False),
    Key(keys="escape", display="esc", action="close", label="Close", help="Close the editor, after its find bar (with unsaved changes it asks: esc again discards them)", id="editor-close", command="Close the editor"),
)

CONFLICT_KEYS: tuple[Key, ...] = (
    Key(keys="1", display="1", action="choose('mine')", label="Mine", help="In the conflict view: keep your lines at the marked conflict", id="conflict-mine"),
    Key(keys="2", display="2", action="choose('theirs')", label="Theirs", help="In the conflict view: keep the lines on disk (the other writer's) at the marked conflict", id="conflict-theirs"),
    Key(keys="3", display="3", action="choose('both')", label="Both", help="In the conflict view: keep both, theirs first, at the marked conflict", id="conflict-both"),
    Key(keys="up", display="↑", action="step(-1)", label="Previous", help="In the conflict view: mark the previous conflict", id="conflict-previous", show=False),
    Key(keys="down", display="↓", action="step(1)", label="Next", help="In the conflict view: mark the next conflict", id="conflict-next", show=False),
    Key(keys="ctrl+s", display="ctrl+s", action="save", label="Save", help="In the conflict view: save the resolution, guarded again", id="conflict-save", command="Save the resolution"),
    Key(keys="escape", display="esc", action="back", label="Back", help="Back to the editor from the conflict view, nothing written (your edit is still in the editor)", id="conflict-back", command="Back to the editor"),
)

KEY_GROUPS: tuple[KeyGroup, ...] = (
    KeyGroup("Everywhere", APP_KEYS + PANE_KEYS),
    KeyGroup("Notebook", NOTEBOOK_KEYS),
    KeyGroup("Moving in a file (Home pane)", MOVING_KEYS),
    KeyGroup("Find bar", FIND_KEYS),
    KeyGroup("Agent sessions", AGENT_KEYS),
    KeyGroup("Doctor", DOCTOR_KEYS),
    KeyGroup("History", HISTORY_KEYS),
    KeyGroup("Review", REVIEW_KEYS),
    KeyGroup("Built-in editor", EDITOR_KEYS),
    KeyGroup("Conflict view", CONFLICT_KEYS),
)

ALL_KEYS: tuple[Key, ...] = tuple(key for group in KEY_GROUPS for key in group.keys)


def bindings(keys: tuple[Key, ...]) -> list[Binding]:
    return [Binding(k.keys, k.action, k.label, show=k.show, key_display=k.display, id=k.id, priority=k.priority) for k in keys]
