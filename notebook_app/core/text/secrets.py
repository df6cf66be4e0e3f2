"""Secrets planted in persona files: provider keys, private key blocks, secrets assigned to a secret's name.

Three kinds of evidence, each with its settings pinned (here and in :mod:`.secret_shapes`):

- A vendor's token shape. detect-secrets' regex plugins (a list Yelp keeps up
  to date with the providers), plus the shapes it misses (:data:`.secret_shapes.OWN_SHAPES`: the
  AI providers' keys, the newer GitHub, Stripe, npm, cloud and SaaS tokens;
  prefixes and lengths as each vendor documents them).
- A value assigned to a secret's name (``password``, ``secret``, ``token``,
  ``key``, ``AWS_SECRET_ACCESS_KEY``…: :data:`_NAMED`). A password counts when
  it has six characters or more with a digit or a symbol; any other name's
  value only when it looks random: twelve characters or more (twenty when only
  a space stands between the name and it), a letter and a digit (two digits, or
  capitals and small letters both), and a Shannon
  entropy above detect-secrets' own measure at pinned limits (``HEX_LIMIT``,
  ``BASE64_LIMIT``). Without a name, a high-entropy string is never a
  secret: prose and logs are full of them.
- An AWS secret access key beside its key id: forty base64 characters on the
  line of an ``AKIA…`` id (AWS's own layout, whatever the words around it).

A secret's span is the whole token the scanner saw: a shape that names only
the start of a key (Stripe's ``sk_live_`` and 24 characters) runs on to the
token's end, a private key block to its ``END`` line, so a redaction never
leaves a tail. Text already masked (``****``, ``[redacted]``, our own
``sk-ant-a… (40 characters)``) is not a secret.

All of it is asked only about the lines a cheap first pass picks (a run of 16
key-like characters with a digit or four capitals, a URL with a password, a key
block, or a secret's name), so a 2 MiB file of ordinary notes costs a few
C-speed scans, and detect-secrets is imported only when a line may hold a key.
A finding names the kind of secret and shows its first characters only: it
never echoes a whole secret back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from notebook_app.core.text.file_text import FileText
from notebook_app.core.text.secret_shapes import (
    AWS_LIMIT,
    AWS_SECRET,
    BASE64_LIMIT,
    HEX_LIMIT,
    NAMED_SECRET,
    NEEDLES,
    PASSWORD,
    PRIVATE_KEY,
    REACH,
    combined,
    entropy,
    leftmost,
)

_NAMED = re.compile(
    r"(?i:(?P<word>passw(?:or)?d|passphrase|pwd|secret|token|credentials?|creds|auth|bearer|key))"
    r"(?P<rest>[A-Za-z0-9_.\-]{0,40}+)[\"']?"
    r"(?:(?P<assign>[ \t]{0,4}+(?:=>|:=|[:=])[ \t]{0,4}+[\"'`]?)(?P<value>[^\s\"'`]{1,512}+)"
    r"|(?P<space>[ \t]{1,4}+)(?P<word_value>[A-Za-z0-9+/_\-]{1,512}+={0,3}+)(?=[\s\"'`,;.)\]}>]|$))"
)
"""A secret's name (the word anywhere in it: ``AWS_SECRET_ACCESS_KEY``, ``clientSecret``) and the value given it:
after ``=``, ``:``, ``=>``, or (a token's characters only) after a space. Each part is bounded and possessive, so a
long line costs one pass."""
_PASSWORD_WORDS = ("passw", "passphrase", "pwd")
_PASSWORD_VALUE = re.compile(r"[0-9!@#$%^&*_+=/\-]")
_NAME_HEAD = re.compile(r"[A-Za-z0-9_.\-]{0,40}$")
_AWS_NAME = re.compile(r"(?i)aws|secret.?access")
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9_\-+/=.]*+")
_TOKEN_END = re.compile(r"[A-Za-z0-9_\-+/=.]")
_KEY_BLOCK_START = re.compile(r"BEGIN[A-Z ]{0,20} PRIVATE KEY")
_KEY_BLOCK_END = re.compile(r"-----END[A-Z ]{0,20} PRIVATE KEY(?: BLOCK)?-----")
_KEY_BLOCK_LINES = 200
_BASE64_LINE = re.compile(r"[A-Za-z0-9+/=]{16,}")
_MASKS = ("…", "[redacted]")

_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16,}")
_MARKS = ("://", "BEGIN", "Key-File")
"""With :data:`_RUN`, what the first pass looks for; searched apart,
as plain strings: an alternation would be tried at every position."""
_KEYWORD = re.compile(r"pass|pwd|secret|token|key|auth|cred|bearer")
_LONG_RUN = re.compile(r"[A-Za-z0-9_\-+/=.]{20}")
_KEY_LIKE = re.compile(
    r"[0-9]|[A-Z]{4}"
)  # a digit or four capitals: "colour-blind-safe", "America/Los_Angeles" are no keys


class Hit(NamedTuple):
    """One secret in a line: its kind, where its characters are, and the name it was given (with ``=``), if any."""

    kind: str
    start: int
    end: int
    name: str = ""
    opens_block: bool = False
    """A key block's ``BEGIN`` whose body follows on the next lines: redacting this line first would hide the rest
    of the block from the next look, so it is redacted last."""


def candidate_lines(file: FileText) -> list[int]:
    """Lines worth the full expression: the first pass, in C, over the text and its lower case."""
    text = file.text
    offsets = [m.start() for m in _RUN.finditer(text) if _key_like(m.group())]
    for mark in _MARKS:
        at = text.find(mark)
        while at >= 0:
            offsets.append(at)
            at = text.find(mark, at + 1)
    offsets += [m.start() for m in _KEYWORD.finditer(text.lower())]
    return sorted({file.line_of(offset) for offset in offsets})


def _key_like(run: str) -> bool:
    """:data:`_KEY_LIKE`, answered first by C-speed string tests: most runs in prose and logs are lower-case words."""
    if run.islower() and not any(digit in run for digit in "0123456789"):
        return False
    return _KEY_LIKE.search(run) is not None


def _may_hold_a_key(text: str) -> bool:
    """The first pass for one line: a key-like run, a mark, or a run of 20 token characters (a ``token ghp_aaa…``
    has no key-like run); else no vendor's shape is looked for in it (a line picked for a secret's name alone is
    asked only :data:`_NAMED`: the shapes' one expression is slow)."""
    return (
        any(mark in text for mark in _MARKS)
        or _LONG_RUN.search(text) is not None
        or any(_key_like(m.group()) for m in _RUN.finditer(text))
    )


def a_kind(kind: str) -> str:
    """``an Anthropic API key``, ``a Stripe Access Key``: a kind of secret with its article, for a sentence."""
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def masked(secret: str) -> str:
    """The first few characters and the length: enough to find it, never enough to use it."""
    keep = min(8, max(3, len(secret) // 5))
    return f"{secret[:keep]}… ({len(secret)} characters)"


def shown_secret(hit: Hit, line: str) -> str:
    """A secret given a name shows the name and hides its value; a key shows its first characters."""
    value = masked(line[hit.start : hit.end])
    return f"{hit.name} {value}" if hit.name else value


def find_secrets(text: str) -> list[Hit]:
    """Each secret in one line of text, in order; overlapping ones are one hit spanning both."""
    found = _vendor_hits(text) if _may_hold_a_key(text) else []
    found += _aws_pairs(text, found)
    found += _named_hits(text, found)
    return _merged(found)


def _vendor_hits(text: str) -> list[Hit]:
    expression, kinds = combined()
    shapes = [pattern for kind, pattern in kinds.values() if NEEDLES.get(kind, "") in text]
    found: list[Hit] = []
    for match in _windowed(expression, shapes, text):
        kind, pattern = kinds[match.lastgroup or ""] if match.lastgroup else ("secret", None)
        start, end = match.span()
        if found and start < found[-1].end:
            continue  # inside the token the last hit ran on to: asking again would read it again
        alone = pattern.match(text, start) if pattern is not None and pattern.groups else None
        if alone is not None and alone.lastindex and alone.group(1) is not None:
            start, end = alone.span(1)  # the secret itself: a URL's password, a quoted AWS key, not its frame
        while start < end and text[start] in " \t=:\"'":
            start += 1
        while end > start and text[end - 1] in " \t\"'":
            end -= 1
        if start < end and not _is_masked(text[start:end]):
            found.append(Hit(kind, start, _to_token_end(text, kind, end)))
    return found


WINDOW = 4096
"""A line longer than this is read in windows of this many starts (each match may reach :data:`REACH` further):
one call of the expression never holds the interpreter for long, so the app's keys are answered meanwhile."""


def _windowed(expression: re.Pattern[str], shapes: list[re.Pattern[str]], text: str) -> Iterator[re.Match[str]]:
    """``expression.finditer(text)``, a long line read window by window (:data:`WINDOW`), no match given twice."""
    if len(text) <= WINDOW + REACH:
        yield from leftmost(expression, shapes, text, 0, len(text))
        return
    last_end = 0
    for start in range(0, len(text), WINDOW):
        for match in leftmost(expression, shapes, text, start, min(len(text), start + WINDOW + REACH)):
            if match.start() >= start + WINDOW:
                break  # the next window reads it
            if match.start() >= last_end:
                last_end = match.end()
                yield match


def _to_token_end(text: str, kind: str, end: int) -> int:
    """Where the token a shape matched the start of ends: a key block at its END line, any other at its last
    token character (a shape that names a key's first 32 characters never leaves the rest)."""
    if kind == PRIVATE_KEY or kind == "Private Key":
        closing = _KEY_BLOCK_END.search(text, end)
        return closing.end() if closing else len(text.rstrip())
    if end == 0 or not _TOKEN_END.match(text, end - 1):
        return end
    tail = _TOKEN_TAIL.match(text, end)
    end = tail.end() if tail else end
    while text[end - 1] == ".":
        end -= 1
    return end


def _aws_pairs(text: str, found: list[Hit]) -> list[Hit]:
    """Forty base64 characters on the line of an AWS key id: the id's secret access key, however it is labelled."""
    if not any(hit.kind == "AWS Access Key" for hit in found):
        return []
    base64 = entropy()[1]
    return [
        Hit(AWS_SECRET, m.start(), m.end())
        for m in _AWS_SECRET.finditer(text)
        if not _overlaps(m.start(), m.end(), found) and base64.calculate_shannon_entropy(m.group()) > AWS_LIMIT
    ]


def _named_hits(text: str, found: list[Hit]) -> list[Hit]:
    """Values assigned to a secret's name that look like one (the settings in this module's words)."""
    hits: list[Hit] = []
    at = 0
    while (match := _NAMED.search(text, at)) is not None:
        hit = _named(text, match)
        if hit is None or _overlaps(hit.start, hit.end, found):
            at = match.end("word")
            continue
        hits.append(hit)
        at = match.end()
    return hits


def _named(text: str, match: re.Match[str]) -> Hit | None:
    word = match.group("word").lower()
    value_group = "value" if match.group("value") is not None else "word_value"
    start, end = match.span(value_group)
    value = text[start:end].rstrip(",;.")
    end = start + len(value)
    head = _NAME_HEAD.search(text, max(0, match.start() - 40), match.start())
    name = " ".join(re.sub(r"[\"'`]", "", text[head.start() if head else match.start() : start]).split())
    if _is_masked(value):
        return None
    if word.startswith(_PASSWORD_WORDS):
        if value_group != "value" or len(value) < 6 or not _PASSWORD_VALUE.search(value):
            return None
        return Hit(PASSWORD, start, end, name)
    if not _looks_random(value, spaced=value_group == "word_value"):
        return None
    return Hit(AWS_SECRET if _AWS_NAME.search(name) else NAMED_SECRET, start, end, name)


def _looks_random(value: str, *, spaced: bool) -> bool:
    """Long enough, a letter and a digit (two, or both cases), and above detect-secrets' entropy limit for its
    alphabet."""
    digits = sum(c.isdigit() for c in value)
    if len(value) < (20 if spaced else 12) or not digits or not any(c.isalpha() for c in value):
        return False
    if digits < 2 and (value.islower() or value.isupper()):
        return False  # "oauth2-device-flow": words with a number in them
    hex_measure, base64 = entropy()
    if all(c in "0123456789abcdefABCDEF" for c in value):
        return hex_measure.calculate_shannon_entropy(value) > HEX_LIMIT
    return base64.calculate_shannon_entropy(value) > BASE64_LIMIT


def _is_masked(value: str) -> bool:
    """Text a guard or a redaction already masked, or a secret as the notebook shows one: no secret any more."""
    return value.strip("*") == "" or any(mark in value for mark in _MASKS)


def _overlaps(start: int, end: int, found: list[Hit]) -> bool:
    return any(start < hit.end and hit.start < end for hit in found)


def _merged(found: list[Hit]) -> list[Hit]:
    """In order of their start; one that overlaps the one before it joins it (the first's kind and name)."""
    out: list[Hit] = []
    for hit in sorted(found, key=lambda h: (h.start, -h.end)):
        if out and hit.start < out[-1].end:
            out[-1] = out[-1]._replace(end=max(out[-1].end, hit.end))
        else:
            out.append(hit)
    return out


def hits_by_line(lines: Sequence[str], candidates: list[int]) -> list[tuple[int, list[Hit]]]:
    """Each line (numbered from 1) that holds a secret, with its hits: a candidate line's own (:func:`find_secrets`),
    and every line inside a private key block that spans lines (its body is the key: it is redacted whole too)."""
    blocks = _key_block_bodies(lines, candidates)
    body = set().union(*blocks.values())
    found = []
    for number in sorted(set(candidates) | body):
        text = lines[number - 1]
        hits = find_secrets(text) if number in candidates else []
        if not hits and number in body:
            start = len(text) - len(text.lstrip())
            hits = [Hit(PRIVATE_KEY, start, len(text.rstrip()))]
        if blocks.get(number):
            hits = [hit._replace(opens_block=True) for hit in hits]
        if hits:
            found.append((number, hits))
    return found


def _key_block_bodies(lines: Sequence[str], candidates: list[int]) -> dict[int, set[int]]:
    """Each key block's ``BEGIN`` line that has no ``END`` on it, and the lines of its body still unmasked: up to its
    ``END`` line (within :data:`_KEY_BLOCK_LINES` lines), else while they look like a key's base64."""
    blocks: dict[int, set[int]] = {}
    for number in candidates:
        opening = _KEY_BLOCK_START.search(lines[number - 1])
        if opening is None or _KEY_BLOCK_END.search(lines[number - 1], opening.end()):
            continue
        last = min(len(lines), number + _KEY_BLOCK_LINES)
        closing = next((n for n in range(number + 1, last + 1) if _KEY_BLOCK_END.search(lines[n - 1])), None)
        if closing is None:
            closing = next(
                (n - 1 for n in range(number + 1, last + 1) if not _BASE64_LINE.fullmatch(lines[n - 1].strip())),
                last,
            )
        blocks[number] = {n for n in range(number + 1, closing + 1) if not _is_masked(lines[n - 1].strip())}
    return blocks


def secrets_in(text: str) -> list[tuple[str, str]]:
    """(kind, what may be shown of it) of each secret in ``text`` of any number of lines: the same passes as a file."""
    file = FileText("", text.encode("utf-8", "surrogatepass"), 0)
    found = []
    for number, hits in hits_by_line(file.lines, candidate_lines(file)):
        found += [(hit.kind, shown_secret(hit, file.lines[number - 1])) for hit in hits]
    return found


def secret_lines(text: str) -> list[tuple[int, str]]:
    """Each line (from 1) of ``text`` that holds a secret, with the kind of its first: for a view of content that
    keeps its bytes and marks the secret (⚠) beside it."""
    file = FileText("", text.encode("utf-8", "surrogatepass"), 0)
    return [(number, hits[0].kind) for number, hits in hits_by_line(file.lines, candidate_lines(file))]


def shown_text(text: str) -> str:
    """``text`` with each secret in it shown as the notebook shows one (its first characters and its length).

    For the notebook's own words (a result, an error, a plan, a proposal's line) that quote what was given them.
    """
    worth = candidate_lines(FileText("", text.encode("utf-8", "surrogatepass"), 0)) if text else []
    if not worth:
        return text
    lines = text.split("\n")
    for number, hits in hits_by_line(lines, worth):
        line = lines[number - 1]
        out, last = [], 0
        for hit in hits:
            out += [line[last : hit.start], masked(line[hit.start : hit.end])]
            last = hit.end
        lines[number - 1] = "".join(out) + line[last:]
    return "\n".join(lines)


def secret_spans(data: bytes) -> list[tuple[str, int, int]]:
    """(kind, byte offset, byte length) of each secret in ``data``, of any number of lines: the same passes as a file.

    Only the secret itself: a password assignment's value, not its name. Bytes
    that are not UTF-8 keep their place (each stands for itself).
    """
    file = FileText("", data, len(data))
    lines = data.split(b"\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    texts = [line.decode("utf-8", "surrogateescape") for line in lines]
    found = []
    for number, hits in hits_by_line(texts, candidate_lines(file)):
        text = texts[number - 1]
        for hit in hits:
            head = len(text[: hit.start].encode("utf-8", "surrogateescape"))
            length = len(text[hit.start : hit.end].encode("utf-8", "surrogateescape"))
            found.append((hit.kind, starts[number - 1] + head, length))
    return found
