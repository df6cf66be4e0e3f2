"""OpenClaw as one object: its workspace, its releases and their rules, its session kinds, its proven loader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from notebook_app.core.home.layout import FLAT, openclaw_files
from notebook_app.core.hostbase.export import Place, flat_layout
from notebook_app.core.hostbase.host import Fit, Host, Options, PathLike, SoulView
from notebook_app.core.hostbase.registry import register
from notebook_app.core.hosts.openclaw.kinds import KINDS

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition
    from notebook_app.core.hostbase.installed import Installed
    from notebook_app.core.hosts.injected import HostLoad
    from notebook_app.core.hosts.openclaw.pane import OpenClawPane
    from notebook_app.core.hosts.profile import HostProfile


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
    home_options = MappingProxyType({"agent": "an OpenClaw agent"})
    implied_by = ("agent", "openclaw_config")
    export = replace(
        flat_layout(),
        unloaded_words=(
            (
                Place.HOME,
                "memory/",
                "not injected: OpenClaw's agent reads its memory/ notes itself (memory_search, memory_get)",
            ),
        ),
    )
    layout_rank = 2

    def find_installed(self, env: Mapping[str, str]) -> Installed | None:
        from notebook_app.core.hosts.openclaw.installed import openclaw_installed  # lazy: platformdirs

        return openclaw_installed(self.id, env)

    def proven_releases(self) -> tuple[Mapping[str, Any], ...]:
        from notebook_app.core.hosts.openclaw.releases import releases  # lazy: a host's loader

        return releases()

    def version_problem(self, version: str) -> str | None:
        from notebook_app.core.hosts.openclaw.releases import resolve_release  # lazy: a host's loader

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
        from notebook_app.core.hosts.openclaw.config import read_openclaw_numbers  # lazy: a host's loader
        from notebook_app.core.hosts.openclaw.releases import openclaw_load  # lazy: a host's loader

        config = read_openclaw_numbers(openclaw_config)
        return openclaw_load(home, version, session_kind or "main", caps=config.numbers)

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
        """What release ``version`` injects in a ``session_kind`` session, each entry as the notebook shows a file
        (``## NAME``, a blank line, what OpenClaw injects for it), in its order (openclaw-releases.toml, each rule
        citing a golden made by the release's own code); its caps read from ``openclaw_config``."""
        from notebook_app.core.hosts.injected import load_json  # lazy: a host's loader
        from notebook_app.core.hosts.openclaw.config import read_openclaw_numbers  # lazy: a host's loader
        from notebook_app.core.hosts.openclaw.releases import openclaw_load  # lazy: a host's loader

        config = read_openclaw_numbers(openclaw_config)
        load = openclaw_load(home, version, session_kind or "main", caps=config.numbers)
        if isinstance(load, str):
            return load
        soul = "\n\n".join(f"## {part.name}\n\n{part.injected}" for part in load.parts)
        return SoulView(
            soul,
            (
                *(f"{'warning: ' if config.broken else ''}{note}" for note in config.notes),
                *load.notes,
                *(f"{name}: {why}" for name, why in load.skipped),
            ),
            {
                "soul": soul,
                "found": [part.name for part in load.parts if part.loads],
                "skipped": [
                    {"name": part.name, "status": part.status.value, "message": part.injected}
                    for part in load.parts
                    if not part.loads
                ]
                + [{"name": name, "status": "skipped", "message": why} for name, why in load.skipped],
                "host": self.id,
                **load_json(load, extra={"session_kind": load.kind}),
            },
            f"(empty soul: OpenClaw {load.version} injects nothing from {given})",
        )

    def compose(self, home: PathLike, profile: HostProfile, layout: FileMap | None) -> Composition | None:
        from notebook_app.core.hosts.openclaw.soul import compose_openclaw  # lazy: a host's loader

        return compose_openclaw(home, profile)

    def as_host(self, composition: Composition, profile: HostProfile, home: PathLike) -> Composition | None:
        from notebook_app.core.hosts.openclaw.soul import snapshot_as_openclaw  # lazy: a host's loader

        return snapshot_as_openclaw(composition, profile, home)

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None) -> Composition | None:
        from notebook_app.core.hosts.openclaw.soul import recompose_openclaw  # lazy: a host's loader

        return recompose_openclaw(composition, name, data)

    def pane(self, name: str, composition: Composition) -> OpenClawPane | None:
        from notebook_app.core.hosts.openclaw.pane import openclaw_pane  # lazy: a host's loader

        return openclaw_pane(name, getattr(composition.host_read, "rel", None), composition.load(name))

    def file_map(self, version: str | None = None) -> FileMap | None:
        """Its workspace in the order release ``version`` (None: the newest proven) loads its files."""
        from notebook_app.core.hosts.openclaw.releases import resolve_release  # lazy: a host's loader

        found = resolve_release(version)
        order = tuple(str(n) for n in found[0]["files"]) if not isinstance(found, str) else FLAT.order
        return openclaw_files(order)

    def find_home(self, said: str, env: Mapping[str, str], options: Options) -> Fit | str:
        """The workspace of ``--agent ID`` (none: the default agent) by its config (:mod:`.home`, its own rule)."""
        from notebook_app.core.hosts.openclaw.home import openclaw_own_home  # lazy: asked only when opening

        return openclaw_own_home(self.id, said, options.get("agent"), env, options.get("openclaw_config"))

    def fits(self, folder: Path, env: Mapping[str, str], options: Options) -> Fit | None:
        from notebook_app.core.hosts.openclaw.home import openclaw_fit  # lazy: asked only when opening

        return openclaw_fit(self.id, folder, env, options.get("openclaw_config"))

    def given_home(self, root: Path, said: str, env: Mapping[str, str], options: Options) -> Fit:
        """The folder given, and the agent whose workspace its config makes it (None: no agent's)."""
        from notebook_app.core.hosts.openclaw.home import naming_agents  # lazy: asked only when opening

        return Fit(self.id, root, said, naming_agents(root, env, options.get("openclaw_config")).agent)


OPENCLAW = register(OpenClaw())
