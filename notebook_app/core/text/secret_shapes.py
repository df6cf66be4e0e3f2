"""What the secret finder (:mod:`.secrets`) knows of secrets' shapes, with its settings pinned.

detect-secrets' regex plugins (a list Yelp keeps up to date with the providers) and the vendor shapes it misses,
each a kind in words and a pattern (prefixes and lengths as each vendor documents them), made one expression; and
detect-secrets' own entropy measures at the limits a value given a secret's name must pass. detect-secrets is
imported by the first call that needs it, never with this module.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

DETECT_SECRETS_PLUGINS: dict[str, tuple[str, ...]] = {
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

OWN_SHAPES: tuple[tuple[str, str], ...] = (
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


NEEDLES = {"NPM tokens": "/:_authToken="}
"""A literal a shape cannot match without: on a line without it the shape is not searched (its one expression is
still asked where another shape matches). detect-secrets' npm shape reads 512 characters on from every ``//``, which
was half the doctor's time on a 2 MiB line of URLs."""


@lru_cache(maxsize=1)
def combined() -> tuple[re.Pattern[str], dict[str, tuple[str, re.Pattern[str]]]]:
    """Every key format as one expression with one named group each, and what each group finds (and its pattern)."""
    parts: list[tuple[str, str, int]] = []
    for module_name, classes in DETECT_SECRETS_PLUGINS.items():
        module = importlib.import_module(f"detect_secrets.plugins.{module_name}")
        for class_name in classes:
            detector = getattr(module, class_name)
            for pattern in detector.denylist:
                parts.append((detector.secret_type, pattern.pattern, pattern.flags & (re.IGNORECASE | re.VERBOSE)))
    parts.extend((kind, pattern, 0) for kind, pattern in OWN_SHAPES)
    kinds = {
        f"k{index}": (kind, re.compile(bounded(pattern), flags)) for index, (kind, pattern, flags) in enumerate(parts)
    }
    expression = "|".join(
        f"(?P<k{index}>{bounded(_inline(pattern, flags))})" for index, (_, pattern, flags) in enumerate(parts)
    )
    return re.compile(expression), kinds


def _inline(pattern: str, flags: int) -> str:
    letters = ("i" if flags & re.IGNORECASE else "") + ("x" if flags & re.VERBOSE else "")
    return f"(?{letters}:{pattern})" if letters else pattern


@lru_cache(maxsize=1)
def entropy() -> tuple[HexHighEntropyString, Base64HighEntropyString]:
    """detect-secrets' entropy measures, at the limits pinned above (loaded with the first value worth measuring)."""
    from detect_secrets.plugins.high_entropy_strings import (  # lazy: detect-secrets
        Base64HighEntropyString,
        HexHighEntropyString,
    )

    return HexHighEntropyString(limit=HEX_LIMIT), Base64HighEntropyString(limit=BASE64_LIMIT)


REACH = 512
"""The most characters one repetition in a key format reads (``+``, ``*`` and ``{m,}`` become ``{m,512}``).

Some formats (JWTs, npm tokens, OpenAI keys) are tried from every character
of a run and read it to its end: on one line of 2 MiB that was hours. Bounded,
each start reads at most this far, so a line costs what its length costs;
a longer secret is found by its first 512 characters (and spanned to its end
by the token's own characters)."""

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


def leftmost(
    expression: re.Pattern[str], shapes: list[re.Pattern[str]], text: str, pos: int, endpos: int
) -> Iterator[re.Match[str]]:
    """``expression.finditer(text, pos, endpos)``, where ``expression`` is the alternation of ``shapes``: each shape
    searches on its own for where it next matches, and the expression is asked only there.

    The same matches: the expression's leftmost match starts where the first of its shapes does, and there it
    takes the first alternative that matches. Asked at every character, the one expression of 79 shapes cost
    about 15 µs each (a 2 MiB line of token characters took many seconds); each shape alone skips to its prefix.
    """
    ahead = [shape.search(text, pos, endpos) for shape in shapes]
    while True:
        starts = [found.start() for found in ahead if found is not None]
        if not starts:
            return
        match = expression.match(text, min(starts), endpos) or expression.search(text, min(starts), endpos)
        if match is None:
            return
        yield match
        pos = max(match.end(), match.start() + 1)
        ahead = [
            found if found is None or found.start() >= pos else shape.search(text, pos, endpos)
            for found, shape in zip(ahead, shapes, strict=True)
        ]
