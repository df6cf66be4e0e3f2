"""Sections 2 and 3 of the contract, to the byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.core.home.soul import BOOTSTRAP_ORDER, MAX_FILE_BYTES, TRUNCATION_NOTICE, compose, compose_soul
from notebook_app.core.memory.tool import DESCRIPTION, memory_tool


def test_public_constants_match_the_contract() -> None:
    assert tuple(BOOTSTRAP_ORDER) == (
        "AGENTS.md",
        "SOUL.md",
        "IDENTITY.md",
        "USER.md",
        "TOOLS.md",
        "HEARTBEAT.md",
        "MEMORY.md",
    )
    assert MAX_FILE_BYTES == 2_097_152
    assert TRUNCATION_NOTICE == "[truncated: exceeds 2 MB bootstrap cap]"


def test_input_schema_is_the_contracts() -> None:
    schema = memory_tool("/nonexistent").input_schema
    assert schema["type"] == "object"
    assert schema["properties"]["action"]["enum"] == ["add", "replace", "remove"]
    assert schema["properties"]["target"]["enum"] == ["self", "user"]
    assert schema["properties"]["text"]["type"] == "string"
    assert schema["properties"]["with"]["type"] == "string"
    assert schema["required"] == ["action", "text"]


def test_description_says_writes_land_now_and_load_next_session() -> None:
    assert "immediately" in DESCRIPTION
    assert "START of the NEXT session" in DESCRIPTION
    assert memory_tool(".").description == DESCRIPTION


def test_empty_home_composes_to_empty_soul(home: Path) -> None:
    assert compose_soul(home) == ("", [])


def test_missing_home_composes_to_empty_soul(tmp_path: Path) -> None:
    assert compose_soul(tmp_path / "nowhere") == ("", [])


def test_soul_sections_follow_bootstrap_order_with_stripped_text(home: Path) -> None:
    (home / "MEMORY.md").write_text("- a\n- b\n\n")
    (home / "USER.md").write_text("\n  - likes tea  \n")
    (home / "SOUL.md").write_text("You are Kip.")
    (home / "notes.md").write_text("not a bootstrap file")
    soul, found = compose_soul(home)
    assert found == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert soul == "## SOUL.md\n\nYou are Kip.\n\n## USER.md\n\n- likes tea\n\n## MEMORY.md\n\n- a\n- b"


def test_all_seven_files_are_found_in_order(home: Path) -> None:
    for name in reversed(BOOTSTRAP_ORDER):
        (home / name).write_text(f"text of {name}")
    soul, found = compose_soul(home)
    assert found == list(BOOTSTRAP_ORDER)
    assert soul.index("## AGENTS.md") < soul.index("## SOUL.md") < soul.index("## MEMORY.md")


def test_a_directory_named_like_a_bootstrap_file_is_not_found(home: Path) -> None:
    (home / "SOUL.md").mkdir()
    assert compose_soul(home) == ("", [])


def test_file_over_cap_is_cut_at_the_byte_boundary_with_notice(home: Path) -> None:
    body = b"x" * (MAX_FILE_BYTES + 10)
    (home / "MEMORY.md").write_bytes(body)
    soul, _ = compose_soul(home)
    assert soul == "## MEMORY.md\n\n" + "x" * MAX_FILE_BYTES + "\n" + TRUNCATION_NOTICE
    info = compose(home).file("MEMORY.md")
    assert info is not None and info.truncated and info.size == MAX_FILE_BYTES + 10
    assert info.dropped_bytes == 10
    assert (home / "MEMORY.md").read_bytes() == body


def test_file_of_exactly_the_cap_is_not_truncated(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"y" * MAX_FILE_BYTES)
    soul, _ = compose_soul(home)
    assert TRUNCATION_NOTICE not in soul
    assert soul.endswith("y" * 10)


@pytest.mark.parametrize("char", ["é", "€", "😀"])
def test_multibyte_character_split_by_the_cap_is_dropped(home: Path, char: str) -> None:
    encoded = char.encode()
    prefix = b"a" * (MAX_FILE_BYTES - 1)  # the character starts on the last byte that loads
    (home / "MEMORY.md").write_bytes(prefix + encoded + b"tail")
    soul, _ = compose_soul(home)
    assert soul == "## MEMORY.md\n\n" + "a" * (MAX_FILE_BYTES - 1) + "\n" + TRUNCATION_NOTICE


def test_multibyte_character_ending_exactly_at_the_cap_is_kept(home: Path) -> None:
    prefix = b"a" * (MAX_FILE_BYTES - 4)
    (home / "MEMORY.md").write_bytes(prefix + "😀".encode() + b"more")
    soul, _ = compose_soul(home)
    assert soul.endswith("a😀\n" + TRUNCATION_NOTICE)


def test_non_utf8_file_still_loads_and_is_flagged(home: Path) -> None:
    (home / "USER.md").write_bytes(b"- caf\xe9\n")
    composition = compose(home)
    info = composition.file("USER.md")
    assert info is not None and info.decode_error is not None
    assert "offset 5" in info.decode_error
    assert composition.soul == "## USER.md\n\n- caf\ufffd"


def test_add_appends_entry_and_newline(home: Path) -> None:
    (home / "MEMORY.md").write_text("- first\n")
    memory_tool(home).call({"action": "add", "text": "second"})
    assert (home / "MEMORY.md").read_text() == "- first\n- second\n"


def test_add_to_empty_existing_file_is_exactly_one_entry(home: Path) -> None:
    (home / "MEMORY.md").write_text("")
    memory_tool(home).call({"action": "add", "text": "only"})
    assert (home / "MEMORY.md").read_bytes() == b"- only\n"


def test_add_after_unterminated_last_line_starts_a_new_line(home: Path) -> None:
    (home / "MEMORY.md").write_text("- hand written")
    memory_tool(home).call({"action": "add", "text": "tool written"})
    assert (home / "MEMORY.md").read_text() == "- hand written\n- tool written\n"


def test_add_creates_a_missing_home(tmp_path: Path) -> None:
    home = tmp_path / "new" / "home"
    res = memory_tool(home).call({"action": "add", "text": "born"})
    assert not res.is_error, res.output
    assert (home / "MEMORY.md").read_text() == "- born\n"


def test_replace_touches_only_the_first_occurrence(home: Path) -> None:
    (home / "MEMORY.md").write_text("- tea at 9\n- tea at 4\n")
    res = memory_tool(home).call({"action": "replace", "text": "tea", "with": "coffee"})
    assert res.output == "ok (replace → MEMORY.md); loads next session"
    assert (home / "MEMORY.md").read_text() == "- coffee at 9\n- tea at 4\n"


def test_remove_touches_only_the_first_occurrence(home: Path) -> None:
    (home / "MEMORY.md").write_text("- x\n- y\n- x\n")
    res = memory_tool(home).call({"action": "remove", "text": "- x\n"})
    assert res.output == "ok (remove → MEMORY.md); loads next session"
    assert (home / "MEMORY.md").read_text() == "- y\n- x\n"


def test_replace_with_empty_string_removes(home: Path) -> None:
    (home / "USER.md").write_text("- name is Muthu (maybe)\n")
    res = memory_tool(home).call({"action": "replace", "target": "user", "text": " (maybe)", "with": ""})
    assert not res.is_error, res.output
    assert (home / "USER.md").read_text() == "- name is Muthu\n"


@pytest.mark.parametrize("action", ["replace", "remove"])
def test_miss_is_loud_and_file_byte_identical(home: Path, action: str) -> None:
    original = "- timezone: UTC\r\n- café\n".encode()
    (home / "MEMORY.md").write_bytes(original)
    res = memory_tool(home).call({"action": action, "text": "IST", "with": "x"})
    assert res.is_error
    assert res.output == "not found: IST"
    assert (home / "MEMORY.md").read_bytes() == original


def test_miss_on_absent_file_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "absent"
    res = memory_tool(home).call({"action": "remove", "text": "anything"})
    assert res.is_error and res.output == "not found: anything"
    assert not home.exists()


def test_success_output_names_action_and_file(home: Path) -> None:
    tool = memory_tool(home)
    assert tool.call({"action": "add", "target": "user", "text": "u"}).output == (
        "ok (add → USER.md); loads next session"
    )


def test_add_at_the_cap_succeeds_and_says_it_will_not_load(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- x\n" * (MAX_FILE_BYTES // 4))
    res = memory_tool(home).call({"action": "add", "text": "one more"})
    assert not res.is_error
    assert res.output == (
        "ok (add → MEMORY.md); will not load: MEMORY.md is cut at the 2,097,152-byte bootstrap cap "
        "and this starts right at the cut"
    )
    assert (home / "MEMORY.md").read_bytes().endswith(b"- x\n- one more\n")


def test_edit_before_the_cut_of_an_over_cap_file_loads_and_warns_it_loads_truncated(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- first\n" + b"- x\n" * (MAX_FILE_BYTES // 4))
    res = memory_tool(home).call({"action": "replace", "text": "first", "with": "1st"})
    assert res.output == (
        "ok (replace → MEMORY.md); loads next session (warning: MEMORY.md is 2,097,158 bytes, over the "
        "2,097,152-byte bootstrap cap; the next session loads it truncated)"
    )


@pytest.mark.parametrize("action", ["remove", "replace"])
def test_a_removal_past_the_cut_says_the_next_session_sees_no_change_in_its_dry_run_and_its_result(
    home: Path, action: str
) -> None:
    """Issue 34: ``remove`` past the 2 MiB cut said "loads next session", though no session sees that part."""
    from notebook_app.core.home.files import read_file
    from notebook_app.core.home.refusals import Rejection
    from notebook_app.core.memory.plan import preview_file

    (home / "MEMORY.md").write_bytes(b"- x\n" * (MAX_FILE_BYTES // 4) + b"- far away\n")
    args = {"action": action, "text": "- far away\n"} | ({"with": ""} if action == "replace" else {})
    said = (
        "the next session sees no change: MEMORY.md is cut at the 2,097,152-byte bootstrap cap "
        "and what this takes out starts right at the cut, where no session reads"
    )
    dry = preview_file(args, read_file(home / "MEMORY.md", limit=MAX_FILE_BYTES + 64 * 1024))
    assert not isinstance(dry, Rejection) and dry.outcome == said
    res = memory_tool(home).call(args)
    assert not res.is_error and res.output == f"ok ({action} → MEMORY.md); {said}"
    assert "loads next session" not in res.output
    assert (home / "MEMORY.md").read_bytes() == b"- x\n" * (MAX_FILE_BYTES // 4)


def test_a_removal_across_the_cut_loads_and_warns_it_loads_truncated(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"- x\n" * (MAX_FILE_BYTES // 4 - 1) + b"- across\n" + b"- y\n" * 8)
    res = memory_tool(home).call({"action": "remove", "text": "- across\n"})
    assert res.output.startswith("ok (remove → MEMORY.md); loads next session"), res.output


def test_unicode_space_at_the_ends_is_stripped_like_str_strip(home: Path) -> None:
    (home / "SOUL.md").write_text("\u2003\n  You are Kip.\u00a0\n\u3000")
    assert compose_soul(home)[0] == "## SOUL.md\n\nYou are Kip."


def test_non_utf8_offset_counts_from_the_start_of_the_file(home: Path) -> None:
    (home / "USER.md").write_bytes(b"\n\n  ok \xff\n")
    info = compose(home).file("USER.md")
    assert info is not None and info.decode_error == "not valid UTF-8 (byte 0xff at offset 7)"


def test_with_text_composes_as_if_the_file_held_the_text(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.")
    (home / "MEMORY.md").write_text("- a\n")
    planned = compose(home).with_text("MEMORY.md", "- a\n- b\n")
    (home / "MEMORY.md").write_text("- a\n- b\n")
    assert planned == compose(home)
    created = compose(home).with_text("USER.md", "- name is Muthu\n")
    assert created.found == ["SOUL.md", "USER.md", "MEMORY.md"]
    assert (home / "USER.md").exists() is False


def test_a_home_written_with_tilde_is_the_users_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert not memory_tool("~/agents/kip").call({"action": "add", "text": "x"}).is_error
    assert (tmp_path / "agents" / "kip" / "MEMORY.md").read_text() == "- x\n"
    assert compose_soul("~/agents/kip") == ("## MEMORY.md\n\n- x", ["MEMORY.md"])


def test_the_dry_run_of_an_over_cap_file_shows_the_truncation_notice(home: Path) -> None:
    (home / "SOUL.md").write_text("You are Kip.")
    text = "- x\n" * (MAX_FILE_BYTES // 4) + "- past the cap\n"
    planned = compose(home).with_text("MEMORY.md", text)
    memory = planned.file("MEMORY.md")
    assert memory is not None and memory.truncated and memory.size == len(text)
    assert memory.body.endswith("- x\n" + TRUNCATION_NOTICE) and "past the cap" not in memory.body
    assert planned.soul.endswith(f"- x\n{TRUNCATION_NOTICE}")
    (home / "MEMORY.md").write_text(text)
    assert planned == compose(home)


@pytest.mark.parametrize("blank", [b"\n", b" ", b"\t\r\n"])
def test_the_cap_notice_survives_a_cut_body_that_is_all_whitespace(home: Path, blank: bytes) -> None:
    data = blank * (MAX_FILE_BYTES // len(blank) + 10)
    (home / "MEMORY.md").write_bytes(data)
    on_disk = compose(home)
    assert on_disk.soul == f"## MEMORY.md\n\n{TRUNCATION_NOTICE}"
    assert on_disk.file("MEMORY.md").body == TRUNCATION_NOTICE
    planned = compose(home / "elsewhere").with_text("MEMORY.md", data.decode())
    assert planned.soul == on_disk.soul


def test_whitespace_under_the_cap_loads_as_an_empty_section(home: Path) -> None:
    (home / "MEMORY.md").write_bytes(b"\n \t" * 100_000)
    assert compose_soul(home) == ("## MEMORY.md\n\n", ["MEMORY.md"])
