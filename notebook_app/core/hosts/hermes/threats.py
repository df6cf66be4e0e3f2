"""Which of Hermes Agent 0.19.0's threat rules an entry of its memory meets, in our own words.

Hermes scans every memory entry it loads and every text its memory tool adds
or puts in with a set of rules (its "strict" scope): an entry that meets one
loads as a ``[BLOCKED: …]`` placeholder, and the tool refuses the text. The
rules below say what each of its rules looks for, named by the id Hermes
reports, in the order Hermes reports them; ``scan/threat-patterns.json`` (made
by ``make hosts`` from Hermes's own scan of ``tests/hermes_threats.py``)
proves every one, met and missed. Like Hermes, we look only at the first
65,536 characters, fold compatibility forms (NFKC: full-width letters count as
plain ones) and ignore case. The invisible characters are in
``hermes-0.19.0.toml`` (``blocked_characters``); their findings come first.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

SCANNED = 65_536
"""Hermes looks no further into an entry than this many characters."""

_FEW_WORDS = r"(?:\w+\s+){0,8}"
"""Up to eight words (each with the space after it) that Hermes lets stand between the words it looks for."""


def _one_of(*words: str) -> str:
    return "(?:" + "|".join(words) + ")"


def _line(most: int) -> str:
    """Up to ``most`` characters of the same line."""
    return rf"[^\n]{{0,{most}}}"


def _words(*parts: str) -> str:
    """``parts`` in order, each after whitespace, with a few words allowed between them."""
    return (r"\s+" + _FEW_WORDS).join(parts)


_EDIT = _one_of("update", "modify", "edit", "write", "change", "append", r"add\s+to")
_SECRET_NAME = _one_of("KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "API")

RULES: tuple[tuple[str, str], ...] = (
    # telling the model to drop what it was told
    ("prompt_injection", _words("ignore", _one_of("previous", "all", "above", "prior"), "instructions")),
    ("sys_prompt_override", r"system\s+prompt\s+override"),
    (
        "disregard_rules",
        _words("disregard", _one_of("your", "all", "any"), _one_of("instructions", "rules", "guidelines")),
    ),
    (
        "bypass_restrictions",
        r"act\s+as\s+"
        + _words(
            _one_of("if", "though"),
            "you",
            _one_of(r"have\s+no", r"don't\s+have"),
            _one_of("restrictions", "limits", "rules"),
        ),
    ),
    (
        "html_comment_injection",
        "<!--[^>]{0,512}" + _one_of("ignore", "override", "system", "secret", "hidden") + "[^>]{0,512}-->",
    ),
    ("hidden_div", r"<\s*div\s+style\s*=\s*[\"'][^>]{0,2048}display\s*:\s*none"),
    (
        "translate_execute",
        r"translate\s+" + _line(512) + r"\s+into\s+" + _line(512) + r"\s+and\s+" + _one_of("execute", "run", "eval"),
    ),
    ("deception_hide", r"do\s+not\s+" + _words(_FEW_WORDS + "tell", "the") + r"\s+user"),
    # giving the model another identity
    ("role_hijack", r"you\s+are\s+" + _FEW_WORDS + r"now\s+" + _one_of("a", "an", "the") + r"\s+"),
    ("role_pretend", r"pretend\s+" + _FEW_WORDS + _one_of(r"you\s+are", r"to\s+be") + r"\s+"),
    ("leak_system_prompt", _words("output", _one_of("system", "initial")) + r"\s+prompt"),
    (
        "remove_filters",
        _one_of("respond", "answer", "reply")
        + r"\s+"
        + _words("without", _one_of("restrictions", "limitations", "filters", "safety")),
    ),
    ("fake_update", r"you\s+have\s+" + _words("been", _one_of("updated", "upgraded", "patched")) + r"\s+to"),
    ("identity_override", r"\bname\s+yourself\s+\w+"),
    # a command-and-control worm's words
    ("c2_node_registration", r"register\s+(?:as\s+)?a?\s*node"),
    ("c2_heartbeat", _one_of("heartbeat", "beacon", r"check[\s\-]?in") + r"\s+" + _one_of("to", "with") + r"\s+"),
    ("c2_task_pull", r"pull\s+(?:down\s+)?(?:new\s+)?task(?:ing|s)?\b"),
    ("c2_network_connect", r"connect\s+to\s+the\s+network\b"),
    ("forced_action", r"you\s+must\s+(?:\w+\s+){0,3}" + _one_of("register", "connect", "report", "beacon") + r"\b"),
    ("anti_forensic_oneliner", r"only\s+use\s+one[\s\-]?liners?\b"),
    ("anti_forensic_disk", _words("never", _one_of("create", "write"), _one_of("script", "file"), "disk")),
    (
        "env_var_unset_agent",
        r"unset\s+\w*" + _one_of("CLAUDE", "CODEX", "HERMES", "AGENT", "OPENAI", "ANTHROPIC") + r"\w*",
    ),
    (
        "known_c2_framework",
        r"\b" + _one_of(r"cobalt\s*strike", "sliver", "havoc", "mythic", "metasploit", "brainworm") + r"\b",
    ),
    ("c2_explicit", r"\bc2\s+" + _one_of("server", "channel", "infrastructure", "beacon") + r"\b"),
    ("c2_explicit_long", r"\bcommand\s+and\s+control\b"),
    # sending secrets away
    ("exfil_curl", r"curl\s+" + _line(2048) + r"\$\{?\w*" + _SECRET_NAME),
    ("exfil_wget", r"wget\s+" + _line(2048) + r"\$\{?\w*" + _SECRET_NAME),
    (
        "read_secrets",
        r"cat\s+" + _line(2048) + _one_of(r"\.env", "credentials", r"\.netrc", r"\.pgpass", r"\.npmrc", r"\.pypirc"),
    ),
    (
        "send_to_url",
        _one_of("send", "post", "upload", "transmit")
        + r"\s+"
        + _line(2048)
        + r"\s+"
        + _one_of("to", "at")
        + r"\s+https?://",
    ),
    (
        "context_exfil",
        _one_of("include", "output", "print", "share")
        + r"\s+"
        + _FEW_WORDS
        + _one_of("conversation", r"chat\s+history", r"previous\s+messages", r"full\s+context", r"entire\s+context"),
    ),
    # staying in: keys, the host's own settings, other agents' files
    ("ssh_backdoor", "authorized_keys"),
    ("ssh_access", _one_of(r"\$HOME", "~") + r"/\.ssh"),
    ("hermes_env", _one_of(r"\$HOME", "~") + r"/\.hermes/\.env"),
    (
        "agent_config_mod",
        _EDIT + r"\s+" + _line(2048) + _one_of(r"AGENTS\.md", r"CLAUDE\.md", r"\.cursorrules", r"\.clinerules"),
    ),
    ("hermes_config_mod", _EDIT + r"\s+" + _line(2048) + r"\.hermes/" + _one_of(r"config\.yaml", r"SOUL\.md")),
    # a secret written into the entry
    (
        "hardcoded_secret",
        _one_of(r"api[_-]?key", "token", "secret", "password") + r"\s*[=:]\s*[\"'][A-Za-z0-9+/=_-]{20,}",
    ),
)
"""Each of Hermes's threat rules: the id it reports, and what it looks for (case ignored)."""


@cache
def _compiled() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in RULES)


def threat_rules(text: str) -> list[str]:
    """The ids of Hermes's threat rules that ``text`` meets, in Hermes's order; [] for none. Linear in the
    text's length: only its first :data:`SCANNED` characters are looked at, and every gap is bounded."""
    if not text:
        return []
    folded = unicodedata.normalize("NFKC", text[:SCANNED])
    return [name for name, rule in _compiled() if rule.search(folded)]
