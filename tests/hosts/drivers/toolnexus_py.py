"""Drive toolnexus (the Python package)'s own ``compose_soul`` on one corpus case; run inside its venv.

Usage: python toolnexus_py.py CASE_DIR  (prints the golden's facts as JSON)

``toolnexus.agents.surface.compose_soul(home)`` returns ``(soul, found)``;
each section of the soul is kept per file, or what the call raised.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/: host_corpus
import host_corpus  # noqa: E402


def main() -> None:
    case = Path(sys.argv[1]).resolve()
    home = case / "home"
    before = host_corpus.tree(case)
    from toolnexus.agents.surface import compose_soul

    try:
        soul, found = compose_soul(str(home))
        result: dict[str, object] = {"found": found, "soul": host_corpus.summary(soul, str(home))}
    except Exception as error:  # what the host raises is a fact of the golden
        result = {"raised": type(error).__name__, "message": str(error).replace(str(home), "{home}")}
    result["files"] = host_corpus.changes(before, host_corpus.tree(case))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
