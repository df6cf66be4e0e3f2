"""A release no golden proves yet, proven in one command: its goldens against its nearest proven release's.

``make hosts ARGS="claude-code@2.1.338"`` (a host and a version that is not one
of its proven releases) installs that release and writes its goldens on the
whole corpus into ``tests/hosts/pending/<host>@<V>/``, a folder no test
compares. :func:`prove` then compares each case with the goldens of the
nearest proven release (the newest not newer than V), every field but those
that name the release (:data:`NAMING`):

- none differ: the release is recorded as covered by the nearest's rules, one
  textual edit of the data file that keeps its comments (Claude Code: one line
  appended to ``claude-code-releases.toml``; OpenClaw: the covering release's
  ``until`` moved to V), and the goldens move from pending into
  ``tests/hosts/goldens/<host>@<V>/``;
- some differ: it names them, grouped by what differs, with a short diff of the
  first few, leaves the goldens in pending and fails: those are the rules to write.

Hermes has one rules file: a covered release moves its ``until`` (added
after its ``version`` the first time).
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

NAMING = ("version", "installed", "command", "function")
"""The fields of a golden that name the release that made it: the only ones the comparison ignores
(``function``: OpenClaw's, the bundle file of that build its loader was found in, whose name is a hash)."""
VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)*")
SHOWN = 3
"""Differing cases shown with a diff, the first of each group (the rest are named)."""
DEPTH = 3
"""How deep a field's path goes in the groups' names."""
NAMED = 12
"""Cases named per group (the rest counted)."""
DIFF_LINES = 24


@dataclass(frozen=True)
class Data:
    """Where one checkout keeps a host's proven releases and goldens (the repository's, or a copy of it)."""

    root: Path

    @property
    def goldens(self) -> Path:
        return self.root / "tests" / "hosts" / "goldens"

    @property
    def pending(self) -> Path:
        return self.root / "tests" / "hosts" / "pending"

    def releases(self, host: str) -> Path:
        """The data file that lists ``host``'s proven releases."""
        hosts = self.root / "notebook_app" / "core" / "hosts"
        return {
            "claude-code": hosts / "claude_code" / "claude-code-releases.toml",
            "openclaw": hosts / "openclaw" / "openclaw-releases.toml",
            "hermes": hosts / "hermes" / "hermes-0.19.0.toml",
        }[host]


def key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def proven(data: Data, host: str) -> list[dict]:
    """``host``'s proven releases, oldest first, each with ``version``, ``since`` and ``until`` (its range; a
    release alone is its own range) and, for Claude Code, the ``rules`` it loads by."""
    table = tomllib.loads(data.releases(host).read_text(encoding="utf-8"))
    found = table["release"] if "release" in table else [{k: table[k] for k in ("version", "until") if k in table}]
    return [
        {**r, "since": str(r.get("since", r["version"])), "until": str(r.get("until", r["version"]))} for r in found
    ]


def newest_proven(releases: list[dict]) -> str:
    """The newest version the releases' ranges cover."""
    return max((str(r["until"]) for r in releases), key=key)


def nearest(releases: list[dict], version: str) -> dict | str:
    """The proven release whose goldens ``version``'s are compared with: the newest not newer than it; or why
    there is none (older than the oldest proven, or already inside a proven range)."""
    for r in releases:
        if key(r["since"]) <= key(version) <= key(r["until"]):
            return f"{version} is already proven (the range {r['since']}–{r['until']}, proven at {r['version']})"
    below = [r for r in releases if key(r["since"]) <= key(version)]
    if not below:
        return f"{version} is older than the oldest proven release, {releases[0]['version']}"
    return below[-1]


def _without_naming(path: Path) -> object:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict):
        for name in NAMING:
            data.pop(name, None)
    return data


def _leaves(a: object, b: object, where: str) -> list[str]:
    """The paths (``kinds.main.context_files[2].content``) at which ``a`` and ``b`` differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for name in sorted(set(a) | set(b)):
            inner = f"{where}.{name}" if where else name
            out += [inner] if (name in a) != (name in b) else _leaves(a[name], b[name], inner)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [leaf for i, (x, y) in enumerate(zip(a, b, strict=True)) for leaf in _leaves(x, y, f"{where}[{i}]")]
    return [] if a == b else [where or "(the whole golden)"]


def differences(new: Path, old: Path) -> dict[str, list[str]]:
    """Each case (a golden's path under the folder, without ``.json``) whose golden in ``new`` differs from its
    golden in ``old`` in any field but :data:`NAMING`, and the fields that differ. A case one folder lacks differs."""
    mine = {p.relative_to(new).with_suffix("").as_posix() for p in new.rglob("*.json")}
    theirs = {p.relative_to(old).with_suffix("").as_posix() for p in old.rglob("*.json")}
    out: dict[str, list[str]] = {}
    for case in sorted(mine | theirs):
        if case not in theirs:
            out[case] = [f"no golden in {old.name}"]
        elif case not in mine:
            out[case] = [f"no golden in {new.name}"]
        else:
            leaves = _leaves(_without_naming(new / f"{case}.json"), _without_naming(old / f"{case}.json"), "")
            if leaves:
                out[case] = leaves
    return out


def grouped(found: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The differing cases grouped by what differs: the fields down to :data:`DEPTH` levels, list positions left
    out (``kinds.main.context_files[]``), each group a rule to write."""
    groups: dict[str, list[str]] = {}
    for case, leaves in found.items():
        fields = {".".join(re.sub(r"\[[0-9]+\]", "[]", leaf).split(".")[:DEPTH]) for leaf in leaves}
        what = ", ".join(sorted(fields))
        groups.setdefault(what, []).append(case)
    return groups


def short_diff(new: Path, old: Path, case: str, lines: int = DIFF_LINES) -> list[str]:
    """A unified diff of one case's two goldens (naming fields left out), its first ``lines`` lines."""
    a, b = old / f"{case}.json", new / f"{case}.json"
    if not (a.is_file() and b.is_file()):
        return []
    before = json.dumps(_without_naming(a), indent=1, ensure_ascii=False, sort_keys=True).splitlines()
    after = json.dumps(_without_naming(b), indent=1, ensure_ascii=False, sort_keys=True).splitlines()
    diff = list(
        difflib.unified_diff(before, after, f"{old.name}/{case}.json", f"{new.name}/{case}.json", n=1, lineterm="")
    )
    return [line[:200] for line in diff[:lines]] + (
        [f"... ({len(diff) - lines} more lines)"] if len(diff) > lines else []
    )


def record_claude_code(path: Path, version: str, rules: str, nearest_version: str) -> str | None:
    """Add ``{ version = V, rules = R }`` to ``claude-code-releases.toml`` on a line of its own right after the
    nearest's line (the list stays oldest first); the file's other lines are kept byte for byte. Why it could
    not, or None."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(
        (
            i
            for i, line in enumerate(lines)
            if re.match(rf'\s*\{{\s*version\s*=\s*"{re.escape(nearest_version)}"', line)
        ),
        None,
    )
    if at is None or not re.match(r"\s*\{[^}]*\}\s*,", lines[at]):
        return f"{path.name}: no line of {nearest_version} ending in a comma to add after"
    indent = re.match(r"\s*", lines[at]).group(0)  # type: ignore[union-attr]
    line = f'{indent}{{ version = "{version}", rules = "{rules}" }},  # goldens equal {nearest_version}\'s\n'
    changed = "".join([*lines[: at + 1], line, *lines[at + 1 :]])

    def holds(table: dict) -> bool:
        found = [str(r["version"]) for r in table["release"]]
        return version in found and found == sorted(found, key=key)

    return _write_checked(path, changed, holds)


def record_openclaw(path: Path, version: str, release: str) -> str | None:
    """Move the ``until`` of OpenClaw's release ``release`` in ``openclaw-releases.toml`` to ``version``: one
    value changed, its line's comment kept. Why it could not, or None."""
    text = path.read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\[\[release\]\])", text)
    for n, block in enumerate(blocks):
        if re.search(rf'(?m)^version\s*=\s*"{re.escape(release)}"', block):
            moved, count = re.subn(r'(?m)^(until\s*=\s*)"[^"]*"', rf'\g<1>"{version}"', block, count=1)
            if count != 1:
                return f"{path.name}: the release {release} has no `until` line"
            changed = "".join([*blocks[:n], moved, *blocks[n + 1 :]])
            return _write_checked(
                path,
                changed,
                lambda t: any(r["version"] == release and r.get("until") == version for r in t["release"]),
            )
    return f"{path.name}: no release {release}"


def record_hermes(path: Path, version: str) -> str | None:
    """Give Hermes's one rules file (``hermes-<V>.toml``) ``until = V``: the value moved where the line is there,
    else one line added after its ``version``. Why it could not, or None."""
    text = path.read_text(encoding="utf-8")
    changed, count = re.subn(r'(?m)^(until\s*=\s*)"[^"]*"', rf'\g<1>"{version}"', text, count=1)
    if count == 0:
        changed, count = re.subn(
            r'(?m)^version\s*=\s*"([^"]*)".*\n',
            lambda m: f'{m.group(0)}until = "{version}"  # goldens equal {m.group(1)}\'s\n',
            text,
            count=1,
        )
    if count == 0:
        return f"{path.name}: no top-level `version` line"
    return _write_checked(path, changed, lambda t: t.get("until") == version)


def _write_checked(path: Path, text: str, holds: Callable[[dict], bool]) -> str | None:
    """Write ``text`` if it parses and ``holds`` of its table; else why not, the file untouched."""
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return f"{path.name} would not parse after the edit: {error}"
    if not holds(table):
        return f"{path.name}: the edit did not record the release"
    path.write_text(text, encoding="utf-8")
    return None


@dataclass
class Verdict:
    """What :func:`prove` found, in lines to print, and the exit status (0: recorded)."""

    status: int
    lines: list[str] = field(default_factory=list)


def prove(data: Data, host: str, version: str) -> Verdict:
    """Compare ``data.pending/<host>@<version>`` with its nearest proven release's goldens; record the release
    and move the goldens when none differ, else name the differing cases and keep them pending."""
    folder = f"{host}@{version}"
    new = data.pending / folder
    releases = proven(data, host)
    near = nearest(releases, version)
    if isinstance(near, str):
        return Verdict(2, [f"{folder}: {near}"])
    old = data.goldens / f"{host}@{near['version']}"
    found = differences(new, old)
    unmatched = [case for case, leaves in found.items() if leaves == [f"no golden in {old.name}"]]
    if unmatched:  # the corpus grew after the nearest's goldens were made: nothing to compare those with
        return Verdict(
            1,
            [
                f"{folder}: {len(unmatched)} cases have no golden of {old.name} to compare with "
                f"({', '.join(unmatched)}); the goldens stay in {new}.",
                f'Make them first: make hosts ARGS="{old.name} --keep", then this again.',
            ],
        )
    if found:
        return _differ(new, old, folder, near, found)
    lines = [f"{folder}: every case equals {host}@{near['version']}'s goldens ({len(list(new.rglob('*.json')))} files)"]
    if host == "claude-code":
        problem = record_claude_code(data.releases(host), version, str(near["rules"]), str(near["version"]))
        said = f"recorded in {data.releases(host).name}: {version} loads by the rules of {near['rules']}"
    elif host == "openclaw":
        problem = record_openclaw(data.releases(host), version, str(near["version"]))
        said = f"recorded in {data.releases(host).name}: {near['version']}'s range now reaches {version}"
    else:
        problem = record_hermes(data.releases(host), version)
        said = f"recorded in {data.releases(host).name}: {near['version']}'s rules reach {version}"
    if problem:
        return Verdict(1, [*lines, problem])
    target = data.goldens / folder
    shutil.rmtree(target, ignore_errors=True)
    shutil.move(str(new), str(target))
    return Verdict(0, [*lines, said, f"goldens moved to {target}"])


def _differ(new: Path, old: Path, folder: str, near: dict, found: dict[str, list[str]]) -> Verdict:
    rules = near.get("rules", near["version"])
    lines = [
        f"{folder}: {len(found)} cases differ from {old.name}'s goldens; the goldens stay in {new}.",
        f"Rules to write (over {old.name}'s, rules {rules}), by what differs:",
    ]
    groups = grouped(found)
    for what, cases in groups.items():
        more = f" and {len(cases) - NAMED} more" if len(cases) > NAMED else ""
        lines.append(f"  {what} ({len(cases)}): {', '.join(cases[:NAMED])}{more}")
    for cases in list(groups.values())[:SHOWN]:
        diff = short_diff(new, old, cases[0])
        lines += ["", *diff] if diff else []
    return Verdict(1, lines)
