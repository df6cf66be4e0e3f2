"""Textual's footer, rebuilt only when the keys it shows change.

Textual's :class:`~textual.widgets.Footer` removes and mounts all its keys
each time a screen's bindings may have changed: every focus move and every
``refresh_bindings`` (closing the form asked for nine rebuilds, each styling
some thirty new widgets). The keys it would show are compared first; an
unchanged footer is left alone.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer


class KeyFooter(Footer):
    """A :class:`Footer` that skips rebuilds that would show the same keys."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: Hashable | None = None

    def _keys_shown(self) -> Hashable:
        """What :meth:`Footer.compose` draws from: each shown binding, its display, whether it is enabled."""
        app = self.app
        keys = tuple(
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                binding.group,
                enabled,
                tooltip,
            )
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return keys, self.show_command_palette, self.compact, self.combine_groups

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        shown = self._keys_shown()
        if shown == self._shown and self.children:
            return
        await super().recompose()
        self._shown = shown if self.children else None
