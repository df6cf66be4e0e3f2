"""OpenClaw as one object: its workspace, its releases and their rules, its session kinds, its proven loader."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from notebook_app.core.hosts.host import Host, PathLike
from notebook_app.core.hosts.registry import register

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition
    from notebook_app.core.hosts.injected import HostLoad
    from notebook_app.core.hosts.openclaw.pane import OpenClawPane
    from notebook_app.core.hosts.profile import HostProfile

KINDS = ("main", "group", "channel", "subagent", "cron")
"""Its session kinds, ``main`` first, each filtering the files it injects (the loader's, proven by goldens)."""


class OpenClaw(Host):
    """OpenClaw: a workspace of ``- `` lines kept in git, loaded by the rules of its proven releases."""

    id = "openclaw"
    title = "OpenClaw"
    home_words = "the OpenClaw workspace"
    archive = "memory/ARCHIVE.md"
    home_is = "an OpenClaw workspace"
    keeps = "its files are at its top, in '- ' lines"
    reads = "OpenClaw reads a workspace its config names, or one beside openclaw.json"
    detected = True
    own_home = True
    own_caps = True
    offers_git = True
    session_kinds = KINDS

    def proven_releases(self) -> tuple[Mapping[str, Any], ...]:
        from notebook_app.core.hosts.openclaw.releases import releases

        return releases()

    def version_problem(self, version: str) -> str | None:
        from notebook_app.core.hosts.openclaw.releases import resolve_release

        found = resolve_release(version)
        return found if isinstance(found, str) else None

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
        from notebook_app.core.hosts.openclaw.config import read_openclaw_numbers
        from notebook_app.core.hosts.openclaw.releases import openclaw_load

        config = read_openclaw_numbers(openclaw_config)
        return openclaw_load(home, version, session_kind or "main", caps=config.numbers)

    def compose(self, home: PathLike, profile: HostProfile, layout: FileMap | None) -> Composition | None:
        from notebook_app.core.hosts.openclaw.soul import compose_openclaw

        return compose_openclaw(home, profile)

    def as_host(self, composition: Composition, profile: HostProfile, home: PathLike) -> Composition | None:
        from notebook_app.core.hosts.openclaw.soul import snapshot_as_openclaw

        return snapshot_as_openclaw(composition, profile, home)

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None) -> Composition | None:
        from notebook_app.core.hosts.openclaw.soul import recompose_openclaw

        return recompose_openclaw(composition, name, data)

    def pane(self, name: str, composition: Composition) -> OpenClawPane | None:
        from notebook_app.core.hosts.openclaw.pane import openclaw_pane

        return openclaw_pane(name, getattr(composition.host_read, "rel", None), composition.load(name))

    def file_map(self, version: str | None = None) -> FileMap | None:
        """Its workspace in the order release ``version`` (None: the newest proven) loads its files."""
        from notebook_app.core.home.layout import FLAT, openclaw_files
        from notebook_app.core.hosts.openclaw.releases import resolve_release

        found = resolve_release(version)
        order = tuple(str(n) for n in found[0]["files"]) if not isinstance(found, str) else FLAT.order
        return openclaw_files(order)


OPENCLAW = register(OpenClaw())
