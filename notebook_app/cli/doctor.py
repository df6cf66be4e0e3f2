"""``persona-notebook doctor``: what is wrong in a home, and what a host really loads of it.

Exit status 0 when no finding is a warning or an error, 1 when one is, 2 on a
usage error (no such home, no such host). ``--json`` prints the report as
one object whose ``findings`` array has ``file``, ``line`` (1-based; null for
a whole file), ``rule``, ``severity`` and ``message`` for each finding.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from notebook_app.cli.common import CommandLine, home_option, print_json, usage_error
from notebook_app.cli.hosts import HOST_HELP, home_and_host, host_options, host_standing, with_standing
from notebook_app.core.text.hidden import with_markers

if TYPE_CHECKING:
    from notebook_app.core.doctor.check import DoctorReport
    from notebook_app.core.doctor.model import Finding


def add_parser(commands: argparse._SubParsersAction) -> None:
    doctor = commands.add_parser(
        "doctor",
        help="check a home: files that do not load, secrets (in the "
        "history too), hidden text, duplicates, what a host cuts",
        description="Check a persona home with the doctor's rules (loading, security, hygiene, budget per host). "
        "Exit status 1 when any finding is a warning or an error.",
    )
    home_option(doctor, host_help=HOST_HELP)
    host_options(doctor)
    doctor.add_argument("--tokens", action="store_true", help="count tokens exactly (o200k_base), not as chars/4")


def run(args: argparse.Namespace) -> int:
    found = home_and_host(args)
    if isinstance(found, str):
        return usage_error(found)
    home, host = found
    from notebook_app.core.doctor.check import Doctor  # lazy: the doctor verb

    doctor = Doctor(remember=True)
    report = doctor.check(home, host=host, standing=host_standing(args))
    budget = doctor.exact_tokens(report) if args.tokens else report.budget
    if args.json:
        data = with_standing(args, report.to_json())
        if args.tokens:
            summary = data["budget"]
            assert isinstance(summary, dict)  # the report's JSON holds its budget as an object
            summary["tokens"] = budget.tokens
            summary["encoding"] = budget.encoding
        print_json(data)
    else:
        _print_text(report, budget.tokens_label() if args.tokens else None)
    return report.exit_status


def _print_text(report: DoctorReport, tokens: str | None) -> None:
    title = report.composition.profile.title if report.composition.profile else "toolnexus (the contract)"
    print(f"doctor: {report.home} as {title} loads it")
    current = object()
    for item in report.findings:
        if item.group != current:
            current = item.group
            print(f"\n{item.group or '(the home as a whole)'}")
        print(_line(item))
    if tokens:
        print(f"  tokens: {tokens}")
    counts = {
        severity: sum(1 for f in report.findings if f.severity.value == severity)
        for severity in ("error", "warning", "info")
    }
    print(f"\n{counts['error']} error(s), {counts['warning']} warning(s), {counts['info']} note(s)")
    if report.problems:
        print(report.headline(), file=sys.stderr)


def _line(item: Finding) -> str:
    where = (
        f"line {item.line}" if item.line is not None else "file" if item.file else "record" if item.record else "home"
    )
    fix = f"\n      fix: {item.fix.label}" if item.fix is not None else ""
    return with_markers(
        f"  {item.severity.value:<7} {where:<10} {item.rule}: {item.message}{fix}"
    )  # as the panes draw hidden characters


COMMAND = CommandLine(
    names=("doctor",),
    usage="  persona-notebook doctor [--host NAME]  check a home; exit 1 on any warning or error\n",
    add_parser=add_parser,
    run=run,
)
