"""The product never imports the development tools (issue #29): the emulator, the benches, the
attack campaign, the sandbox and the throwaway PostgreSQL server, not even through an import
inside a function. Only `python -m bot` (bot/__main__.py) starts them."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("bot.emulator", "bot.campaign", "bot.bench", "bot.sandbox", "bot.store_pgserver", "bot.arena",
         "bot.games.heat.bench", "bot.games.pole.bench", "bot.games.pon.bench", "bot.games.rallyman.bench",
         "bot.games.rallyman.styles", "bot.games.steamworks.balance", "bot.games.steamworks.bench")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_tool(name: str) -> bool:
    return any(name == t or name.startswith(t + ".") or name.startswith(t + "_") for t in TOOLS)


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
    return found


def product_modules() -> list[Path]:
    files = [p for folder in ("bot", "cogs", "rendering") for p in (ROOT / folder).rglob("*.py")]
    return [p for p in files if not is_tool(module_name(p)) and module_name(p) != "bot.__main__"]


def test_the_product_never_imports_a_tool():
    leaks = {module_name(p): sorted(n for n in imports(p) if is_tool(n)) for p in product_modules()}
    leaks = {k: v for k, v in leaks.items() if v}
    assert not leaks, leaks


def test_the_check_sees_the_product_and_the_tools():
    names = {module_name(p) for p in product_modules()}
    assert {"bot.table", "bot.games.heat.engine", "cogs.table", "rendering.heat"} <= names
    assert not any(is_tool(n) for n in names) and is_tool("bot.bench_store") and is_tool("bot.emulator.core")
