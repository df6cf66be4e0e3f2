"""``make hosts-watch``: for each host, the published releases newer than its newest proven. Never installs.

Registry queries only, each bounded by a timeout: ``npm view <package> versions
--json`` for Claude Code (its native package ``@anthropic-ai/claude-code-linux-x64``,
which has every release; the wrapper ``@anthropic-ai/claude-code`` skips some) and
OpenClaw, PyPI's JSON API for ``hermes-agent``. Pre-releases (``2026.9.1-beta.1``)
are left out. A registry that cannot be reached is said in words, for that host.
Each release listed is proven with ``make hosts ARGS="<host>@<version>"``.

    python tests/hosts/watch_releases.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import new_release  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0
NPM = {"claude-code": "@anthropic-ai/claude-code-linux-x64", "openclaw": "openclaw"}
PYPI = {"hermes": "hermes-agent"}


def newer(published: list[str], newest: str) -> list[str]:
    """The releases of ``published`` (pre-releases and non-versions left out) newer than ``newest``, oldest first."""
    found = {v for v in published if new_release.VERSION.fullmatch(v)}
    return sorted((v for v in found if new_release.key(v) > new_release.key(newest)), key=new_release.key)


def npm_versions(package: str, timeout: float = TIMEOUT) -> list[str] | str:
    """Every version npm's registry lists for ``package``, or why it could not be asked."""
    try:
        done = subprocess.run(
            ["npm", "view", package, "versions", "--json"],
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=tempfile.gettempdir(),
        )
    except FileNotFoundError:
        return "npm is not installed"
    except subprocess.TimeoutExpired:
        return f"npm's registry did not answer within {timeout:.0f} s"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return f"npm's registry could not be asked (npm exit {done.returncode}: {last})"
    try:
        found = json.loads(done.stdout)
    except json.JSONDecodeError:
        return "npm's answer was not JSON"
    return [found] if isinstance(found, str) else [str(v) for v in found]


def pypi_versions(package: str, timeout: float = TIMEOUT) -> list[str] | str:
    """Every release PyPI's JSON API lists for ``package``, or why it could not be asked."""
    try:
        with urllib.request.urlopen(f"https://pypi.org/pypi/{package}/json", timeout=timeout) as answer:
            return list(json.load(answer)["releases"])
    except (OSError, ValueError, KeyError) as error:
        return f"PyPI could not be asked ({error})"


def report(host: str, newest: str, published: list[str] | str) -> str:
    """One host's line: the releases newer than its newest proven, none, or why the registry was not read."""
    if isinstance(published, str):
        return f"{host}: newest proven {newest}; {published}"
    found = newer(published, newest)
    if not found:
        return f"{host}: newest proven {newest}; no newer release published"
    return f'{host}: newest proven {newest}; newer: {", ".join(found)}  (make hosts ARGS="{host}@{found[0]}")'


def main() -> int:
    data = new_release.Data(REPO)
    for host in ("claude-code", "openclaw", "hermes"):
        newest = new_release.newest_proven(new_release.proven(data, host))
        published = npm_versions(NPM[host]) if host in NPM else pypi_versions(PYPI[host])
        print(report(host, newest, published), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
