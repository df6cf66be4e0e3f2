"""The host corpus: about 50 persona homes, built the same way every time.

One generator shared by ``make hosts`` (which runs each host's own code on
every case and writes the goldens in ``tests/hosts/goldens/``) and by
``make test`` (which builds the corpus again in a temporary folder and checks
our loaders against those goldens). Nothing built here is committed.

A case is a folder ``<case>/`` holding ``home/`` (the toolnexus home, the
OpenClaw workspace, ``$HERMES_HOME``: every host's files side by side, each
host reads its own) and, for link cases, ``outside/``. Hermes keeps its memory
in ``home/memories/``; the flat hosts read ``home/MEMORY.md``. A case that
sets ``cwd`` gives Hermes ``home/`` as its working directory for the project
context file. Only the standard library is used: the drivers import this
module inside each host's own virtual environment.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

MIB2 = 2 * 1024 * 1024
DIR = object()
"""A directory stands where the file would be."""


@dataclass(frozen=True)
class Link:
    target: str
    """Relative to the link's folder (``../outside/x`` leaves the home)."""


@dataclass(frozen=True)
class Case:
    name: str
    about: str
    files: dict[str, object] = field(default_factory=dict)
    """Path under the case folder (``home/SOUL.md``) -> bytes, :data:`DIR` or :class:`Link`."""
    cwd: bool = False
    hosts: tuple[str, ...] = ()
    """The hosts whose goldens hold this case (empty: every host); a host's own config is its alone."""


def _text(count: int, seed: str = "line") -> str:
    """``count`` characters of numbered ASCII lines, deterministic, ending without a newline."""
    out, n = [], 0
    while sum(map(len, out)) < count:
        out.append(f"{seed} {n:05d} of the corpus text.\n")
        n += 1
    return "".join(out)[:count].rstrip().ljust(count, "x")


def _mixed(count: int) -> str:
    """``count`` code points mixing ASCII, two- and three-byte and astral characters."""
    unit = "aé€😀b—ğ🎉"
    return (unit * (count // len(unit) + 1))[:count]


def _entries(*items: str) -> bytes:
    return "\n§\n".join(items).encode()


def _memory(files: dict[str, object], memory: bytes | object | None = None, user: bytes | object | None = None) -> None:
    """The same store at Hermes's place and at the flat hosts' place."""
    for name, data in (("MEMORY.md", memory), ("USER.md", user)):
        if data is not None:
            files[f"home/memories/{name}"] = data
            files[f"home/{name}"] = data


def _soul(data: object, **memory: object) -> dict[str, object]:
    files: dict[str, object] = {"home/SOUL.md": data}
    _memory(files, **memory)  # type: ignore[arg-type]
    return files


def cases(host: str | None = None) -> list[Case]:
    """Every case (``host``: those whose goldens that host's folder holds)."""
    return [case for case in _all_cases() if host is None or not case.hosts or host in case.hosts]


def _all_cases() -> list[Case]:
    long_entries = [f"Entry {i:03d}: " + _text(90, f"fact{i}") for i in range(40)]
    out = [
        Case("empty-home", "nothing at all: Hermes seeds its default SOUL.md"),
        Case(
            "small",
            "a soul, two memory entries and a user entry",
            _soul(
                b"I am Ada, calm and precise.\n",
                memory=_entries("Prefers tea.", "Lives in Lyon."),
                user=_entries("Name: Sam"),
            ),
        ),
        Case("soul-cap-minus-1", "SOUL.md of 19,999 characters", _soul(_text(19999).encode())),
        Case("soul-cap", "SOUL.md of exactly 20,000 characters", _soul(_text(20000).encode())),
        Case("soul-cap-plus-1", "SOUL.md of 20,001 characters: the smallest cut", _soul(_text(20001).encode())),
        Case(
            "soul-multibyte-cut",
            "30,000 mixed code points: multi-byte and astral characters at both cut points",
            _soul(_mixed(30000).encode()),
        ),
        Case("soul-astral", "20,001 astral characters", _soul(("😀" * 20001).encode())),
        Case(
            "soul-over-2mib",
            "SOUL.md over 2 MiB, a 2-byte character split by the byte cap",
            _soul(("a" * (MIB2 - 1) + "é" * 10).encode()),
        ),
        Case("soul-2mib-exact", "SOUL.md of exactly 2 MiB", _soul(b"b" * MIB2)),
        Case("soul-2mib-plus-1", "SOUL.md of 2 MiB + 1 byte", _soul(b"c" * (MIB2 + 1))),
        Case(
            "soul-crlf", "CRLF line ends and a lone CR", _soul(b"First line.\r\nSecond line.\r\n\r\nThird\rline.\r\n")
        ),
        Case("soul-bom", "a UTF-8 byte order mark", _soul("\ufeffI begin with a BOM.\n".encode())),
        Case(
            "soul-invalid-utf8",
            "SOUL.md with a byte that is not UTF-8",
            _soul(b"Good start \xff bad byte.\n", memory=_entries("Still here.")),
        ),
        Case(
            "soul-empty",
            "an empty SOUL.md and a whitespace-only USER.md",
            _soul(b"", memory=_entries("One."), user=b"  \n\n "),
        ),
        Case("soul-directory", "a directory in place of SOUL.md and of MEMORY.md", _soul(DIR, memory=DIR)),
        Case(
            "soul-link-inside",
            "SOUL.md a link to a file inside the home",
            {"home/notes/real-soul.md": b"I live in notes/.\n", "home/SOUL.md": Link("notes/real-soul.md")},
        ),
        Case(
            "soul-link-outside",
            "SOUL.md a link to a file outside the home",
            {"outside/soul.md": b"I live outside.\n", "home/SOUL.md": Link("../outside/soul.md")},
        ),
        Case("soul-link-dangling", "SOUL.md a link to nothing", {"home/SOUL.md": Link("gone.md")}),
        Case(
            "memory-duplicates",
            "§ entries with duplicates, blank entries and padding",
            _soul(
                b"Soul.",
                memory=b"\n  Alpha  \n\xc2\xa7\nBeta\n\xc2\xa7\n\n\xc2\xa7\nAlpha\n\xc2\xa7\nGamma \xc2\xa7 inline\n",
                user=_entries("U1", "U1", "U2"),
            ),
        ),
        Case(
            "memory-at-limit",
            "MEMORY.md 2,200 and USER.md 1,375 characters of entries",
            _soul(b"Soul.", memory=_text(2200, "m").encode(), user=_text(1375, "u").encode()),
        ),
        Case(
            "memory-limit-plus-1",
            "MEMORY.md 2,201 and USER.md 1,376 characters",
            _soul(b"Soul.", memory=_text(2201, "m").encode(), user=_text(1376, "u").encode()),
        ),
        Case(
            "memory-over-limit",
            "40 long entries: MEMORY.md far over its limit, USER.md over 4,000",
            _soul(b"Soul.", memory=_entries(*long_entries), user=_text(4001, "u").encode()),
        ),
        Case("memory-crlf", "§ entries separated with CRLF", _soul(b"Soul.", memory=b"One\r\n\xc2\xa7\r\nTwo\r\n")),
        Case(
            "memory-invalid-utf8",
            "MEMORY.md with a byte that is not UTF-8",
            _soul(b"Soul.", memory=b"Fine\n\xc2\xa7\nbad \xfe byte", user=_entries("U")),
        ),
        Case(
            "memory-multibyte",
            "entries of multi-byte and astral characters",
            _soul(b"Soul.", memory=_entries("é" * 1000, "😀" * 1300), user=_entries("ğ—€" * 700)),
        ),
        Case(
            "ctx-dot-hermes",
            ".hermes.md with YAML front matter wins over AGENTS.md",
            {
                "home/SOUL.md": b"Soul.",
                "home/.hermes.md": b"---\nmodel: x\n---\n\nUse tabs.\n",
                "home/AGENTS.md": b"Agents rules.\n",
            },
            cwd=True,
        ),
        Case(
            "ctx-HERMES",
            "HERMES.md with a BOM and front matter",
            {
                "home/HERMES.md": "\ufeff---\ntitle: t\n---\nBody after BOM.\n".encode(),
                "home/CLAUDE.md": b"Claude rules.\n",
            },
            cwd=True,
        ),
        Case(
            "ctx-frontmatter-only",
            ".hermes.md that is only front matter",
            {"home/.hermes.md": b"---\nonly: matter\n---\n"},
            cwd=True,
        ),
        Case(
            "ctx-agents",
            "AGENTS.md wins over CLAUDE.md and .cursorrules",
            {
                "home/AGENTS.md": b"# Rules\n\nBe brief.\n",
                "home/CLAUDE.md": b"Claude.\n",
                "home/.cursorrules": b"Cursor.\n",
            },
            cwd=True,
        ),
        Case("ctx-agents-lower", "agents.md in lower case", {"home/agents.md": b"lower agents\n"}, cwd=True),
        Case(
            "ctx-agents-empty",
            "an empty AGENTS.md falls through to CLAUDE.md",
            {"home/AGENTS.md": b"\n\n", "home/CLAUDE.md": b"Claude after empty agents.\n"},
            cwd=True,
        ),
        Case("ctx-claude", "CLAUDE.md alone", {"home/CLAUDE.md": b"Claude alone.\n"}, cwd=True),
        Case(
            "ctx-cursorrules",
            ".cursorrules with two .cursor/rules/*.mdc",
            {
                "home/.cursorrules": b"Cursor rules.\n",
                "home/.cursor/rules/b.mdc": b"B rule.\n",
                "home/.cursor/rules/a.mdc": b"A rule.\n",
            },
            cwd=True,
        ),
        Case(
            "ctx-agents-long",
            "AGENTS.md of 30,000 mixed characters: cut with its heading inside the cap",
            {"home/AGENTS.md": _mixed(30000).encode()},
            cwd=True,
        ),
        Case(
            "ctx-agents-cap",
            "AGENTS.md whose heading + text is exactly 20,000",
            {"home/AGENTS.md": _text(20000 - len("## AGENTS.md\n\n")).encode()},
            cwd=True,
        ),
        Case(
            "ctx-agents-cap-plus-1",
            "AGENTS.md whose heading + text is 20,001",
            {"home/AGENTS.md": _text(20001 - len("## AGENTS.md\n\n")).encode()},
            cwd=True,
        ),
        Case(
            "flat-all-seven",
            "all seven flat bootstrap files, one a link inside",
            {
                **{
                    f"home/{n}": f"{n} body.\n".encode()
                    for n in ("AGENTS.md", "SOUL.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md")
                },
                "home/notes/user.md": b"User via link.\n",
                "home/USER.md": Link("notes/user.md"),
            },
        ),
    ]
    out += _openclaw_cases()
    out += claude_code_cases()
    out += _hermes_config_cases()
    return out


# --- Hermes's config.yaml (issue 21): the memory limits and switches, the context-file cap,
# a config that is empty or not YAML. Hermes only: no other host reads it.
def _hermes_config_cases() -> list[Case]:
    memory = _entries("Prefers tea with lemon and no sugar at all.", "Lives in Lyon, near the river.", "Plays go.")
    user = _entries("Name: Sam", "Timezone: Europe/Paris, works late.")

    def case(name: str, about: str, config: bytes, **files: bytes) -> Case:
        return Case(
            name,
            about,
            {"home/config.yaml": config, **_soul(b"Soul.", memory=memory, user=user), **files},
            hosts=("hermes",),
        )

    return [
        case(
            "hermes-config-limits",
            "config.yaml sets both memory limits below what the files hold",
            b"memory:\n  memory_char_limit: 60\n  user_char_limit: 20\n",
        ),
        case("hermes-config-memory-off", "config.yaml switches MEMORY.md off", b"memory:\n  memory_enabled: false\n"),
        case("hermes-config-user-off", "config.yaml switches USER.md off", b"memory:\n  user_profile_enabled: false\n"),
        case(
            "hermes-config-both-off",
            "config.yaml switches both memory blocks off",
            b"memory:\n  memory_enabled: false\n  user_profile_enabled: false\n",
        ),
        case(
            "hermes-config-context-cap",
            "config.yaml's context_file_max_chars cuts a SOUL.md of 1,500 characters at 1,000",
            b"context_file_max_chars: 1000\n",
            **{"home/SOUL.md": _text(1500).encode()},
        ),
        case("hermes-config-empty", "an empty config.yaml", b""),
        case("hermes-config-broken", "a config.yaml that is not YAML", b"memory: [unclosed\n  - x: {\n"),
    ]


# --- OpenClaw (issue 21): its caps and ±1, the USER.md cap, the total caps, AGENTS.md's
# policy digest, BOOTSTRAP.md and the setup-completed signal, memory.md, daily notes.
def _policy(count: int) -> str:
    """``count`` UTF-16 units of AGENTS.md rules: headings, bullets, prose, 'must'/'never' lines, a code fence, CJK."""
    lines, n = [], 0
    while sum(len(line) + 1 for line in lines) < count:
        lines += [
            f"## Section {n:04d}",
            f"Some prose about part {n:04d} of the work.",
            f"- You must run the tests {n:04d}.",
            f"Never push to main without review {n:04d} 禁止.",
            "```",
            f"code {n:04d}",
            "```",
            "",
        ]
        n += 1
    text = "\n".join(lines)
    return text[:count]


def _openclaw_cases() -> list[Case]:
    big = {
        name: _text(25000, name.split(".")[0].lower()).encode()
        for name in (
            "AGENTS.md",
            "SOUL.md",
            "TOOLS.md",
            "IDENTITY.md",
            "USER.md",
            "HEARTBEAT.md",
            "BOOTSTRAP.md",
            "MEMORY.md",
        )
    }
    return [
        Case(
            "oc-agents-cap", "AGENTS.md of exactly 20,000 characters", {"home/AGENTS.md": _text(20000, "rule").encode()}
        ),
        Case(
            "oc-agents-cap-plus-1",
            "AGENTS.md of 20,001 characters: the policy-digest cut",
            {"home/AGENTS.md": _text(20001, "rule").encode()},
        ),
        Case(
            "oc-agents-policy",
            "AGENTS.md of 30,000 characters of rules: headings, bullets, must/never lines, CJK",
            {"home/AGENTS.md": _policy(30000).encode()},
        ),
        Case(
            "oc-agents-policy-astral",
            "AGENTS.md of rules with astral characters at the cut points",
            {"home/AGENTS.md": ("😀" * 4500 + _policy(16000) + "🎉" * 4500).encode()},
        ),
        Case("oc-file-12000", "SOUL.md of exactly 12,000 characters", _soul(_text(12000).encode())),
        Case("oc-file-12001", "SOUL.md of 12,001 characters", _soul(_text(12001).encode())),
        Case("oc-user-4000", "USER.md of exactly 4,000 characters", {"home/USER.md": _text(4000, "u").encode()}),
        Case("oc-user-4001", "USER.md of 4,001 characters", {"home/USER.md": _text(4001, "u").encode()}),
        Case(
            "oc-total-over",
            "all eight bootstrap files of 25,000 characters: every total cap is reached",
            {f"home/{name}": data for name, data in big.items()},
        ),
        Case(
            "oc-total-edge",
            "three files of 20,000 and a fourth: the total cap of 60,000 exactly used up",
            {
                "home/AGENTS.md": _text(20000, "a").encode(),
                "home/SOUL.md": _text(20000, "s").encode(),
                "home/TOOLS.md": _text(20000, "t").encode(),
                "home/IDENTITY.md": b"Identity after the cap.\n",
            },
        ),
        Case(
            "oc-bootstrap",
            "BOOTSTRAP.md in a workspace whose setup is not completed",
            {"home/AGENTS.md": b"Agents.\n", "home/BOOTSTRAP.md": b"First run: ask the user who they are.\n"},
        ),
        Case(
            "oc-bootstrap-completed",
            "BOOTSTRAP.md and a workspace state saying setup is completed",
            {
                "home/AGENTS.md": b"Agents.\n",
                "home/BOOTSTRAP.md": b"First run: ask the user who they are.\n",
                "home/.openclaw/workspace-state.json": (
                    b'{"version": 1, "bootstrapSeededAt": "2026-01-01T00:00:00.000Z", '
                    b'"setupCompletedAt": "2026-01-02T00:00:00.000Z"}\n'
                ),
            },
        ),
        Case(
            "oc-memory-lower",
            "memory.md in lower case and daily notes in memory/",
            {"home/memory.md": b"lower-case memory\n", "home/memory/2026-01-01.md": b"A daily note.\n"},
        ),
        Case(
            "oc-trailing-space",
            "SOUL.md with trailing spaces and newlines, leading blank lines kept",
            _soul(b"\n\n  Soul with space.  \n\n\t\n"),
        ),
    ]


def build(folder: str | os.PathLike[str], only: list[str] | None = None) -> list[Case]:
    """Write every case (or those named in ``only``) under ``folder``; returns the cases written."""
    root = Path(folder)
    chosen = [c for c in cases() if only is None or c.name in only]
    for case in chosen:
        base = root / case.name
        (base / "home").mkdir(parents=True, exist_ok=True)
        for rel, data in case.files.items():
            path = base / placed(case, base, rel)
            path.parent.mkdir(parents=True, exist_ok=True)
            if data is DIR:
                path.mkdir(exist_ok=True)
            elif isinstance(data, Link):
                os.symlink(data.target, path)
            else:
                path.write_bytes(data)  # type: ignore[arg-type]
    return chosen


def tree(folder: str | os.PathLike[str]) -> dict[str, str]:
    """Every entry under ``folder``: relative path -> its kind and digest, to see what a host created or changed."""
    root = Path(folder)
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                out[rel] = "dir"
            else:
                out[rel] = "file:" + hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def changes(before: dict[str, str], after: dict[str, str]) -> dict[str, list[str]]:
    return {
        "created": sorted(set(after) - set(before)),
        "changed": sorted(p for p in before if p in after and before[p] != after[p]),
        "removed": sorted(set(before) - set(after)),
    }


SMALL = 3000
_MARKERS = re.compile(
    r"\[\.\.\.truncated [^\]]*\]|\[truncated: [^\]]*\]|\[BLOCKED: [^\]]*\]"
    # OpenClaw's
    r"|\[\.\.\.truncated, read [^\]]*\]|…\(truncated [^)]*\)…|\[…truncated [^\]]*\]|\[Policy digest from [^\]]*\]"
    r"|\[\.\.\.\d+ more policy lines omitted\.\.\.\]|\[MISSING\] Expected at: \S*|\[UNREADABLE: [^\]]*\]"
)


def summary(text: str | None, home: str) -> object:
    """What a golden holds of one injected text: the text itself with the home written ``{home}``,
    or for a big one its length, markers with their offsets, head, tail and digest."""
    if text is None:
        return None
    text = text.replace(home, "{home}")
    if len(text) <= SMALL:
        return text
    return {
        "length": len(text),
        "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        "markers": [{"offset": m.start(), "text": m.group()} for m in _MARKERS.finditer(text)],
        "head": text[:80],
        "tail": text[-80:],
    }


def dump(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


# --- Claude Code (issue 21) --------------------------------------------------
# Claude Code reads CLAUDE.md files from the working directory up to `/`, the
# user's ~/.claude, and an auto-memory MEMORY.md kept under ~/.claude/projects/
# <slug of the project's git root>/memory/. In these cases `user-home/` is HOME,
# `home/` the project root (a git root when it holds `.git/HEAD`) unless
# CLAUDE_DIRS says otherwise, and a file key starting with CLAUDE_MEMORY is
# placed in that memory folder, found by claude_slug (the goldens prove it: a
# wrong slug would leave the memory unloaded). Every other case runs with its
# `home/` as project root and working directory.

CLAUDE_USER = "user-home"
CLAUDE_MEMORY = "{memory}/"
CLAUDE_DIRS: dict[str, tuple[str, str]] = {}
"""Case -> (project root, working directory), relative to the case folder; default ("home", "home")."""
_GIT = {"home/.git/HEAD": b"ref: refs/heads/main\n"}


def claude_dirs(name: str) -> tuple[str, str]:
    if not CLAUDE_DIRS:
        claude_code_cases()  # fills CLAUDE_DIRS
    return CLAUDE_DIRS.get(name, ("home", "home"))


def claude_slug(path: str) -> str:
    """Claude Code's folder name for a project: every UTF-16 unit that is not an ASCII letter or digit becomes '-'."""
    return "".join(c if c.isascii() and c.isalnum() else "-" * (2 if ord(c) > 0xFFFF else 1) for c in path)


def placed(case: Case, base: Path, rel: str) -> str:
    """Where file key ``rel`` of ``case`` goes under the case folder ``base``."""
    if not rel.startswith(CLAUDE_MEMORY):
        return rel
    root = (base / claude_dirs(case.name)[0]).resolve()
    return f"{CLAUDE_USER}/.claude/projects/{claude_slug(str(root))}/memory/" + rel[len(CLAUDE_MEMORY) :]


def _lines(count: int, width: int, char: str = "m", total: int | None = None) -> bytes:
    """``count`` numbered lines of ``width`` characters of ``char`` (the last padded or cut to ``total`` units)."""
    rows = [f"{n:03d} " + char * (width - 4) for n in range(1, count + 1)]
    text = "\n".join(rows)
    if total is not None:
        units = len(text.encode("utf-16-le")) // 2
        text = text + char * (total - units) if total >= units else text[:total]
    return text.encode()


def _claude(
    name: str, about: str, files: dict[str, object], dirs: tuple[str, str] | None = None, *, own: bool = False
) -> Case:
    """A Claude Code case; ``own``: only Claude Code's goldens hold it (a rule of its own, such as 2.1.337's
    quoting, that no other host's reading of the same files would tell anything about)."""
    if dirs is not None:
        CLAUDE_DIRS[name] = dirs
    return Case(name, about, files, hosts=("claude-code",) if own else ())


def claude_code_cases() -> list[Case]:
    mem = CLAUDE_MEMORY + "MEMORY.md"
    user = CLAUDE_USER + "/.claude/"
    imports = {f"home/i{n}.md": f"Import {n}.\n@i{n + 1}.md\n".encode() for n in range(1, 7)}
    odd = "home/My Proj.é_😀"
    return [
        _claude(
            "cc-project-claude",
            "CLAUDE.md and .claude/CLAUDE.md in the project root",
            {**_GIT, "home/CLAUDE.md": b"Root rules.\n", "home/.claude/CLAUDE.md": b"Dot-claude rules.\n"},
        ),
        _claude(
            "cc-parents",
            "CLAUDE.md in the case root above the project, in the project and on the way to the working directory",
            {
                **_GIT,
                "CLAUDE.md": b"Above the project.\n",
                "home/CLAUDE.md": b"Project root.\n",
                "home/sub/CLAUDE.md": b"Sub folder.\n",
                "home/sub/deep/.keep": b"",
                "home/other/CLAUDE.md": b"Sibling, not on the way.\n",
                mem: b"- memory of the git root\n",
            },
            ("home", "home/sub/deep"),
        ),
        _claude(
            "cc-user",
            "the user's CLAUDE.md and rules (one nested, one not .md), then the project's",
            {
                **_GIT,
                user + "CLAUDE.md": b"User-wide.\n",
                user + "rules/b.md": b"User rule b.\n",
                user + "rules/a.md": b"User rule a.\n",
                user + "rules/nested/c.md": b"User rule nested c.\n",
                user + "rules/notes.txt": b"Not a rule.\n",
                "home/CLAUDE.md": b"Project.\n",
            },
        ),
        _claude(
            "cc-project-rules",
            ".claude/rules/*.md, nested, one with paths: front matter, one not .md",
            {
                **_GIT,
                "home/.claude/rules/style.md": b"Style rule.\n",
                "home/.claude/rules/deep/more.md": b"Deeper rule.\n",
                "home/.claude/rules/paths.md": b'---\npaths:\n  - "src/**"\n---\nOnly under src.\n',
                "home/.claude/rules/readme.txt": b"Not a rule.\n",
            },
        ),
        _claude(
            "cc-local",
            "CLAUDE.local.md beside CLAUDE.md",
            {**_GIT, "home/CLAUDE.md": b"Shared.\n", "home/CLAUDE.local.md": b"Mine only.\n"},
        ),
        _claude(
            "cc-imports",
            "@path imports nested six deep, in a code span and a code block, an address, a missing file",
            {
                **_GIT,
                "home/CLAUDE.md": (
                    b"Top.\n@i1.md\nSee `@span.md` here.\n\n```\n@block.md\n```\nMail me@example.com.\n@missing.md\n"
                ),
                **imports,
                "home/span.md": b"Span.\n",
                "home/block.md": b"Block.\n",
            },
        ),
        _claude(
            "cc-import-outside-cwd",
            "imports from the project root, one outside the working directory",
            {
                **_GIT,
                "home/CLAUDE.md": b"Root.\n@shared.md\n@sub/inner.md\n",
                "home/shared.md": b"Shared import.\n",
                "home/sub/inner.md": b"Inner import.\n",
            },
            ("home", "home/sub"),
        ),
        _claude(
            "cc-agents-only",
            "AGENTS.md and .claude/AGENTS.md, no CLAUDE.md",
            {**_GIT, "home/AGENTS.md": b"Agents rules.\n", "home/.claude/AGENTS.md": b"Dot agents.\n"},
        ),
        _claude(
            "cc-agents-beside-claude",
            "AGENTS.md beside CLAUDE.md",
            {**_GIT, "home/AGENTS.md": b"Agents rules.\n", "home/CLAUDE.md": b"Claude rules.\n"},
        ),
        _claude(
            "cc-agents-nested",
            "CLAUDE.md at the root, AGENTS.md in the working directory below it",
            {**_GIT, "home/CLAUDE.md": b"Root claude.\n", "home/sub/AGENTS.md": b"Sub agents.\n"},
            ("home", "home/sub"),
        ),
        _claude(
            "cc-agents-parents",
            "AGENTS.md above the project, at its root and in the working directory; no CLAUDE.md",
            {
                **_GIT,
                "AGENTS.md": b"Agents above.\n",
                "home/AGENTS.md": b"Agents root.\n",
                "home/sub/AGENTS.md": b"Agents sub.\n",
                user + "CLAUDE.md": b"User-wide.\n",
                mem: b"- agents memory\n",
            },
            ("home", "home/sub"),
        ),
        _claude(
            "cc-agents-local",
            "AGENTS.md beside CLAUDE.local.md only",
            {**_GIT, "home/AGENTS.md": b"Agents rules.\n", "home/CLAUDE.local.md": b"Local only.\n"},
        ),
        _claude(
            "cc-agents-empty-claude",
            "AGENTS.md beside a whitespace-only CLAUDE.md",
            {**_GIT, "home/AGENTS.md": b"Agents rules.\n", "home/CLAUDE.md": b"\n \n"},
        ),
        _claude(
            "cc-claude-crlf",
            "CLAUDE.md with CRLF line ends and no comment",
            {**_GIT, "home/CLAUDE.md": b"One.\r\nTwo.\r\n"},
        ),
        _claude(
            "cc-claude-frontmatter",
            "CLAUDE.md with YAML front matter; an inline HTML comment kept",
            {**_GIT, "home/CLAUDE.md": b"---\ntitle: x\n---\nBody <!-- inline --> stays.\n"},
        ),
        _claude(
            "cc-no-git-subdir",
            "no git root, the working directory below the project root: whose slug holds the memory",
            {
                "home/CLAUDE.md": b"Root, no git.\n",
                "home/sub/CLAUDE.md": b"Sub, no git.\n",
                mem: b"- memory at the root's slug\n",
            },
            ("home", "home/sub"),
        ),
        _claude(
            "cc-empty-claude",
            "a whitespace-only CLAUDE.md, an empty user CLAUDE.md, a .claude/CLAUDE.md",
            {**_GIT, "home/CLAUDE.md": b"  \n\n", user + "CLAUDE.md": b"", "home/.claude/CLAUDE.md": b"Dot.\n"},
        ),
        _claude(
            "cc-claude-long",
            "CLAUDE.md of 40,000 mixed characters: loaded whole",
            {**_GIT, "home/CLAUDE.md": _mixed(40000).encode()},
        ),
        _claude(
            "cc-claude-over-4mib",
            "CLAUDE.md of 4 MiB + 1 byte beside a .claude/CLAUDE.md",
            {**_GIT, "home/CLAUDE.md": b"d" * (4 * 1024 * 1024 + 1), "home/.claude/CLAUDE.md": b"Dot.\n"},
        ),
        _claude(
            "cc-crlf-bom-comment",
            "CLAUDE.md with a BOM, CRLF, an HTML comment and padding",
            {**_GIT, "home/CLAUDE.md": "\ufeff  Intro.\r\n<!-- hidden note -->\r\nKept line.   \r\n\r\n".encode()},
        ),
        _claude(
            "cc-memory-whitespace",
            "MEMORY.md with blank lines and spaces before and after",
            {**_GIT, mem: b"\n\n  - one\n- two  \n\n\n"},
        ),
        _claude("cc-memory-199-lines", "MEMORY.md of 199 lines", {**_GIT, mem: _lines(199, 20)}),
        _claude("cc-memory-200-lines", "MEMORY.md of 200 lines", {**_GIT, mem: _lines(200, 20)}),
        _claude("cc-memory-201-lines", "MEMORY.md of 201 lines: the smallest line cut", {**_GIT, mem: _lines(201, 20)}),
        _claude(
            "cc-memory-units-cap",
            "MEMORY.md of exactly 25,000 units in 150 lines",
            {**_GIT, mem: _lines(150, 160, total=25000)},
        ),
        _claude(
            "cc-memory-units-cap-plus-1",
            "MEMORY.md of 25,001 units in 150 lines",
            {**_GIT, mem: _lines(150, 160, total=25001)},
        ),
        _claude(
            "cc-memory-over-units",
            "MEMORY.md of 150 lines of 180 characters: cut at a newline",
            {**_GIT, mem: _lines(150, 180)},
        ),
        _claude(
            "cc-memory-multibyte-under",
            "100 lines of 150 é: 30,099 bytes but 15,099 units",
            {**_GIT, mem: _lines(100, 154, "é")},
        ),
        _claude(
            "cc-memory-multibyte-cut",
            "150 lines of 173 characters (169 é): 143 load by UTF-16 units, 72 by bytes",
            {**_GIT, mem: _lines(150, 173, "é")},
        ),
        _claude("cc-memory-one-line", "MEMORY.md of one line of 30,000 characters", {**_GIT, mem: b"a" * 30000}),
        _claude(
            "cc-memory-astral-split",
            "one line: 'a' then 13,000 astral characters, the unit cap inside a pair",
            {**_GIT, mem: ("a" + "😀" * 13000).encode()},
        ),
        _claude(
            "cc-memory-lines-and-units", "250 lines of 150 characters: over both caps", {**_GIT, mem: _lines(250, 150)}
        ),
        _claude("cc-memory-crlf", "MEMORY.md with CRLF line ends", {**_GIT, mem: b"- first\r\n- second\r\n"}),
        _claude("cc-memory-empty", "an empty MEMORY.md", {**_GIT, "home/CLAUDE.md": b"Rules.\n", mem: b""}, own=True),
        _claude(
            "cc-memory-quote-lines",
            "MEMORY.md with quoted lines, a lone '>' and blank lines between entries",
            {**_GIT, mem: b"- plain entry\n> quoted entry\n>\n\n- after a blank line\n  > indented quote\n"},
            own=True,
        ),
        _claude(
            "cc-memory-quote-runs",
            "runs of '> ' and '>>' at line starts",
            {**_GIT, mem: b"> > double\n> > > triple\n>> tight double\n> >> mixed\n- last\n"},
            own=True,
        ),
        _claude(
            "cc-memory-quote-no-space",
            "'>' with no space after it, and '>' inside a line",
            {**_GIT, mem: b">no space\n>>no space twice\n- a > b\n- ends with >\n"},
            own=True,
        ),
        _claude(
            "cc-no-git",
            "no git root: the working directory's slug holds the memory",
            {"home/CLAUDE.md": b"No git here.\n", mem: b"- remembered without git\n"},
        ),
        _claude(
            "cc-slug-odd",
            "a project root named with a space, a dot, an accent and an astral character",
            {
                f"{odd}/.git/HEAD": b"ref: refs/heads/main\n",
                f"{odd}/CLAUDE.md": b"Odd root.\n",
                mem: b"- odd slug memory\n",
            },
            (odd, odd),
        ),
    ]
