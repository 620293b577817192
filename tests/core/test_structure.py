"""Sizes a reader can hold and imports that run one way (issue #29), over the product and its tools
(bot, cogs, rendering):
- no import cycle, counting imports inside functions (they hide cycles rather than break them);
- no module uses another module's private names (`from x import _y`, or `obj._y` where `_y` is
  not defined in the module itself);
- no class over 600 lines, no function over 80.
`DEBT` names what is still over; an entry that is no longer over fails too, so the list only shrinks.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_CLASS = 600
MAX_FUNCTION = 80

# What is still over today (issue #29 shrinks it to nothing).
DEBT: dict[str, set[str]] = {
    "cycles": {
        "bot.autoplayer bot.replay bot.table",
        "bot.campaign bot.campaign.checks bot.campaign.forged bot.campaign.players bot.campaign.run bot.campaign.tables",
        "bot.emulator bot.emulator.actions bot.emulator.control bot.emulator.core bot.emulator.gateway bot.emulator.interactions bot.emulator.messaging bot.emulator.options bot.emulator.rest",
        "bot.games.heat bot.games.heat.champdata bot.games.heat.championship bot.games.heat.content bot.games.heat.engine bot.games.heat.hidden bot.games.heat.plans bot.games.heat.racer bot.games.heat.rules bot.games.heat.tournament",
        "bot.games.pon bot.games.pon.engine bot.games.pon.simulate",
        "bot.games.rallyman bot.games.rallyman.board bot.games.rallyman.engine bot.games.rallyman.generator bot.games.rallyman.par bot.games.rallyman.rules",
        "bot.games.steamworks bot.games.steamworks.engine bot.games.steamworks.simulate",
        "bot.sandbox bot.sandbox_session",
        "rendering.heat rendering.heat_standings",
    },
    "private": {
        "bot.bench_live: _db",
        "bot.bench_live: _read",
        "bot.bench_live: _thread",
        "bot.bench_pg: _db",
        "bot.emulator.interactions: _walk_components",
        "bot.emulator.testing: _connection",
        "bot.games.heat.championship: _line",
        "bot.games.heat.tournament: _line",
        "bot.games.pole.rules: _make",
        "bot.games.pon.simulate: _rank",
        "bot.games.rallyman.par: _decisions",
        "bot.games.rallyman.par: _orange",
        "bot.games.rallyman.par: _secure_cost",
        "bot.games.rallyman.styles: _orange",
        "bot.games.steamworks.simulate: _belt_rightmost",
        "bot.games.steamworks.simulate: _cost",
        "bot.games.steamworks.simulate: _device",
        "bot.games.steamworks.simulate: _supply",
        "bot.games.steamworks.simulate: _tile_at",
        "bot.sandbox: _report_logs",
        "bot.sandbox: _report_server_errors",
        "bot.store_copy: _db",
        "bot.store_copy: _lock",
        "bot.store_copy: _rows",
        "bot.store_pg: _replace",
        "rendering.steamworks: _image",
    },
    "classes": {
        "bot.games.heat.engine.HeatEngine",
        "bot.games.pon.engine.PonEngine",
        "bot.games.rallyman.engine.RallymanEngine",
        "bot.games.steamworks.engine.SteamWorksEngine",
        "bot.store.Store",
        "bot.table.Table",
    },
    "functions": {
        "bot.bench_live.move_db",
        "bot.emulator.control.control_routes",
        "bot.games.heat.engine.view",
        "bot.games.heat.rules._resolve_car",
        "bot.games.heat.rules.new_state",
        "bot.games.pon.engine._run",
        "bot.games.pon.engine.menu",
        "bot.games.pon.simulate.report",
        "bot.games.rallyman.board._build",
        "bot.games.steamworks.engine._fire",
        "bot.games.steamworks.engine.menu",
        "rendering.heat._draw_map",
        "rendering.heat._draw_panel",
        "rendering.heat._render_hand",
        "rendering.heat.place_labels",
        "rendering.heat_standings._draw",
        "rendering.pon._draw_board",
        "rendering.pon._draw_hand",
        "rendering.rallyman._draw_map",
        "rendering.rallyman._static",
        "rendering.steamworks._render_hand",
    },
}


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


def private_uses(name: str) -> set[str]:
    """Private names of other modules this module uses, as "module: _name"."""
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
    used = set()
    for node in ast.walk(tree(name)):
        if isinstance(node, ast.ImportFrom):
            used |= {a.name for a in node.names if _private(a.name)}
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                used.add(node.attr)
    return {f"{name}: {u}" for u in used}


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
    debt = DEBT[what]
    assert not over - debt, f"new {what} over the limit: {sorted(over - debt)}"
    assert not debt - over, f"paid off, remove from DEBT[{what!r}]: {sorted(debt - over)}"


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
