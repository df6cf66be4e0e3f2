"""Claude Code as one object: a project root and its auto-memory folder, its proven release and loader."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from notebook_app.core.hosts.host import Host, PathLike
from notebook_app.core.hosts.registry import register

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition
    from notebook_app.core.hosts.injected import HostLoad
    from notebook_app.core.hosts.profile import HostProfile


class ClaudeCode(Host):
    """Claude Code: MEMORY.md in its auto-memory folder (``- `` lines, no USER.md), the CLAUDE.md chain read-only."""

    id = "claude-code"
    title = "Claude Code"
    home_words = "the Claude Code project root"
    archive = "ARCHIVE.md"
    home_is = "a Claude Code project"
    keeps = "its memory is in Claude Code's auto-memory folder"
    elsewhere = "it"
    reads = "Claude Code reads MEMORY.md from its auto-memory folder, for a project with CLAUDE.md"
    flat = False
    detected = True
    own_caps = True
    has_user_file = False
    own_memory_tool = True
    edits_topics = True

    def entry_home(self, root: Path, memory_dir: Path | None) -> Path:
        """Its auto-memory folder: its MEMORY.md is there, and nothing of ours goes into the project's tree."""
        return memory_dir if memory_dir is not None else root

    def proven_releases(self) -> tuple[Mapping[str, Any], ...]:
        from notebook_app.core.hosts.claude_code.load import proven_releases

        return proven_releases()

    def proven_version(self, version: str | None) -> tuple[str | None, str] | None:
        from notebook_app.core.hosts.claude_code.load import claude_code_version

        return claude_code_version(version)

    def version_problem(self, version: str) -> str | None:
        proven, said = self.proven_version(version) or (None, "")
        return None if proven is not None else said

    def load(
        self,
        home: PathLike,
        version: str | None,
        *,
        cwd: PathLike | None = None,
        context_length: int | None = None,
        session_kind: str | None = None,
        openclaw_config: PathLike | None = None,
    ) -> HostLoad | str | None:
        from notebook_app.core.hosts.claude_code.load import claude_code_load, claude_code_version

        proven, said = claude_code_version(version)
        return said if proven is None else claude_code_load(home, cwd=cwd)

    def compose(self, home: PathLike, profile: HostProfile, layout: FileMap | None) -> Composition | None:
        from notebook_app.core.hosts.claude_code.soul import compose_claude_code

        return compose_claude_code(home, profile, layout.host_files if layout is not None else None)

    def as_host(self, composition: Composition, profile: HostProfile, home: PathLike) -> Composition | None:
        from notebook_app.core.hosts.claude_code.soul import snapshot_as_claude_code

        return snapshot_as_claude_code(composition, profile, home)

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None) -> Composition | None:
        from notebook_app.core.hosts.claude_code.soul import recompose_claude_code

        return recompose_claude_code(composition, name, data)

    def file_map(self, version: str | None = None) -> FileMap | None:
        from notebook_app.core.home.layout import claude_code_files

        return claude_code_files()


CLAUDE_CODE = register(ClaudeCode())
