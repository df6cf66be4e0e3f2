"""Textual's private API is touched in one module, and an upgrade that moves it fails here, by name.

``notebook_app/app/widgets/textual_compat.py`` holds every read, call and
override of a private Textual member; each is listed below with the signature
it was written against (Textual 8.2.8). When an upgrade removes or changes
one, its own test fails naming it, before a rendering test fails somewhere
far from the cause. The scans prove no other module reaches past Textual's
public API: by import, by attribute, or by overriding a base class's member.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from pathlib import Path

import pytest
from textual.app import App
from textual.reactive import Reactive
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import TextArea
from textual.widgets.text_area import Document, WrappedDocument

import notebook_app

PACKAGE = Path(notebook_app.__file__).resolve().parent
COMPAT = PACKAGE / "app" / "widgets" / "textual_compat.py"

METHODS = [
    # (class, private method, the signature the compat module was written against)
    (App, "_refresh_truecolor_filter", "(self, theme: 'TerminalTheme') -> 'None'"),
    (
        Screen,
        "_update_focus_styles",
        "(self, focused: 'Widget | None' = None, blurred: 'Widget | None' = None) -> 'None'",
    ),
    (
        ScrollView,
        "_size_updated",
        "(self, size: 'Size', virtual_size: 'Size', container_size: 'Size', layout: 'bool' = True) -> 'bool'",
    ),
    (ScrollView, "_scroll_update", "(self, virtual_size: 'Size') -> 'None'"),
    (TextArea, "_refresh_size", "(self) -> 'None'"),
]


@pytest.mark.parametrize(("owner", "name", "signature"), METHODS, ids=[f"{o.__name__}.{n}" for o, n, _ in METHODS])
def test_each_private_method_the_compat_module_uses_is_there_with_its_signature(
    owner: type, name: str, signature: str
) -> None:
    member = getattr(owner, name, None)
    assert member is not None, f"Textual's {owner.__name__}.{name} is gone: see textual_compat.py"
    assert str(inspect.signature(member)) == signature, (
        f"Textual's {owner.__name__}.{name} changed its signature to {inspect.signature(member)}: see textual_compat.py"
    )


REACTIVES = [(Screen, "focused"), (Widget, "virtual_size")]


@pytest.mark.parametrize(("owner", "name"), REACTIVES, ids=[f"{o.__name__}.{n}" for o, n in REACTIVES])
def test_each_reactive_the_compat_module_redeclares_is_still_a_reactive(owner: type, name: str) -> None:
    assert isinstance(owner.__dict__.get(name), Reactive), (
        f"Textual's {owner.__name__}.{name} is no longer a reactive declared there: see textual_compat.py"
    )


def _instance_attributes() -> list[tuple[str, object, str]]:
    wrapped = WrappedDocument(Document("one\ntwo"), width=10)
    return [
        ("ScrollView._size", ScrollView(), "_size"),
        ("ScrollView._container_size", ScrollView(), "_container_size"),
        ("WrappedDocument._offset_to_line_info", wrapped, "_offset_to_line_info"),
        ("WrappedDocument._width", wrapped, "_width"),
        ("TextArea._line_cache", TextArea("one"), "_line_cache"),
    ]


@pytest.mark.parametrize("index", range(5), ids=[label for label, _, _ in _instance_attributes()])
def test_each_private_attribute_the_compat_module_reads_is_set_by_textual(index: int) -> None:
    label, instance, name = _instance_attributes()[index]
    assert hasattr(instance, name), f"Textual's {label} is gone: see textual_compat.py"


def test_the_wrapped_row_index_counts_the_rows_textual_counts() -> None:
    """The shortcut for the height must give Textual's own height, wrapped lines included."""
    from notebook_app.app.widgets.textual_compat import wrapped_height, wrapped_width

    wrapped = WrappedDocument(Document("a short line\n" + "a line long enough to wrap " * 3 + "\n\nend"), width=20)
    assert wrapped_height(wrapped) == wrapped.height
    assert wrapped_width(wrapped) == 20


def test_a_textarea_still_assigns_the_documents_the_buffer_swaps() -> None:
    """The buffer changes the class of the documents TextArea makes itself; it must still make them by assignment."""
    from notebook_app.app.widgets.editor.buffer import CachedText, CountedRows, EditorBuffer

    buffer = EditorBuffer("one\ntwo")
    assert type(buffer.document) is CachedText, "TextArea no longer assigns self.document: see SwappedDocuments"
    assert type(buffer.wrapped_document) is CountedRows, (
        "TextArea no longer assigns self.wrapped_document: see SwappedDocuments"
    )


# --------------------------------------------------------------------------
# Nothing outside the compat module touches a private Textual name
# --------------------------------------------------------------------------


def _modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if path != COMPAT)


def private_imports(source: str) -> list[str]:
    """``from textual._x import y``, ``from textual.x import _y``, ``import textual._x``: each, as written."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "textual":
            if any(part.startswith("_") for part in node.module.split(".")):
                found.append(f"from {node.module} import …")
            found += [f"from {node.module} import {alias.name}" for alias in node.names if alias.name.startswith("_")]
        elif isinstance(node, ast.Import):
            found += [
                f"import {alias.name}"
                for alias in node.names
                if alias.name.split(".")[0] == "textual" and any(p.startswith("_") for p in alias.name.split("."))
            ]
    return found


def test_no_module_imports_a_private_textual_module_or_name() -> None:
    found = {
        str(path.relative_to(PACKAGE)): hits
        for path in _modules()
        if (hits := private_imports(path.read_text(encoding="utf-8")))
    }
    assert not found, f"private Textual imports outside textual_compat.py: {found}"


def _textual_classes_of_notebook() -> list[type]:
    classes = []
    for info in pkgutil.walk_packages(notebook_app.__path__, "notebook_app."):
        if info.name.endswith("__main__") or info.name.endswith("textual_compat"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and value.__module__ == module.__name__
                and any(base.__module__.split(".")[0] == "textual" for base in value.__mro__)
            ):
                classes.append(value)
    return classes


def _self_attributes(cls: type) -> set[str]:
    """Private names a class's own source reads or writes on ``self`` (and ``super()``)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    except (OSError, TypeError):
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            target = node.value
            if (isinstance(target, ast.Name) and target.id == "self") or (
                isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and target.func.id == "super"
            ):
                names.add(node.attr)
    return names


def _automatic_names() -> set[str]:
    """The private names Textual's metaclass writes into every class (bindings, CSS, reactives' bookkeeping)."""

    class Probe(Widget):
        pass

    return {name for name in vars(Probe) if name.startswith("_")} | {"_abc_impl"}  # and abc's, in every ABC


def textual_private_names(cls: type) -> dict[str, str]:
    """Private name -> the Textual class in ``cls``'s MRO that has
    it (in its dict, or set on ``self`` in its source)."""
    names: dict[str, str] = {}
    for base in cls.__mro__:
        if base.__module__.split(".")[0] != "textual":
            continue
        for name in vars(base):
            if name.startswith("_") and not name.startswith("__"):
                names.setdefault(name, base.__qualname__)
        for name in _self_attributes(base):
            names.setdefault(name, base.__qualname__)
    return names


def private_members_touched(cls: type, automatic: set[str]) -> list[str]:
    """Textual's private members that ``cls`` itself defines, overrides or uses on ``self``, as ``Base._name``."""
    textual = textual_private_names(cls)
    own = {name for name in vars(cls) if name.startswith("_") and not name.startswith("__")} - automatic
    own |= _self_attributes(cls)
    return sorted(f"{textual[name]}.{name}" for name in own if name in textual)


def test_no_class_outside_the_compat_module_overrides_or_uses_a_private_textual_member() -> None:
    """Checked through the MRO at run time, for every widget, screen and app class of notebook_app."""
    classes = _textual_classes_of_notebook()
    assert len(classes) > 20, "the scan found too few Textual classes to mean anything"
    automatic = _automatic_names()
    found = {
        f"{cls.__module__}.{cls.__qualname__}": hits
        for cls in classes
        if (hits := private_members_touched(cls, automatic))
    }
    assert not found, f"private Textual members touched outside textual_compat.py: {found}"


def test_no_module_reads_a_private_textual_member_of_another_object() -> None:
    """``app._x``, ``text_area._x``: a private name that Textual's classes have and notebook_app never defines."""
    textual: dict[str, str] = {}
    for cls in _textual_classes_of_notebook():
        for name, owner in textual_private_names(cls).items():
            textual.setdefault(name, owner)
    assert len(textual) > 100, "the scan found too few private Textual names to mean anything"
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _modules()}
    defined = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif isinstance(node, (ast.Name, ast.arg)):
                defined.add(node.id if isinstance(node, ast.Name) else node.arg)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                defined.add(node.target.id)
    found = sorted(
        f"{path.relative_to(PACKAGE)}:{node.lineno} {textual[node.attr]}.{node.attr}"
        for path, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in textual and node.attr not in defined
    )
    assert not found, f"private Textual members read outside textual_compat.py: {found}"


def test_the_scans_catch_what_they_look_for() -> None:
    """Each check flags a planted case, so a clean result means something."""
    assert private_imports("from textual.document._document import Document") == [
        "from textual.document._document import …"
    ]
    assert private_imports("from textual.widgets import _text_area") == ["from textual.widgets import _text_area"]
    assert private_imports("import textual._compositor") == ["import textual._compositor"]
    assert private_imports("from textual.widgets.text_area import Document") == []

    class Planted(ScrollView):
        def _size_updated(self, size, virtual_size, container_size, layout=True):  # noqa: ANN001
            self._scroll_update(virtual_size)
            return False

    assert private_members_touched(Planted, _automatic_names()) == [
        "ScrollView._scroll_update",
        "ScrollView._size_updated",
    ]
