"""Claude Code as one object: a project root and its auto-memory folder, its proven release and loader."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from notebook_app.core.home.layout import claude_code_files
from notebook_app.core.hostbase.export import ARCHIVE, SEVEN, ExportLayout, Place
from notebook_app.core.hostbase.host import Fit, HomeFiles, Host, Options, PathLike, SoulView
from notebook_app.core.hostbase.registry import register
from notebook_app.core.hosts.claude_code.names import INSTRUCTIONS

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition
    from notebook_app.core.hostbase.installed import Installed
    from notebook_app.core.hosts.injected import HostLoad
    from notebook_app.core.hosts.profile import HostProfile


class ClaudeCode(Host):
    """Claude Code: MEMORY.md in its auto-memory folder (``- `` lines, no USER.md), the CLAUDE.md chain read-only."""

    id = "claude-code"
    title = "Claude Code"
    layout_rank = 3
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
    soul_options = frozenset({"cwd"})
    export = ExportLayout(
        {
            **{name: (Place.MEMORY, name) for name in SEVEN},
            "AGENTS.md": (Place.HOME, "CLAUDE.md"),
        },
        (Place.MEMORY, ""),
        (Place.MEMORY, ARCHIVE),
        (Place.MEMORY, ""),
        instructions=INSTRUCTIONS,  # the project files that make a folder its project
        unloaded=frozenset({"USER.md"}),
        unloaded_words=(
            (
                Place.MEMORY,
                "",
                "not injected: a topic file Claude Code reads when MEMORY.md or the task points it there",
            ),
        ),
        scratch=False,
    )

    def export_places(self, root: Path, env: Mapping[str, str]) -> dict[Place, Path]:
        """The project, and its auto-memory folder: a move writes two places."""
        from notebook_app.core.hosts.claude_code.home import memory_dir  # lazy: asked only by a move

        return {Place.HOME: root, Place.MEMORY: memory_dir(root, env)}

    def export_problem(self, root: Path, env: Mapping[str, str]) -> str | None:
        from notebook_app.core.hosts.claude_code.home import memory_dir  # lazy: asked only by a move

        if any((root / name).is_file() for name in self.export.instructions) or memory_dir(root, env).is_dir():
            return None
        return f"{root} is not a Claude Code project: it has no CLAUDE.md and no auto-memory folder"

    def export_load(self, name: str, text: str) -> tuple[bool, str | None]:
        """CLAUDE.md loads whole; MEMORY.md loads up to its own cut (:func:`.load.memory_text`); no other."""
        if name == "AGENTS.md":
            return True, None
        if name != "MEMORY.md":
            return False, None
        from notebook_app.core.hosts.claude_code.load import memory_text  # lazy: a host's loader

        _, cut, _ = memory_text(text)
        return True, None if cut is None else f"Claude Code loads its first {cut['head_end']:,} UTF-16 units"

    def entry_home(self, root: Path, memory_dir: Path | None) -> Path:
        """Its auto-memory folder: its MEMORY.md is there, and nothing of ours goes into the project's tree."""
        return memory_dir if memory_dir is not None else root

    def find_installed(self, env: Mapping[str, str]) -> Installed | None:
        from notebook_app.core.hosts.claude_code.installed import claude_code_installed  # lazy: platformdirs

        return claude_code_installed(self.id, env)

    def proven_releases(self) -> tuple[Mapping[str, Any], ...]:
        from notebook_app.core.hosts.claude_code.load import proven_releases  # lazy: a host's loader

        return proven_releases()

    def proven_version(self, version: str | None) -> tuple[str | None, str] | None:
        from notebook_app.core.hosts.claude_code.load import claude_code_version  # lazy: a host's loader

        return claude_code_version(version)

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
        from notebook_app.core.hosts.claude_code.load import (  # lazy: a host's loader
            claude_code_load,
            claude_code_version,
        )

        proven, said = claude_code_version(version)
        return said if proven is None else claude_code_load(home, cwd=cwd, version=proven)

    def soul(
        self,
        home: Path,
        version: str | None,
        *,
        given: str | None,
        cwd: str | None = None,
        context_length: int | None = None,
        session_kind: str | None = None,
        openclaw_config: str | None = None,
    ) -> SoulView | str | None:
        """Its own ``<system-reminder>`` block for the project at ``home`` run in ``cwd`` (None: the project root):
        the instruction files and the auto memory in its order (core.hosts.claude_code.load, proven by its
        goldens); the user's own files come from ``$HOME/.claude``."""
        from notebook_app.core.hosts.claude_code.load import (  # lazy: a host's loader
            claude_code_load,
            claude_code_version,
        )
        from notebook_app.core.hosts.injected import load_json  # lazy: a host's loader
        from notebook_app.core.hosts.versions import with_proof  # lazy: a host's releases, asked by a load

        proven, said = claude_code_version(version)
        where = Path(cwd).expanduser() if cwd is not None else home
        if not where.is_dir():
            return f"{cwd}: not a folder (--cwd is the directory Claude Code runs in)"
        load = claude_code_load(home, cwd=where, version=proven)
        skipped = [part for part in load.parts if part.injected is None]
        return SoulView(
            load.reminder or "",
            (
                with_proof(self.proven_releases(), version, said),
                *load.notes,
                *(f"{part.name}: {part.note}" for part in skipped),
            ),
            {
                "soul": load.reminder or "",
                "found": [part.name for part in load.loaded],
                "skipped": [{"name": part.name, "status": "skipped", "message": part.note} for part in skipped],
                "host": self.id,
                **load_json(load, extra={"root": load.root, "cwd": load.cwd, "memory_dir": load.memory_dir}),
            },
            f"(nothing: Claude Code loads no instruction file and no MEMORY.md for {where})",
        )

    def compose(self, home: PathLike, profile: HostProfile, layout: FileMap | None) -> Composition | None:
        from notebook_app.core.hosts.claude_code.soul import compose_claude_code  # lazy: a host's loader

        return compose_claude_code(home, profile, layout.host_files if layout is not None else None)

    def as_host(self, composition: Composition, profile: HostProfile, home: PathLike) -> Composition | None:
        from notebook_app.core.hosts.claude_code.soul import snapshot_as_claude_code  # lazy: a host's loader

        return snapshot_as_claude_code(composition, profile, home)

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None) -> Composition | None:
        from notebook_app.core.hosts.claude_code.soul import recompose_claude_code  # lazy: a host's loader

        return recompose_claude_code(composition, name, data)

    def file_map(self, version: str | None = None) -> FileMap | None:

        return claude_code_files()

    def fits(self, folder: Path, env: Mapping[str, str], options: Options) -> Fit | None:
        from notebook_app.core.hosts.claude_code.home import claude_code_fit  # lazy: asked only when opening

        return claude_code_fit(self.id, folder, env)

    def home_files(self, root: Path, version: str | None, reason: str, env: Mapping[str, str]) -> HomeFiles | None:
        """Its auto-memory folder's map with the CLAUDE.md chain read-only, the folder, and how it is keyed."""
        from notebook_app.core.hosts.claude_code.home import claude_code_home_files  # lazy: asked only when opening

        return claude_code_home_files(root, reason, env)


CLAUDE_CODE = register(ClaudeCode())
