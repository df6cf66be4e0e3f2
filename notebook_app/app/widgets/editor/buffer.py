"""The editor's buffer: Textual's TextArea, made to stay quick on a 2 MiB file.

Three costs of Textual 8.2.8's TextArea grow with the whole text, on every
keystroke or frame, and each is removed here without changing what it does:

* ``WrappedDocument.height`` sums every line's wrap offsets, and is asked for
  every row drawn; the wrapped document already keeps one entry per row
  (``_offset_to_line_info``, maintained by ``wrap`` and ``wrap_range``), so
  its length is the height (:class:`CountedRows`);
* ``render_line`` asks ``self.text`` (the whole text joined) for every row, to
  decide on a placeholder, and without soft wrap every edit measures every
  line's width; a plain document caches both until its next edit
  (:class:`CachedText`; ``replace_range`` is its only mutation), and so the
  text with ``\\n`` endings that find searches, for a CRLF file too;
* a resize that keeps the width (a banner shown or hidden above the buffer)
  rewrapped all of it (~0.5 s on 2 MiB); now only a new width does.

Measured on a 2 MiB MEMORY.md: a keystroke went from ~150 ms to a few ms.
"""

from __future__ import annotations

import unicodedata

from textual import events
from textual.geometry import Size
from textual.widgets import TextArea
from textual.widgets.text_area import Document, EditResult, Location, WrappedDocument

from notebook_app.app.widgets.textual_compat import (
    SwappedDocuments,
    refresh_without_rewrap,
    wrapped_height,
    wrapped_width,
)


class CountedRows(WrappedDocument):
    """A wrapped document whose height is the length of its row index, not a sum over its lines."""

    @property
    def height(self) -> int:
        return wrapped_height(self)

    @property
    def width(self) -> int:
        """The width it is wrapped at now."""
        return wrapped_width(self)


class CachedText(Document):
    """A plain document that joins its text, and measures its widest line, once per edit, not once per call."""

    _text: str | None = None
    _lf_text: str | None = None
    _size: tuple[int, Size] | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = super().text
        return self._text

    @property
    def lf_text(self) -> str:
        """The text with ``\\n`` line ends, as find counts lines: the
        same object until the next edit, whatever the file's endings."""
        if self.newline == "\n":
            return self.text
        if self._lf_text is None:
            self._lf_text = "\n".join(self.lines)
        return self._lf_text

    def get_size(self, tab_width: int) -> Size:
        if self._size is None or self._size[0] != tab_width:
            self._size = (tab_width, super().get_size(tab_width))
        return self._size[1]

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        self._text = self._lf_text = None
        self._size = None
        return super().replace_range(start, end, text)


class EditorBuffer(SwappedDocuments, TextArea):
    """A TextArea over a :class:`CachedText` (when plain) and a :class:`CountedRows`."""

    PLAIN_DOCUMENT = CachedText
    WRAPPED_DOCUMENT = CountedRows

    def on_resize(self, event: events.Resize) -> None:
        """Rewrap only for a new width: a new height alone changes no row.

        Textual calls one resize handler per class of the MRO, this one first;
        TextArea's own (a full rewrap) runs after it unless the default is
        prevented; for a new width it runs, once.
        """
        wrapped = self.wrapped_document
        if isinstance(wrapped, CountedRows) and wrapped.width == self.wrap_width:
            refresh_without_rewrap(self)
            event.prevent_default()


def buffer_rewrites(text: str) -> str | None:
    """What the buffer would change in ``text`` just by holding it, in words; None when it keeps it byte for byte.

    TextArea splits lines at every line boundary Python knows (``\\r``, form
    feed, U+2028 …) and joins them with one line ending: a file with mixed
    endings, or such a character inside a line, would be saved changed
    although nobody changed it.
    """
    kept = Document(text).text
    if kept == text:
        return None
    at = next((i for i, (a, b) in enumerate(zip(text, kept, strict=False)) if a != b), min(len(text), len(kept)))
    line = text.count("\n", 0, at) + 1
    char = text[at] if at < len(text) else "\n"
    if char in "\r\n":
        return f"line {line} ends differently from the lines before it (mixed line endings)"
    return (
        f"line {line} holds U+{ord(char):04X} {unicodedata.name(char, 'a control character')}, "
        "which it would turn into a line break"
    )
