"""Sizes a reader can hold and imports that run one way (issue #29), over the product and its tools
(bot, cogs, rendering):
- no import cycle, counting imports inside functions (they hide cycles rather than break them);
- no module uses another module's private names (`from x import _y`, or `obj._y` where `_y` is
  defined by another module of ours, not this one; a library's private names are another matter);
- no class over 600 lines, no function over 80.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_CLASS = 600
MAX_FUNCTION = 80


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    files = [p for folder in ("bot", "cogs", "rendering") for p in (ROOT / folder).rglob("*.py")]
    return {module_name(p): p for p in files}


@cache
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text("utf-8"))


def imported(name: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules (and `module.name`s) an import statement names, relative imports resolved."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = node.module or ""
    if node.level:
        package = name.split(".") if modules()[name].name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join(package + ([base] if base else []))
    return [base] + [f"{base}.{a.name}" for a in node.names]


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for name in modules():
        found = set()
        for node in ast.walk(tree(name)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found |= {m for m in imported(name, node) if m in modules() and m != name}
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected parts of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
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
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def defined(name: str) -> set[str]:
    """The names a module defines: functions, classes, assigned names and attributes, arguments."""
    own = set()
    for node in ast.walk(tree(name)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
    return own


@cache
def ours() -> set[str]:
    """Every private name some module of ours defines (a library's private names are not in it)."""
    return {n for name in modules() for n in defined(name) if _private(n)}


def private_uses(name: str) -> set[str]:
    """Private names of other modules of ours this module uses, as "module: _name"."""
    own = defined(name)
    used = set()
    for node in ast.walk(tree(name)):
        if isinstance(node, ast.ImportFrom):
            used |= {a.name for a in node.names if _private(a.name)}
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                used.add(node.attr)
    return {f"{name}: {u}" for u in used if u in ours()}


def _private(attr: str) -> bool:
    return attr.startswith("_") and not attr.startswith("__")


def sizes(kind: type) -> dict[str, int]:
    out = {}
    for name in modules():
        for node in ast.walk(tree(name)):
            if isinstance(node, kind):
                out[f"{name}.{node.name}"] = node.end_lineno - node.lineno + 1
    return out


def check(what: str, over: set[str]) -> None:
    assert not over, f"{what} over the limit: {sorted(over)}"


def test_no_import_cycle_even_through_imports_inside_functions():
    check("cycles", {" ".join(part) for part in cycles(import_graph())})


def test_no_module_uses_another_modules_private_names():
    check("private", set().union(*(private_uses(name) for name in modules())))


def test_no_class_over_600_lines():
    check("classes", {k for k, n in sizes(ast.ClassDef).items() if n > MAX_CLASS})


def test_no_function_over_80_lines():
    long = {**sizes(ast.FunctionDef), **sizes(ast.AsyncFunctionDef)}
    check("functions", {k for k, n in long.items() if n > MAX_FUNCTION})


def test_the_checks_see_a_planted_fault():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert "bot.table" in import_graph() and import_graph()["bot.table"]
