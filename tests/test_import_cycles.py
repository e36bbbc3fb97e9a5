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
    return _Tarjan(graph).components()


class _Tarjan:
    """Tarjan's strongly connected components, iterative, so a deep graph cannot exhaust the stack."""

    def __init__(self, graph: dict[str, set[str]]) -> None:
        self.graph = graph
        self.index: dict[str, int] = {}
        self.low: dict[str, int] = {}
        self.stack: list[str] = []
        self.on_stack: set[str] = set()
        self.found: list[list[str]] = []

    def components(self) -> list[list[str]]:
        for node in sorted(self.graph):
            if node not in self.index:
                self._visit(node)
        return self.found

    def _enter(self, node: str) -> None:
        self.index[node] = self.low[node] = len(self.index)
        self.stack.append(node)
        self.on_stack.add(node)

    def _visit(self, start: str) -> None:
        work = [(start, iter(sorted(self.graph[start])))]
        self._enter(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in self.index:
                    self._enter(child)
                    work.append((child, iter(sorted(self.graph[child]))))
                elif child in self.on_stack:
                    self.low[node] = min(self.low[node], self.index[child])
                continue
            work.pop()
            if work:
                self.low[work[-1][0]] = min(self.low[work[-1][0]], self.low[node])
            if self.low[node] == self.index[node]:
                self._close(node)

    def _close(self, root: str) -> None:
        """Pop the component ``root`` leads; keep it when it is a circle (more than one module)."""
        component = []
        while True:
            member = self.stack.pop()
            self.on_stack.discard(member)
            component.append(member)
            if member == root:
                break
        if len(component) > 1:
            self.found.append(sorted(component))


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
