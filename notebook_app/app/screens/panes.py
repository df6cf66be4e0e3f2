"""A screen of side-by-side panes that becomes one pane at a time under a switcher when narrow.

Both views (the notebook, agent sessions) are three panes wide; below
:data:`NARROW_BELOW` columns they do not fit, so one shows at a time under
:class:`PaneTabs`, and ``f2``–``f4`` (or a click) bring one to the front.
The CSS rule is one (``.-narrow`` in each screen's TCSS); the behaviour is here.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on

from notebook_app.app.keys import PANE_KEYS, bindings
from notebook_app.app.screens.keyed import KeyedScreen
from notebook_app.app.widgets.common.pane_tabs import PaneTabs, Tab
from notebook_app.app.widgets.session.session_pane import SessionPane

NARROW_BELOW = 100
"""Columns below which three panes do not fit side by side."""


class PaneScreen(KeyedScreen):
    BINDINGS = bindings(PANE_KEYS)
    TABS: ClassVar[tuple[Tab, ...]] = ()
    """The panes, by widget id, in switcher order."""

    @on(events.Resize)
    def _resized(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW_BELOW, "-narrow")
        self.call_after_refresh(self._keep_focus_shown)

    def _keep_focus_shown(self) -> None:
        """Focus never rests on a hidden widget: after a resize hides its pane, the pane comes to the front."""
        focused = self.focused
        if focused is None or not self.narrow:
            return
        for tab in self.TABS:
            widget = self.query_one(f"#{tab.widget_id}")
            if (focused is widget or widget in focused.ancestors) and not widget.has_class("-active"):
                self.activate(tab.id)

    @property
    def narrow(self) -> bool:
        return self.has_class("-narrow")

    def pane_tabs(self) -> PaneTabs:
        return PaneTabs(self.TABS, id="pane-tabs")

    def activate(self, pane: str) -> None:
        """Make ``pane`` the one shown at narrow widths (the others stay laid out when wide).

        Focus in a pane that this hides moves to ``pane``: it never rests on a hidden widget.
        """
        group = next((tab.group for tab in self.TABS if tab.id == pane), "")
        focused, hid_focus = self.focused, False
        for tab in self.TABS:
            widget = self.query_one(f"#{tab.widget_id}")
            shown = tab.id == pane or (group != "" and tab.group == group)
            widget.set_class(shown, "-active")
            hid_focus |= not shown and focused is not None and (focused is widget or widget in focused.ancestors)
            if shown and self.narrow and isinstance(widget, SessionPane):
                self.call_after_refresh(widget.reveal_first_change)  # it was hidden when its soul arrived
        self.query_one(PaneTabs).activate(pane)
        if hid_focus and self.narrow and not self.is_typing:
            self.focus_pane(pane)

    def action_show_pane(self, pane: str) -> None:
        """f2 / f3 / f4: bring a pane to the front and focus it (not while typing in a form)."""
        self.activate(pane)
        if not self.is_typing:
            self.focus_pane(pane)

    def focus_pane(self, pane: str) -> None:
        """Focus what a person works with in ``pane``; screens say what that is."""

    @on(PaneTabs.Chosen)
    def _tab_chosen(self, event: PaneTabs.Chosen) -> None:
        self.action_show_pane(event.tab)
