"""Claude Code's ``@path`` imports: which paths a CLAUDE.md names, outside code, in document order.

Claude Code lexes the file as Markdown and looks for ``@path`` (after a line
start or a space) in its text, never in a code block or code span, an HTML
comment dropped first (golden case cc-imports). A path starting ``./``,
``~/`` or ``/``, or with a letter, digit, ``.``, ``_`` or ``-``, is taken,
relative to the importing file's folder; ``#fragment`` dropped, ``\\ `` read
as a space; a file whose extension is not a text one is skipped. This is the
Markdown that decides it, not a full Markdown parser: the corpus says which
forms are proven.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_IMPORT = re.compile(r"(?:^|\s)@((?:[^\s\\]|\\ )+)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_SPAN = re.compile(r"(`+)(?!`)([\s\S]*?[^`])\1(?!`)")
_COMMENT = re.compile(r"<!--[\s\S]*?-->")
TEXT_EXTENSIONS = frozenset(
    ".md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx .jsx .mjs .cjs "
    ".mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc .cxx .h .hpp .hxx .cs .swift "
    ".sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config .properties .sql .graphql .gql .proto .vue "
    ".svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua .r .R .dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs "
    ".lhs .elm .ml .mli .f .f90 .f95 .for .cmake .make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex "
    ".lock .log .diff .patch".split()
)
"""The extensions an import may have (its CQr set); a file with none is read too."""


def _outside_code(text: str) -> str:
    """``text`` with fenced and indented code blocks, code spans and HTML comments blanked out."""
    kept: list[str] = []
    fence: str | None = None
    previous_blank = True
    for line in text.replace("\r\n", "\n").split("\n"):
        opened = _FENCE.match(line)
        if fence is not None:
            if (
                opened
                and opened.group(1)[0] == fence[0]
                and len(opened.group(1)) >= len(fence)
                and not line.strip()[len(opened.group(1)) :].strip()
            ):
                fence = None
            kept.append("")
            continue
        if opened:
            fence = opened.group(1)
            kept.append("")
            continue
        if previous_blank and line.startswith(("    ", "\t")) and line.strip():
            kept.append("")
            continue  # an indented code block (one cannot interrupt a paragraph)
        previous_blank = not line.strip()
        kept.append(line)
    body = _COMMENT.sub("", "\n".join(kept))
    return _SPAN.sub(lambda m: " " * len(m.group()), body)


def import_paths(text: str, folder: Path, home: Path) -> list[Path]:
    """The files ``text`` (a CLAUDE.md in ``folder``) imports, in order, each once."""
    out: dict[str, Path] = {}
    for found in _IMPORT.finditer(_outside_code(text)):
        name = found.group(1).split("#", 1)[0].replace("\\ ", " ")
        if not name:
            continue
        plain = not name.startswith("@") and not re.match(r"^[#%^&*()]+", name) and re.match(r"^[a-zA-Z0-9._-]", name)
        if not (name.startswith(("./", "~/")) or (name.startswith("/") and name != "/") or plain):
            continue
        if name.startswith("~/"):
            target = home / name[2:]
        else:
            target = folder / name
        extension = os.path.splitext(name)[1].lower()
        if extension and extension not in TEXT_EXTENSIONS:
            continue
        path = Path(os.path.normpath(target))
        out.setdefault(str(path), path)
    return list(out.values())
