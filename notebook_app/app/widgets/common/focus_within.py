"""A container marked while focus is inside it, so that only it restyles when focus moves."""

from __future__ import annotations

FOCUS_WITHIN = "-focus-within"
"""The class a :class:`FocusWithin` container has while it or a widget inside it has focus."""


class FocusWithin:
    """Mixin for a container whose look follows focus: its TCSS styles ``&.-focus-within``, not ``:focus-within``.

    Textual restyles every widget under the outermost ``:focus-within``
    container at each focus move: the Home column's three file panes with
    their views' component classes, 7-10 ms per move (closing the form is
    one). The screen sets this class instead and restyles the marked
    containers alone (see ``KeyedScreen.focus_styles_changing``).
    """


class KeepsFocusMarks:
    """Mixin for a passing widget over the panes (the memory form): focus inside it leaves the marks as they were.

    The form acts on what the marked pane shows, so the mark stays; and
    closing the form then changes no pane's border, which would repaint
    that whole column in the frame that shows the form's result.
    """
