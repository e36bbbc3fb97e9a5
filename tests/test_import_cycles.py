"""No import circles between the modules of ``app/`` and ``engine/``.

A circle makes the import order matter and hides which module is the lower one. The graph is
built statically from every import that runs (module level or inside a function, by name or
through ``importlib``); an import under ``if TYPE_CHECKING:`` never runs and does not count.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_layers import ROOT, imported_modules, module_name


def import_graph(folders: tuple[str, ...] = ("app", "engine")) -> dict[str, set[str]]:
    """Each module's runtime imports of other modules in ``folders`` (a package is its ``__init__``)."""
    paths: dict[str, Path] = {}
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            paths[module_name(path)] = path
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        targets = set()
        for _, name in imported_modules(path.read_text(encoding="utf-8"), module, path.name == "__init__.py",
                                        runtime_only=True):
            while name and name not in paths:  # a name inside a module is that module
                name = name.rpartition(".")[0]
            # Importing a module runs its packages' __init__ first: those are imported too, but a
            # module's own packages are loaded before it and are no edge.
            while name:
                if name != module and not module.startswith(name + ".") and name in paths:
                    targets.add(name)
                name = name.rpartition(".")[0]
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:  # iterative, so a deep graph cannot exhaust the stack
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_back() -> None:
    assert circles(import_graph()) == []


def test_the_finder_sees_a_circle_through_a_late_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_late_and_package_imports() -> None:
    graph = import_graph()
    assert "app.ui.timeline" in graph["app.ui.characters.characters_panel"]  # through app.ui.timeline.*
    assert "engine.synthesis.jobs" in graph["engine.synthesis.batching"]
    assert "engine.hearing.clips" in graph["engine.hearing.transcribe"]  # `from engine.hearing import clips`
    assert "engine.synthesis.process" not in graph["engine.synthesis.batching"]
