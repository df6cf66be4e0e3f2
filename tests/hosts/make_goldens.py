"""``make hosts``: install each host at its pinned version, run its own code on every corpus case, write goldens.

Each host gets its own venv, built (or reused by its stamp) by
``benchmarks/peers.py``, the same ``benchmarks/.peers/`` the benchmarks use.
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
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "benchmarks")]
import peers  # noqa: E402

import host_corpus  # noqa: E402

GOLDENS = REPO / "tests" / "hosts" / "goldens"
DRIVERS = REPO / "tests" / "hosts" / "drivers"
TIMEOUT = 120.0

HOSTS = {
    # golden folder: (peer name in benchmarks/peers.py, version, driver)
    "hermes@0.19.0": ("hermes", "0.19.0", "hermes.py"),
    "toolnexus-py@0.21.0": ("toolnexus", "0.21.0", "toolnexus_py.py"),
}


def main() -> int:
    started = time.monotonic()
    failed = 0
    for folder, (peer, version, driver) in HOSTS.items():
        spec = peers.PEERS[peer]
        assert spec.endswith("==" + version), f"benchmarks/peers.py pins {spec}, not {version}"
        env = peers.ensure_peer(peer, spec, REPO / "benchmarks" / ".peers", timeout=1500)
        if env.python is None:
            print(f"{folder}: cannot install: {env.error}", file=sys.stderr)
            failed += 1
            continue
        out = GOLDENS / folder
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        for case in host_corpus.cases():
            with tempfile.TemporaryDirectory(prefix=f"hosts-{case.name}-") as tmp:
                host_corpus.build(tmp, [case.name])
                command = [str(env.python), str(DRIVERS / driver), str(Path(tmp) / case.name)]
                if case.cwd and peer == "hermes":
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
                "installed": spec,
                "case": case.name,
                "about": case.about,
                "command": f"make hosts  (python tests/hosts/drivers/{driver} <fresh copy of case {case.name}>"
                + (" cwd" if len(command) > 3 else "") + ")",
                **json.loads(done.stdout),
            }
            (out / f"{case.name}.json").write_text(host_corpus.dump(golden), encoding="utf-8")
        print(f"{folder}: {len(host_corpus.cases())} cases -> {out.relative_to(REPO)}")
    print(f"make hosts: {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
