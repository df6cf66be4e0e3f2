"""Secrets planted in persona files: provider keys, private key blocks, password assignments.

The key formats are detect-secrets' own (its regex plugins, a list Yelp keeps
up to date with the providers), plus ours where it misses: Anthropic's
``sk-ant-`` keys, OpenAI's project and service keys, GitHub fine-grained
tokens, Google and Hugging Face keys, and ``password=``-style assignments in
prose. All of them are one combined expression, asked only about the lines a
cheap first pass picks (a run of 16 key-like characters with a digit or four capitals, a URL
with a password, a key block, or a word like "password"), so a 2 MiB file of
ordinary notes costs two C-speed scans. A finding names the kind of secret and
shows its first characters only: it never echoes a whole secret back.
"""

from __future__ import annotations

import importlib
import re
from functools import lru_cache

from .file_text import FileText

_DETECT_SECRETS_PLUGINS: dict[str, tuple[str, ...]] = {
    # module under detect_secrets.plugins: the regex-based detectors we use. High-entropy strings,
    # public IPs and keyword guessing are left out: in prose they flag ordinary words and numbers.
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

_OWN: tuple[tuple[str, str], ...] = (
    ("Anthropic API key", r"sk-ant-(?:api|admin|oat|sid)[0-9]{2}-[A-Za-z0-9_\-]{20,}"),
    ("Anthropic API key", r"sk-ant-[A-Za-z0-9_\-]{20,}"),
    ("OpenAI API key", r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}"),
    ("OpenAI API key", r"(?<![A-Za-z0-9_\-])sk-[A-Za-z0-9]{32,}"),
    ("GitHub token", r"github_pat_[A-Za-z0-9_]{22,}"),
    ("Google API key", r"AIza[0-9A-Za-z_\-]{35}"),
    ("Hugging Face token", r"hf_[A-Za-z0-9]{34,}"),
    ("private key block", r"-----BEGIN[A-Z ]{0,20} PRIVATE KEY(?: BLOCK)?-----"),
    (
        "password assignment",
        r"(?i:(?<![A-Za-z0-9])(?:password|passwd|passphrase|pwd|api[_-]?key|secret[_-]?key|client[_-]?secret"
        r"|access[_-]?token|auth[_-]?token|bearer)[\"']?[ \t]*[:=][ \t]*[\"']?)"
        r"(?=[^\s\"']{6,})(?=[^\s\"']*[0-9!@#$%^&*_+=/\-])[^\s\"']+",
    ),
)

_RUN = re.compile(r"[A-Za-z0-9+/_\-]{16,}")
_MARKS = ("://", "BEGIN", "Key-File")
"""With :data:`_RUN`, what the first pass looks for; searched apart,
as plain strings: an alternation would be tried at every position."""
_KEYWORD = re.compile(r"pass|pwd|secret|token|api.?key|bearer")
_KEY_LIKE = re.compile(
    r"[0-9]|[A-Z]{4}"
)  # a digit or four capitals: "colour-blind-safe", "America/Los_Angeles" are no keys


@lru_cache(maxsize=1)
def _combined() -> tuple[re.Pattern[str], dict[str, str]]:
    """Every key format as one expression with one named group each, and what each group finds."""
    parts: list[tuple[str, str]] = []
    for module_name, classes in _DETECT_SECRETS_PLUGINS.items():
        module = importlib.import_module(f"detect_secrets.plugins.{module_name}")
        for class_name in classes:
            detector = getattr(module, class_name)
            for pattern in detector.denylist:
                flags = ("i" if pattern.flags & re.IGNORECASE else "") + ("x" if pattern.flags & re.VERBOSE else "")
                parts.append((detector.secret_type, f"(?{flags}:{pattern.pattern})" if flags else pattern.pattern))
    parts.extend(_OWN)
    kinds = {f"k{index}": kind for index, (kind, _) in enumerate(parts)}
    expression = "|".join(f"(?P<k{index}>{bounded(pattern)})" for index, (_, pattern) in enumerate(parts))
    return re.compile(expression), kinds


REACH = 512
"""The most characters one repetition in a key format reads (``+``, ``*`` and ``{m,}`` become ``{m,512}``).

Some formats (JWTs, npm tokens, OpenAI keys) are tried from every character
of a run and read it to its end: on one line of 2 MiB that was hours. Bounded,
each start reads at most this far, so a line costs what its length costs;
a longer secret is found and spanned by its first 512 characters."""
WINDOW = 4096
"""A line longer than this is read in windows of this many starts (each match may reach :data:`REACH` further):
one call of the expression never holds the interpreter for long, so the app's keys are answered meanwhile."""

_QUANTIFIER = re.compile(r"\\.|\[(?:\\.|[^\]])*\]|\{(\d+),\}|[+*][+?]?|.", re.DOTALL)


def bounded(pattern: str) -> str:
    """``pattern`` with every unbounded repetition bounded by :data:`REACH` (classes and escapes kept as they are)."""

    def bound(match: re.Match[str]) -> str:
        token = match.group()
        if match.group(1) is not None:
            return f"{{{match.group(1)},{REACH}}}"
        if token[0] in "+*":
            return ("{1," if token[0] == "+" else "{0,") + f"{REACH}}}" + token[1:]
        return token

    return _QUANTIFIER.sub(bound, pattern)


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


def masked(secret: str) -> str:
    """The first few characters and the length: enough to find it, never enough to use it."""
    keep = min(8, max(3, len(secret) // 5))
    return f"{secret[:keep]}… ({len(secret)} characters)"


def shown_secret(kind: str, secret: str) -> str:
    """A password assignment shows its key and hides its value; a key shows its first characters."""
    if kind == "password assignment":
        key, value = re.split(r"(?<=[:=])", secret, maxsplit=1)
        value = value.strip(" \t\"'")
        return f"{key.strip()} {masked(value)}"
    return masked(secret)


def find_secrets(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each secret in one line of text (a long line read in windows, :data:`WINDOW`)."""
    expression, kinds = _combined()
    if len(text) <= WINDOW + REACH:
        return [_hit(match, kinds) for match in expression.finditer(text)]
    found: list[tuple[str, int, int]] = []
    for start in range(0, len(text), WINDOW):
        for match in expression.finditer(text, start, min(len(text), start + WINDOW + REACH)):
            if match.start() >= start + WINDOW:
                break  # the next window reads it
            if not found or match.start() >= found[-1][2]:
                found.append(_hit(match, kinds))
    return found


def _hit(match: re.Match[str], kinds: dict[str, str]) -> tuple[str, int, int]:
    return (kinds[match.lastgroup] if match.lastgroup else "secret", match.start(), match.end())


def secrets_in(text: str) -> list[tuple[str, str]]:
    """(kind, what may be shown of it) of each secret in ``text`` of any number of lines: the same passes as a file."""
    file = FileText("", text.encode("utf-8", "surrogatepass"), 0)
    found = []
    for line in candidate_lines(file):
        words = file.line_text(line)
        found += [(kind, shown_secret(kind, words[start:end])) for kind, start, end in find_secrets(words)]
    return found


def secret_spans(data: bytes) -> list[tuple[str, int, int]]:
    """(kind, byte offset, byte length) of each secret in ``data``, of any number of lines: the same passes as a file.

    Only the secret itself: a password assignment's value, not its key. Bytes
    that are not UTF-8 keep their place (each stands for itself).
    """
    file = FileText("", data, len(data))
    lines = data.split(b"\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    found = []
    for number in candidate_lines(file):
        text = lines[number - 1].decode("utf-8", "surrogateescape")
        for kind, start, end in find_secrets(text):
            if kind == "password assignment":
                key = re.match(r"[^:=]*[:=][ \t]*[\"']?", text[start:end])
                start += key.end() if key else 0
            head = len(text[:start].encode("utf-8", "surrogateescape"))
            found.append((kind, starts[number - 1] + head, len(text[start:end].encode("utf-8", "surrogateescape"))))
    return found
