"""The package's import graph: every module imports on its own, no module imports another's
private name, and the graph has no cycle.

Edges are the `companion` imports a module makes when it runs, at the top or inside a function:
an import under `if TYPE_CHECKING:` is for the type checker only and draws no edge. Importing
`a.b.c` counts as importing `a.b.c` (its packages are loaded first, but a package's `__init__`
that imports nothing of its submodules adds no edge back)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import companion

ROOT = Path(companion.__file__).parent


def modules() -> dict[str, Path]:
    found = {"companion": ROOT / "__init__.py"}
    for info in pkgutil.walk_packages([str(ROOT)], prefix="companion."):
        module = importlib.util.find_spec(info.name)
        assert module is not None and module.origin is not None
        found[info.name] = Path(module.origin)
    return found


MODULES = modules()
SCRIPTS = {"companion.cli.__main__", "companion.ledger.migrations.env"}
"""Run, never imported: `python -m companion.cli`, and Alembic's migration environment."""


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node outside `if TYPE_CHECKING:` blocks."""
    nodes: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        nodes.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return nodes


def imports(name: str, path: Path) -> list[tuple[str, str | None]]:
    """(module, imported name) for each `companion` import `name` makes when it runs; the name
    is None for `import companion.x`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, str | None]] = []
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            found += [(base, alias.name) for alias in node.names]
    return [(module, item) for module, item in found if module.split(".")[0] == "companion"]


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = set()
        for module, item in imports(name, path):
            submodule = f"{module}.{item}"
            targets.add(submodule if submodule in MODULES else module)
        edges[name] = {target for target in targets if target in MODULES and target != name}
    return edges


@pytest.mark.parametrize("name", sorted(MODULES.keys() - SCRIPTS))
def test_every_module_imports_on_its_own(name: str) -> None:
    importlib.import_module(name)


def test_no_module_imports_a_private_name_of_another() -> None:
    private = [
        f"{name} imports {item} from {module}"
        for name, path in MODULES.items()
        for module, item in imports(name, path)
        if item is not None and item.startswith("_") and module != name
    ]
    assert private == []


def test_the_import_graph_has_no_cycle() -> None:
    edges = graph()
    state: dict[str, str] = {}
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert cycles == [], "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_graph_sees_imports_inside_functions() -> None:
    """The check above would pass vacuously if it missed imports: the command line imports the
    web server only inside `serve`'s handler, and the graph has that edge."""
    assert "companion.api.server" in graph()["companion.cli.serve"]
