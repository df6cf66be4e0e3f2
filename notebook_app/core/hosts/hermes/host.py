"""Hermes as one object: ``$HERMES_HOME`` and its ``memories/`` stores of ``§`` entries, their limits (read
once, from ``hermes-0.19.0.toml``), its proven release and loader."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from notebook_app.core.home.layout import hermes_files
from notebook_app.core.hostbase.export import ARCHIVE, SEVEN, ExportLayout, Place
from notebook_app.core.hostbase.host import Fit, HomeFiles, Host, Options, PathLike, SoulView
from notebook_app.core.hostbase.registry import register
from notebook_app.core.hosts.hermes.rules import rules

if TYPE_CHECKING:
    from notebook_app.core.home.layout import FileMap
    from notebook_app.core.home.soul import Composition
    from notebook_app.core.hostbase.installed import Installed
    from notebook_app.core.hosts.injected import HostLoad
    from notebook_app.core.hosts.profile import HostProfile


@cache
def default_limits() -> Mapping[str, int]:
    """MEMORY.md's and USER.md's limits in characters when ``config.yaml`` sets none, from its TOML."""
    read = rules()
    return {"MEMORY.md": int(read["memory_limit"]), "USER.md": int(read["user_limit"])}


class Hermes(Host):
    """Hermes: SOUL.md at the top of ``$HERMES_HOME``, MEMORY.md and USER.md as ``§`` stores in ``memories/``."""

    id = "hermes"
    title = "Hermes"
    home_words = "$HERMES_HOME"
    archive = "memories/ARCHIVE.md"
    home_is = "a Hermes home"
    keeps = "its stores are in memories/"
    elsewhere = "them"
    reads = "Hermes keeps MEMORY.md and USER.md in memories/ beside config.yaml or SOUL.md"
    flat = False
    detected = True
    own_home = True
    own_caps = True
    serves_with_profile = True
    meters_budget = True
    locked_stores = frozenset({"MEMORY.md", "USER.md"})
    reads_config_limits = True
    soul_options = frozenset({"cwd", "context_length"})
    home_options = MappingProxyType({"profile": "a Hermes profile"})
    implied_by = ("profile",)
    layout_rank = 1
    export = ExportLayout(
        {
            **{name: (Place.HOME, name) for name in SEVEN},
            "MEMORY.md": (Place.HOME, "memories/MEMORY.md"),
            "USER.md": (Place.HOME, "memories/USER.md"),
        },
        (Place.HOME, "notes"),
        (Place.HOME, f"memories/{ARCHIVE}"),
        (Place.HOME, "memories"),
        stores="memories",
    )

    def limits(self) -> Mapping[str, int]:
        """MEMORY.md's and USER.md's limits in characters when ``config.yaml`` sets none (2,200 and 1,375)."""
        return default_limits()

    def find_installed(self, env: Mapping[str, str]) -> Installed | None:
        from notebook_app.core.hosts.hermes.installed import hermes_installed  # lazy: platformdirs

        return hermes_installed(self.id, env)

    def proven_releases(self) -> tuple[Mapping[str, Any], ...]:
        from notebook_app.core.hosts.hermes.load import proven_releases  # lazy: a host's loader

        return proven_releases()

    def proven_version(self, version: str | None) -> tuple[str | None, str] | None:
        from notebook_app.core.hosts.hermes.load import hermes_version  # lazy: a host's loader

        return hermes_version(version)

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
        from notebook_app.core.hosts.hermes.load import hermes_load, hermes_version  # lazy: a host's loader

        proven, said = hermes_version(version)
        return said if proven is None else hermes_load(home, cwd=cwd, context_length=context_length)

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
        """SOUL.md, the one project context file of ``cwd`` and the ``§`` entries of ``memories/``, as Hermes joins
        them in its next session's system prompt (core.hosts.hermes.load, proven by its goldens)."""
        from notebook_app.core.hosts.hermes.load import hermes_load, hermes_version  # lazy: a host's loader
        from notebook_app.core.hosts.injected import load_json  # lazy: a host's loader
        from notebook_app.core.hosts.versions import with_proof  # lazy: a host's releases, asked by a load

        _, said = hermes_version(version)
        load = hermes_load(home, cwd=cwd, context_length=context_length)
        skipped = [part for part in load.parts if not part.loads]
        return SoulView(
            load.text or "",
            (
                with_proof(self.proven_releases(), version, said),
                *load.notes,
                *(f"{part.name}: {part.note}" for part in skipped),
            ),
            {
                "soul": load.text,
                "found": [part.name for part in load.parts if part.loads],
                "skipped": [{"name": p.name, "status": p.status.value, "message": p.note} for p in skipped],
                "host": self.id,
                **load_json(load),
            },
            f"(nothing: Hermes {load.version} loads no SOUL.md and no memory from {home})",
        )

    def compose(self, home: PathLike, profile: HostProfile, layout: FileMap | None) -> Composition | None:
        from notebook_app.core.hosts.hermes.soul import compose_hermes  # lazy: a host's loader

        return compose_hermes(home, profile)

    def as_host(self, composition: Composition, profile: HostProfile, home: PathLike) -> Composition | None:
        from notebook_app.core.hosts.hermes.soul import snapshot_as_hermes  # lazy: a host's loader

        return snapshot_as_hermes(composition, profile, home)

    def recompose(self, composition: Composition, name: str, data: bytes, *, path: str | None) -> Composition | None:
        from notebook_app.core.hosts.hermes.soul import recompose_hermes  # lazy: a host's loader

        return recompose_hermes(composition, name, data, path=path)

    def file_map(self, version: str | None = None) -> FileMap | None:
        """A Hermes home with its own limits (a home's ``config.yaml`` may set others: :func:`.config.read_config`)."""

        limits = self.limits()
        return hermes_files(limits["MEMORY.md"], limits["USER.md"])

    def find_home(self, said: str, env: Mapping[str, str], options: Options) -> Fit | str:
        """``--profile NAME``'s home, else the one Hermes runs on now (:mod:`.home`, its own rule)."""
        from notebook_app.core.hosts.hermes.home import hermes_own_home  # lazy: asked only when opening

        return hermes_own_home(self.id, said, options.get("profile"), env)

    def fits(self, folder: Path, env: Mapping[str, str], options: Options) -> Fit | None:
        from notebook_app.core.hosts.hermes.home import hermes_fit  # lazy: asked only when opening

        return hermes_fit(self.id, folder)

    def given_home(self, root: Path, said: str, env: Mapping[str, str], options: Options) -> Fit:
        from notebook_app.core.hosts.hermes.home import hermes_given  # lazy: asked only when opening

        return hermes_given(self.id, root, said)

    def home_files(self, root: Path, version: str | None, reason: str, env: Mapping[str, str]) -> HomeFiles | None:
        from notebook_app.core.hosts.hermes.home import hermes_home_files  # lazy: asked only when opening

        return hermes_home_files(root, self.limits())


HERMES = register(Hermes())
