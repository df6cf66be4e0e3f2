"""Security rules a reader cannot see with their eyes: hidden characters and lookalike letters.

Hidden characters come from the one classifier (:mod:`...text.hidden`); lookalike
letters from confusable-homoglyphs, Unicode's confusables table, asked only
about words that hold a non-ASCII letter (nearly every memory is ASCII, and
then this costs one ``isascii``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

from notebook_app.core.doctor.fixes import Fix, edit_line
from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.hidden import HiddenChar, HiddenKind, char_name, iter_hidden, part_of_a_sequence

MAX_PER_RULE = 200
"""Lines named per rule and file; a file with more says how many more."""
MAX_HIDDEN = 10_000
"""Hidden characters of a file the rule looks at: past them it says the file holds more, and offers no fix for the
line it stopped in (each one costs a look in Python: 2 MiB of them took 13 s)."""

_RULE_OF = {
    HiddenKind.BIDI: "security.bidi",
    HiddenKind.TAG: "security.tag-chars",
    HiddenKind.ZERO_WIDTH: "security.invisible",
    HiddenKind.FORMAT: "security.invisible",
    HiddenKind.CONTROL: "security.invisible",
    HiddenKind.BOM: "security.invisible",
    HiddenKind.VARIATION_SELECTOR: "security.invisible",
    HiddenKind.CARRIAGE_RETURN: "security.invisible",
}


def _flagged(text: str) -> Iterator[HiddenChar]:
    """Hidden characters that hide something: not tabs, line endings, a leading BOM or emoji glue."""
    for item in iter_hidden(text):
        if item.kind is HiddenKind.TAB:
            continue
        if item.kind is HiddenKind.CARRIAGE_RETURN and text[item.offset + 1 : item.offset + 2] in ("\n", ""):
            continue
        if item.kind is HiddenKind.BOM and item.offset == 0:
            continue  # an editor's byte order mark, not a character inside the text
        if item.kind is HiddenKind.ZERO_WIDTH and part_of_a_sequence(text, item.offset):
            continue
        yield item


def hidden_findings(file: FileText) -> list[Finding]:
    """One finding per line and rule, naming the characters and where they are."""
    by_line: dict[tuple[str, int], list[HiddenChar]] = defaultdict(list)
    stopped: int | None = None
    """The line the rule stopped in, past :data:`MAX_HIDDEN` characters."""
    for seen, item in enumerate(_flagged(file.text)):
        line = file.line_of(item.offset)
        if seen >= MAX_HIDDEN:
            stopped = line
            break
        by_line[(_RULE_OF[item.kind], line)].append(item)
    found: list[Finding] = []
    counts: dict[str, int] = defaultdict(int)
    for (rule, line), items in sorted(by_line.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        counts[rule] += 1
        if counts[rule] > MAX_PER_RULE:
            continue
        fix = _strip_fix(file, line) if line != stopped else None
        found.append(finding(rule, file.name, line, _hidden_message(file, line, items), fix))
    if stopped is not None:
        found.append(
            finding(
                "security.invisible",
                file.name,
                stopped,
                f"{file.name} holds more than {MAX_HIDDEN:,} hidden characters: the doctor named those up to line "
                f"{stopped} and looked no further",
            )
        )
    for rule, count in counts.items():
        if count > MAX_PER_RULE:
            found.append(
                finding(
                    rule, file.name, None, f"{count - MAX_PER_RULE:,} more lines of {file.name} hold such characters"
                )
            )
    return found


def _hidden_message(file: FileText, line: int, items: list[HiddenChar]) -> str:
    start = file.line_starts[line - 1]
    first = items[0]
    where = f"{first.name} at column {first.offset - start + 1}"
    more = f" and {len(items) - 1} more" if len(items) > 1 else ""
    kind = first.kind.value
    message = f"line {line} of {file.name} holds a {kind} a reader cannot see: {where}{more}"
    tags = "".join(chr(ord(i.char) - 0xE0000) for i in items if 0xE0020 <= ord(i.char) <= 0xE007E)
    if tags:
        message += f"; the tag characters spell “{tags[:80]}{'…' if len(tags) > 80 else ''}”"
    return message


def _strip_fix(file: FileText, line: int) -> Fix | None:
    text = file.line_text(line)
    flagged = {item.offset for item in _flagged(text)}
    cleaned = "".join(char for index, char in enumerate(text) if index not in flagged)
    return edit_line(file.name, line, text, cleaned, "remove the hidden characters") if cleaned != text else None


_NON_ASCII_WORD = re.compile(r"(?<!\w)\w*?[^\W\d_\x00-\x7f]\w*")
"""A word holding a non-ASCII letter. It starts only where a word starts, so each word is read once
(a plain ``\\w*`` before the letter would be tried from every character of a long word: quadratic)."""
MAX_WORD = 64
"""Characters of a word asked about lookalikes: a longer "word" (a run with no space) is asked about its start."""
_SPOOFABLE = {"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"}
"""Scripts whose letters pass for each other; a word mixing Kana and Han is ordinary Japanese."""


def mixed_script_findings(file: FileText) -> list[Finding]:
    """Words that mix scripts with a letter that looks like one of the word's main script."""
    if file.text.isascii():
        return []
    verdicts: dict[str, str | None] = {}
    found: list[Finding] = []
    for match in _NON_ASCII_WORD.finditer(file.text):
        word = match.group()[:MAX_WORD]
        if word not in verdicts:
            verdicts[word] = _lookalike(word)
        why = verdicts[word]
        if why is None:
            continue
        line = file.line_of(match.start())
        if len(found) >= MAX_PER_RULE:
            break
        found.append(finding("security.mixed-script", file.name, line, f"line {line} of {file.name}: {why}"))
    return found


def _lookalike(word: str) -> str | None:
    """Why ``word`` looks like something it is not, or None."""
    from confusable_homoglyphs import (  # lazy: the doctor's homoglyph table; its 1 MB table loads on first use only
        categories,
        confusables,
    )

    counts: dict[str, int] = defaultdict(int)
    for char in word:
        if char.isalpha():
            counts[categories.alias(char)] += 1
    scripts = set(counts) - {"COMMON", "INHERITED", "Unknown"}
    if len(scripts) < 2 or not scripts & _SPOOFABLE:
        return None
    main = max(sorted(scripts), key=lambda script: counts[script])
    suspects = confusables.is_confusable(word, greedy=True, preferred_aliases=[main]) or []
    for suspect in suspects:
        char = suspect["character"]
        looks = next(
            (glyph for glyph in suspect["homoglyphs"] if categories.alias(glyph["c"][:1] or " ") == main), None
        )
        if looks is not None and suspect["alias"] in scripts:
            return (
                f"the word “{word}” mixes {' and '.join(sorted(s.title() for s in scripts))} letters: "
                f"{char_name(char)} looks like {main.title()} “{looks['c']}”"
            )
    return None
