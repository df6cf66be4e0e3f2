"""``make hosts``: install each host at its pinned version, run its own code on every corpus case, write goldens.

Each host is installed at its pin under ``benchmarks/.peers/`` and reused
after by a stamp: a Python host in its venv built by ``benchmarks/peers.py``
(the benchmarks' own), an npm host with ``npm install --prefix
benchmarks/.peers/<name>@<version>``. Each is one entry of :data:`HOSTS`.
Every case is built afresh in its own temporary folder, the host's driver
(``tests/hosts/drivers/``) runs on it in a subprocess with a timeout, and
what the host injected, raised, created and changed is written to
``tests/hosts/goldens/<host>@<version>/<case>.json``. ``make test`` only
compares with these files; it never installs a host.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "benchmarks")]
import host_corpus  # noqa: E402
import peers  # noqa: E402

GOLDENS = REPO / "tests" / "hosts" / "goldens"
DRIVERS = REPO / "tests" / "hosts" / "drivers"
TIMEOUT = 120.0

PEERS_DIR = REPO / "benchmarks" / ".peers"


@dataclass(frozen=True)
class Ready:
    """A host installed: the command that runs its driver (the case folder is appended), or why not."""

    command: list[str] | None
    installed: str
    error: str | None = None


def python_peer(peer: str, version: str, driver: str) -> Callable[[], Ready]:
    """A host from PyPI, in its venv from ``benchmarks/peers.py``; its driver runs inside that venv."""

    def install() -> Ready:
        spec = peers.PEERS[peer]
        assert spec.endswith("==" + version), f"benchmarks/peers.py pins {spec}, not {version}"
        env = peers.ensure_peer(peer, spec, PEERS_DIR, timeout=1500)
        if env.python is None:
            return Ready(None, spec, env.error)
        return Ready([str(env.python), str(DRIVERS / driver)], spec)

    return install


def npm_binary(package: str, version: str, binary: str, driver: str) -> Callable[[], Ready]:
    """A host from npm, ``npm install --prefix benchmarks/.peers/<name>@<version>``, reused by its stamp;
    its driver runs under this Python and is handed the installed program."""

    def install() -> Ready:
        spec = f"{package}@{version}"
        prefix = PEERS_DIR / f"{package.rsplit('/', 1)[-1]}@{version}"
        program = prefix / "node_modules" / ".bin" / binary
        stamp = prefix / peers.STAMP
        if not (stamp.is_file() and stamp.read_text().strip() == spec and program.exists()):
            shutil.rmtree(prefix, ignore_errors=True)
            prefix.mkdir(parents=True)
            done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix), spec],
                                  capture_output=True, text=True, timeout=1500)
            if done.returncode != 0 or not program.exists():
                return Ready(None, spec, f"npm install {spec} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
            stamp.write_text(spec + "\n")
        return Ready([sys.executable, str(DRIVERS / driver), str(program)], spec)

    return install


HOSTS: dict[str, tuple[str, Callable[[], Ready]]] = {
    # golden folder: (version, installer)
    "hermes@0.19.0": ("0.19.0", python_peer("hermes", "0.19.0", "hermes.py")),
    "toolnexus-py@0.21.0": ("0.21.0", python_peer("toolnexus", "0.21.0", "toolnexus_py.py")),
    # Claude Code: its native binary (the package's optional dependency for this platform), driven
    # with `claude -p` against a loopback recorder of the API request (drivers/claude_code.py).
    "claude-code@2.1.332": ("2.1.332", npm_binary("@anthropic-ai/claude-code", "2.1.332", "claude", "claude_code.py")),
}
USES_CWD = {"hermes"}
"""Hosts whose driver is told, for a case with a working directory, to read its project context."""


def main(args: list[str]) -> int:
    """``make_goldens.py [HOST[@VERSION] ...] [--case NAME ...]``: every host and case, or those named."""
    only = [a for a in args if not a.startswith("--case=")]
    chosen = [a.removeprefix("--case=") for a in args if a.startswith("--case=")]
    started = time.monotonic()
    failed = 0
    for folder, (version, install) in HOSTS.items():
        if only and folder not in only and folder.split("@")[0] not in only:
            continue
        host_started = time.monotonic()
        ready = install()
        if ready.command is None:
            print(f"{folder}: cannot install: {ready.error}", file=sys.stderr)
            failed += 1
            continue
        out = GOLDENS / folder
        if not chosen:
            shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True, exist_ok=True)
        driver = Path(ready.command[1]).name
        for case in host_corpus.cases():
            if chosen and case.name not in chosen:
                continue
            with tempfile.TemporaryDirectory(prefix=f"hosts-{case.name}-") as tmp:
                host_corpus.build(tmp, [case.name])
                command = [*ready.command, str(Path(tmp) / case.name)]
                if case.cwd and folder.split("@")[0] in USES_CWD:
                    command.append("cwd")
                try:
                    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp)
                except subprocess.TimeoutExpired:
                    print(f"{folder} {case.name}: no answer within {TIMEOUT:.0f} s", file=sys.stderr)
                    failed += 1
                    continue
            if done.returncode != 0:
                print(f"{folder} {case.name}: driver exit {done.returncode}\n{done.stderr[-2000:]}", file=sys.stderr)
                failed += 1
                continue
            golden = {
                "host": folder.split("@")[0],
                "version": version,
                "installed": ready.installed,
                "case": case.name,
                "about": case.about,
                "command": f"make hosts  (python tests/hosts/drivers/{driver} <fresh copy of case {case.name}>"
                + (" cwd" if command[-1] == "cwd" else "") + ")",
                **json.loads(done.stdout),
            }
            (out / f"{case.name}.json").write_text(host_corpus.dump(golden), encoding="utf-8")
        print(f"{folder}: {len(chosen) if chosen else len(host_corpus.cases())} cases -> {out.relative_to(REPO)} "
              f"({time.monotonic() - host_started:.1f} s)")
    print(f"make hosts: {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
