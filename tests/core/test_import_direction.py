"""The product never imports the development tools (issue #29): everything under bot/tools (the
emulator, the sandbox, the benches, the attack campaign, the arena, the throwaway PostgreSQL
server), not even through an import inside a function. Only `python -m bot` (bot/__main__.py)
starts them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = "bot.tools"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_tool(name: str) -> bool:
    return name == TOOLS or name.startswith(TOOLS + ".")


def imports(path: Path) -> set[str]:
    """Every module an import statement of the file names (relative imports resolved), and
    `module.name` for each name a `from module import name` takes (it may be a sub-module)."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - (node.level - 1)] + ([base] if base else []))
            found |= {base, *(f"{base}.{a.name}" for a in node.names)}
    return found


def product_modules() -> list[Path]:
    files = [p for folder in ("bot", "cogs", "rendering") for p in (ROOT / folder).rglob("*.py")]
    return [p for p in files if not is_tool(module_name(p)) and module_name(p) != "bot.__main__"]


def leaks(paths: list[Path]) -> dict[str, list[str]]:
    found = {module_name(p): sorted(n for n in imports(p) if is_tool(n)) for p in paths}
    return {k: v for k, v in found.items() if v}


def test_the_product_never_imports_a_tool():
    assert not leaks(product_modules()), leaks(product_modules())


def test_the_check_sees_the_product_and_the_tools():
    names = {module_name(p) for p in product_modules()}
    assert {"bot.table", "bot.games.heat.engine", "cogs.table", "rendering.heat", "bot.ai.search"} <= names
    assert not any(is_tool(n) for n in names)
    assert is_tool("bot.tools.bench.store") and is_tool("bot.tools.emulator.core") and not is_tool("bot.toolsmith")


def test_the_check_sees_a_planted_import(tmp_path, monkeypatch):
    """A product module importing a tool, at the top, inside a function or relatively, is caught."""
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    games = tmp_path / "bot" / "games"
    games.mkdir(parents=True)
    planted = {
        "top.py": "from bot.tools.bench import heat\n",
        "inside.py": "def f():\n    import bot.tools.emulator.core\n",
        "relative.py": "def f():\n    from ..tools import arena\n",
        "package.py": "from bot import tools\n",
        "clean.py": "from bot.games import base\nimport bot.toolsmith\n",
    }
    for name, text in planted.items():
        (games / name).write_text(text)
    found = leaks(sorted(games.glob("*.py")))
    assert set(found) == {"bot.games.top", "bot.games.inside", "bot.games.relative", "bot.games.package"}, found


def is_test(name: str) -> bool:
    return name == "tests" or name.startswith("tests.")


def test_nothing_under_bot_imports_the_tests():
    """The tools (the bench, the emulator) and the product alike: the tests depend on bot/, never
    the other way (the e2e players moved to bot/tools/emulator for the bench)."""
    files = sorted((ROOT / "bot").rglob("*.py"))
    found = {module_name(p): sorted(n for n in imports(p) if is_test(n)) for p in files}
    assert not {k: v for k, v in found.items() if v}, {k: v for k, v in found.items() if v}


def among_test_modules(names: set[str]) -> set[str]:
    """The test modules (tests/**/test_*.py) among the names."""
    return {n for n in names if is_test(n) and n.rsplit(".", 1)[-1].startswith("test_")}


def test_no_test_module_imports_another():
    """What several test modules share lives in helper modules (tests/core/stores.py,
    tests/e2e/watch.py, tests/heat/helpers.py...) or a conftest, never in another test module: a
    reader of a test finds its tools by their names, and a test module is only ever run, not used."""
    files = sorted((ROOT / "tests").rglob("*.py"))
    found = {module_name(p): sorted(among_test_modules(imports(p)) - {module_name(p)}) for p in files}
    assert not {k: v for k, v in found.items() if v}, {k: v for k, v in found.items() if v}
