"""Package faces that load nothing until a name is used (PEP 562).

A face lists each name it offers and the module that defines it; the module
loads on the name's first use, so importing a face costs nothing and the
app's start loads only the modules its first frame needs.

No name a face offers may also be the name of one of its modules (importing
that module would replace the name with the module): tests/test_layers.py
holds that.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import import_module
from typing import Any


def lazy_face(package: str, home_of: Mapping[str, str]) -> None:
    """Make ``package`` load each name of ``home_of`` (name -> module, relative) from its module on first use."""
    face = sys.modules[package]

    def __getattr__(name: str) -> Any:
        module = home_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{module}", package), name)
        setattr(face, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(face), *home_of})

    face.__getattr__ = __getattr__  # type: ignore[method-assign]
    face.__dir__ = __dir__  # type: ignore[method-assign]
