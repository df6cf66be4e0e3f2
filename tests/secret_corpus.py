"""Fake secrets of real shapes, one per kind a scanner should know, built at test time from fragments.

No fake secret is ever written whole in the source (push protection would
take it for a real one, and so would a reader's scanner): each is a vendor's
prefix cut in two and a body drawn from a seeded random generator, so it is
the same on every run and as random as a real key. A case is the text an
agent or a person would write around it, and the part that is the secret
(what a redaction must cover whole).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
HEX = "0123456789abcdef"
ALNUM = LOWER + UPPER + DIGITS
URLSAFE = ALNUM + "-_"
BASE64 = ALNUM + "+/"


@dataclass(frozen=True)
class Case:
    kind: str
    """What the case is (its name in a test's id)."""
    text: str
    """An entry holding it, as it would be written."""
    secret: str
    """The secret itself: all of it must be covered by a redaction."""


def chars(alphabet: str, count: int, seed: str) -> str:
    """``count`` characters of ``alphabet`` drawn by a generator seeded with ``seed``: fixed, and random-looking."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(count))


def _join(*parts: str) -> str:
    return "".join(parts)


def _cases() -> list[tuple[str, str, str]]:
    """(kind, the entry with ``{}`` where the secret goes, the secret)."""
    aws_id = _join("AK", "IA", chars(UPPER + "234567", 16, "aws-id"))
    aws_secret = chars(BASE64, 40, "aws-secret")
    key_body = " ".join(chars(BASE64, 64, f"rsa-{n}") for n in range(3))
    return [
        ("aws access key id", "deploy bucket reads with {}", aws_id),
        ("aws secret by env name", _join("AWS_SECRET", "_ACCESS_KEY={}"), aws_secret),
        ("aws secret beside its id", _join("aws ", aws_id, " secret {}"), aws_secret),
        ("aws credentials file line", _join("aws_secret", "_access_key = {}"), aws_secret),
        ("github classic token", "wiki bot uses {}", _join("gh", "p_", chars(ALNUM, 36, "ghp"))),
        ("github oauth token", "oauth app token {}", _join("gh", "o_", chars(ALNUM, 36, "gho"))),
        (
            "github fine-grained token",
            "ci token {}",
            _join("github_", "pat_", chars(ALNUM, 22, "gpat1"), "_", chars(ALNUM, 59, "gpat2")),
        ),
        ("gitlab token", "mirror with {}", _join("gl", "pat-", chars(URLSAFE, 20, "glpat"))),
        (
            "slack bot token",
            "slack bot {}",
            _join("xo", "xb-", chars(DIGITS, 12, "sl1"), "-", chars(DIGITS, 12, "sl2"), "-", chars(ALNUM, 24, "sl3")),
        ),
        (
            "slack webhook",
            "alerts post to {}",
            _join(
                "https://hooks.",
                "slack.com/services/T",
                chars(UPPER + DIGITS, 8, "wh1"),
                "/B",
                chars(UPPER + DIGITS, 8, "wh2"),
                "/",
                chars(ALNUM, 24, "wh3"),
            ),
        ),
        ("stripe live key, long", "- stripe {}", _join("sk_", "live_", chars(ALNUM, 99, "stripe-live"))),
        ("stripe test key", "test payments with {}", _join("sk_", "test_", chars(ALNUM, 24, "stripe-test"))),
        ("openai project key", "openai key {}", _join("sk-", "proj-", chars(URLSAFE, 120, "oai-proj"))),
        (
            "openai legacy key",
            "old openai key {}",
            _join("sk-", chars(ALNUM, 20, "oai1"), "T3Blbk", "FJ", chars(ALNUM, 20, "oai2")),
        ),
        ("anthropic key", "lab key {}", _join("sk-", "ant-", "api03-", chars(URLSAFE, 93, "ant"), "AA")),
        ("google api key", "maps key {}", _join("AI", "za", chars(URLSAFE, 35, "gcp"))),
        ("google oauth client secret", "oauth client {}", _join("GOC", "SPX-", chars(URLSAFE, 28, "gocspx"))),
        ("hugging face token", "hub token {}", _join("hf", "_", chars(LOWER + UPPER, 34, "hf"))),
        ("twilio api key", "sms via {}", _join("S", "K", chars(HEX, 32, "twilio"))),
        (
            "sendgrid key",
            "mail via {}",
            _join("SG", ".", chars(URLSAFE, 22, "sg1"), ".", chars(URLSAFE, 43, "sg2")),
        ),
        ("mailchimp key", "newsletter key {}", _join(chars(HEX, 32, "mc"), "-us", "12")),
        ("npm token", "publish with {}", _join("np", "m_", chars(ALNUM, 36, "npm"))),
        ("pypi token", "upload with {}", _join("pypi-", "AgEIcHlwaS5vcmc", chars(URLSAFE, 80, "pypi"))),
        (
            "discord bot token",
            "discord bot {}",
            _join("M", chars(ALNUM, 23, "dc1"), ".", chars(ALNUM, 6, "dc2"), ".", chars(ALNUM, 27, "dc3")),
        ),
        ("telegram bot token", "telegram bot {}", _join(chars(DIGITS, 10, "tg1"), ":", chars(URLSAFE, 35, "tg2"))),
        (
            "json web token",
            "session cookie {}",
            _join("ey", "J", chars(URLSAFE, 36, "jwt1"), ".ey", "J", chars(URLSAFE, 60, "jwt2"), ".")
            + chars(URLSAFE, 43, "jwt3"),
        ),
        (
            "rsa private key block",
            "server key {}",
            _join("-----BEGIN RSA ", "PRIVATE KEY----- ", key_body, " -----END RSA ", "PRIVATE KEY-----"),
        ),
        (
            "openssh private key block",
            "ssh key {} (rotate yearly)",
            _join("-----BEGIN OPENSSH ", "PRIVATE KEY----- ", key_body, " -----END OPENSSH ", "PRIVATE KEY-----"),
        ),
        (
            "password in a url",
            _join("clone from https://deploy:", "{}@git.example.org/repo"),
            chars(ALNUM, 16, "basic"),
        ),
        (
            "azure storage key",
            "blob storage {}",
            _join("Account", "Key=", chars(BASE64, 86, "azure"), "=="),
        ),
        ("square oauth secret", "square app {}", _join("sq0", "csp-", chars(URLSAFE, 43, "square"))),
        ("password assignment", "router password = {}", chars(ALNUM + "!#%", 14, "pw")),
        ("token assignment", "api_token: {}", chars(HEX, 32, "generic-token")),
        ("client secret assignment", "client_secret={}", chars(ALNUM, 32, "generic-secret")),
        ("digitalocean token", "droplets via {}", _join("dop_", "v1_", chars(HEX, 64, "do"))),
        ("shopify token", "store admin {}", _join("shp", "at_", chars(HEX, 32, "shopify"))),
        ("databricks token", "warehouse {}", _join("dap", "i", chars(HEX, 32, "databricks"))),
        ("linear api key", "issues via {}", _join("lin_", "api_", chars(ALNUM, 40, "linear"))),
        ("postman api key", "collections {}", _join("PM", "AK-", chars(HEX, 24, "pm1"), "-", chars(HEX, 34, "pm2"))),
        ("groq api key", "fast model via {}", _join("gs", "k_", chars(ALNUM, 52, "groq"))),
        ("perplexity api key", "search via {}", _join("pp", "lx-", chars(ALNUM, 48, "pplx"))),
        ("vault token", "vault login {}", _join("hv", "s.", chars(URLSAFE, 95, "vault"))),
        (
            "age secret key",
            "backups {}",
            _join("AGE-SECRET", "-KEY-1", chars("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, "age")),
        ),
        ("doppler token", "config via {}", _join("dp.", "pt.", chars(ALNUM, 43, "doppler"))),
        ("docker hub token", "registry login {}", _join("dckr_", "pat_", chars(URLSAFE, 27, "docker"))),
    ]


def corpus() -> list[Case]:
    """Every case, each text holding its secret once."""
    return [Case(kind, template.format(secret), secret) for kind, template, secret in _cases()]


PROSE = """\
# Notes on the garden project

- Prefers metric units and 24-hour times; writes dates as 2026-12-07.
- The password manager holds every login: never ask for one, never store one here.
- Token budget: 200 per answer; keep summaries under 120 words.
- The key to the shed is under the blue pot (the spare is with Ana).
- Auth is handled by the identity team; see https://example.org/docs/sso-setup for the flow.
- Secret Santa draw on 2026-12-01: Priya gives to Ana, Ana to Kip.
- Uses oauth2-device-flow for the CLI login; tokens expire after 3600 seconds.
- Build ids look like build-2026.12.07-r3; release notes at docs/releases/v1.4.2.md.
- Keyboard: ZSA Moonlander Mk2; layout colemak-dh with a key-repeat of 35 per second.
- The sha256 of the tarball is checked by the release job, never by hand.
- Credentials rotate quarterly; the checklist lives in ops/rotation.md.
- Bearer of good news on Fridays: the weekly digest goes out at 16:00 UTC.
"""
"""Ordinary notes full of the words secrets are named by: not one secret in them."""
