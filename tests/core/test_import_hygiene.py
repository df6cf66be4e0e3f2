"""The core stays free of UI and protocol imports: apps and servers are shells."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_core_loads_no_textual_rich_or_mcp() -> None:
    code = (
        "import sys, notebook_app.core;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'rich', 'mcp', 'watchfiles'});"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
