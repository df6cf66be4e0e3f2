"""Secrets planted in persona files: provider keys, private key blocks, secrets assigned to a secret's name.

Three kinds of evidence, each with its settings pinned here:

- A vendor's token shape. detect-secrets' regex plugins (a list Yelp keeps up
  to date with the providers), plus the shapes it misses (:data:`_OWN`: the
  AI providers' keys, the newer GitHub, Stripe, npm, cloud and SaaS tokens;
  prefixes and lengths as each vendor documents them).
- A value assigned to a secret's name (``password``, ``secret``, ``token``,
  ``key``, ``AWS_SECRET_ACCESS_KEY``…: :data:`_NAMED`). A password counts when
  it has six characters or more with a digit or a symbol; any other name's
  value only when it looks random: twelve characters or more (twenty when only
  a space stands between the name and it), a letter and a digit (two digits, or
  capitals and small letters both), and a Shannon
  entropy above detect-secrets' own measure at pinned limits (:data:`HEX_LIMIT`,
  :data:`BASE64_LIMIT`). Without a name, a high-entropy string is never a
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

import importlib
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from .file_text import FileText

_DETECT_SECRETS_PLUGINS: dict[str, tuple[str, ...]] = {
    # module under detect_secrets.plugins: the regex-based detectors we use. Its high-entropy and keyword
    # plugins are left out as they stand (in prose they flag ordinary words and numbers): their entropy measure is
    # used only on a value assigned to a secret's name (_NAMED), at the limits pinned below.
    "artifactory": ("ArtifactoryDetector",),
    "aws": ("AWSKeyDetector",),
    "azure_storage_key": ("AzureStorageKeyDetector",),
    "basic_auth": ("BasicAuthDetector",),
    "discord": ("DiscordBotTokenDetector",),
    "github_token": ("GitHubTokenDetector",),
    "gitlab_token": ("GitLabTokenDetector",),
    "jwt": ("JwtTokenDetector",),
    "mailchimp": ("MailchimpDetector",),
    "npm": ("NpmDetector",),
    "openai": ("OpenAIDetector",),
    "private_key": ("PrivateKeyDetector",),
    "pypi_token": ("PypiTokenDetector",),
    "sendgrid": ("SendGridDetector",),
    "slack": ("SlackDetector",),
    "square_oauth": ("SquareOAuthDetector",),
    "stripe": ("StripeDetector",),
    "telegram_token": ("TelegramBotTokenDetector",),
    "twilio": ("TwilioKeyDetector",),
}

HEX_LIMIT = 3.0
"""detect-secrets' ``HexHighEntropyString`` limit (its default) for an all-hex value assigned to a secret's name."""
BASE64_LIMIT = 3.5
"""detect-secrets' ``Base64HighEntropyString`` limit for any other value assigned to a secret's name: its default,
4.5, is for any quoted string in code and no string of fewer than 23 characters reaches it; a name has already said
"secret" here, so the limit is that of gitleaks' generic rule."""
AWS_LIMIT = 4.0
"""The same measure's limit for forty characters beside an AWS key id (a random one measures about 5)."""

PRIVATE_KEY = "private key block"
AWS_SECRET = "AWS secret access key"
PASSWORD = "password assignment"
NAMED_SECRET = "secret assignment"

_OWN: tuple[tuple[str, str], ...] = (
    (PRIVATE_KEY, r"-----BEGIN[A-Z ]{0,20} PRIVATE KEY(?: BLOCK)?-----"),
    ("Anthropic API key", r"sk-ant-(?:api|admin|oat|sid)[0-9]{2}-[A-Za-z0-9_\-]{20,}"),
    ("Anthropic API key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    ("OpenRouter API key", r"sk-or-v1-[a-f0-9]{64}"),
    ("OpenAI API key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}"),
    ("OpenAI API key", r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9]{32,}"),
    ("GitHub token", r"github_pat_[A-Za-z0-9_]{22,}"),
    ("Google API key", r"AIza[0-9A-Za-z_\-]{35}"),
    ("Google OAuth client secret", r"GOCSPX-[A-Za-z0-9_\-]{28}"),
    ("Google OAuth access token", r"ya29\.[A-Za-z0-9_\-]{30,}"),
    ("Hugging Face token", r"hf_[A-Za-z0-9]{34,}"),
    ("Stripe Access Key", r"(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,}"),
    ("npm token", r"npm_[A-Za-z0-9]{36}"),
    ("DigitalOcean token", r"do[por]_v1_[a-f0-9]{64}"),
    ("Shopify token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("Databricks token", r"dapi[a-f0-9]{32}"),
    ("Doppler token", r"dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}"),
    ("Linear API key", r"lin_api_[A-Za-z0-9]{40}"),
    ("Postman API key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("Atlassian API token", r"ATATT3[A-Za-z0-9_\-=]{186}"),
    ("Heroku API key", r"HRKU-AA[0-9A-Za-z_\-]{58}"),
    ("Grafana token", r"gl(?:sa|c)_[A-Za-z0-9+/_]{32,}"),
    ("New Relic API key", r"NRAK-[A-Z0-9]{27}"),
    ("age secret key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("Notion token", r"ntn_[0-9]{11}[A-Za-z0-9]{35}"),
    ("Azure client secret", r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}"),
    ("1Password service account token", r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),
    ("HashiCorp Vault token", r"hv[sb]\.[A-Za-z0-9_\-]{90,}"),
    ("Terraform Cloud token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,70}"),
    ("Pulumi token", r"pul-[a-f0-9]{40}"),
    ("Perplexity API key", r"pplx-[A-Za-z0-9]{48}"),
    ("Groq API key", r"gsk_[A-Za-z0-9]{52}"),
    ("xAI API key", r"xai-[A-Za-z0-9]{80}"),
    ("Replicate token", r"r8_[A-Za-z0-9]{37}"),
    ("Supabase token", r"sbp_[a-f0-9]{40}"),
    ("Sentry token", r"sntry[us]_[A-Za-z0-9+/=_]{40,}"),
    ("Square access token", r"(?:EAAA|sq0atp-)[A-Za-z0-9_\-]{22,60}"),
    ("Slack app token", r"xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+"),
    ("Tailscale key", r"tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]+-[A-Za-z0-9]+"),
    ("Docker Hub token", r"dckr_pat_[A-Za-z0-9_\-]{27}"),
    ("Figma token", r"figd_[A-Za-z0-9_\-]{40}"),
    ("LangSmith API key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
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


@lru_cache(maxsize=1)
def _combined() -> tuple[re.Pattern[str], dict[str, tuple[str, re.Pattern[str]]]]:
    """Every key format as one expression with one named group each, and what each group finds (and its pattern)."""
    parts: list[tuple[str, str, int]] = []
    for module_name, classes in _DETECT_SECRETS_PLUGINS.items():
        module = importlib.import_module(f"detect_secrets.plugins.{module_name}")
        for class_name in classes:
            detector = getattr(module, class_name)
            for pattern in detector.denylist:
                parts.append((detector.secret_type, pattern.pattern, pattern.flags & (re.IGNORECASE | re.VERBOSE)))
    parts.extend((kind, pattern, 0) for kind, pattern in _OWN)
    kinds = {f"k{index}": (kind, re.compile(pattern, flags)) for index, (kind, pattern, flags) in enumerate(parts)}
    expression = "|".join(f"(?P<k{index}>{_inline(pattern, flags)})" for index, (_, pattern, flags) in enumerate(parts))
    return re.compile(expression), kinds


def _inline(pattern: str, flags: int) -> str:
    letters = ("i" if flags & re.IGNORECASE else "") + ("x" if flags & re.VERBOSE else "")
    return f"(?{letters}:{pattern})" if letters else pattern


@lru_cache(maxsize=1)
def _entropy() -> tuple[object, object]:
    """detect-secrets' entropy measures, at the limits pinned above (loaded with the first value worth measuring)."""
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    return HexHighEntropyString(limit=HEX_LIMIT), Base64HighEntropyString(limit=BASE64_LIMIT)


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
    expression, kinds = _combined()
    found = []
    for match in expression.finditer(text):
        kind, pattern = kinds[match.lastgroup or ""] if match.lastgroup else ("secret", None)
        start, end = match.span()
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
    base64 = _entropy()[1]
    return [
        Hit(AWS_SECRET, m.start(), m.end())
        for m in _AWS_SECRET.finditer(text)
        if not _overlaps(m.start(), m.end(), found) and base64.calculate_shannon_entropy(m.group()) > AWS_LIMIT  # type: ignore[attr-defined]
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
    name = text[head.start() if head else match.start() : start].strip(" \t\"'`")
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
    hex_measure, base64 = _entropy()
    if all(c in "0123456789abcdefABCDEF" for c in value):
        return hex_measure.calculate_shannon_entropy(value) > HEX_LIMIT  # type: ignore[attr-defined]
    return base64.calculate_shannon_entropy(value) > BASE64_LIMIT  # type: ignore[attr-defined]


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
