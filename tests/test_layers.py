"""The plan of the house (docs/engine.md, "Stages"): each folder of interpreter/ imports only
the folders below it, and no files import each other in a circle, deferred imports included.

    language/   runtime/      the vocabulary of the language; the machine that runs programs
         \\        /
          build/              a ruleset's sources -> a Program for the runtime
            |
          game/               the public API, saves, action space, adapters
            |
          tools/              command line, agents, server, editor, reports
"""

from __future__ import annotations

import ast
from pathlib import Path

import madang

PACKAGE = Path(madang.__file__).parent
ALLOWED = {
    "language": {"language"},
    "runtime": {"runtime"},
    "build": {"language", "runtime", "build"},
    "game": {"language", "runtime", "build", "game"},
    "tools": {"language", "runtime", "build", "game", "tools", ""},
    "": {"game", "tools", ""},
}
# Files that must never open a rules source file while a game runs.
RUNTIME_FOLDERS = ("runtime", "game")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """The madang modules a file imports, at its top or inside a function."""
    mod = module_name(path)
    package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and (node.module == "madang" or node.module.startswith("madang.")):
                target = node.module.removeprefix("madang").lstrip(".")
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}" if target else alias.name
                out.add(sub if sub in MODULES else target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("madang."):
                    out.add(alias.name.removeprefix("madang."))
    return {m for m in out if m in MODULES}


FILES = sorted(p for p in PACKAGE.rglob("*.py") if "web" not in p.parts)
MODULES = {module_name(p): p for p in FILES}


def folder(mod: str) -> str:
    return mod.split(".")[0] if "." in mod else ("" if mod in ("", "__main__") else mod)


def test_every_folder_imports_only_the_folders_below_it():
    wrong = []
    for mod, path in MODULES.items():
        here = folder(mod)
        for target in imports(path):
            if folder(target) not in ALLOWED[here]:
                wrong.append(f"{mod} imports {target}")
    assert not wrong, "imports that run back up:\n" + "\n".join(sorted(wrong))


def test_no_files_import_each_other_in_a_circle():
    graph = {mod: imports(path) - {mod} for mod, path in MODULES.items()}
    # a package's __init__ is imported by its modules implicitly; only explicit edges count
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                cycles.append(stack[stack.index(t) :] + [t])
            elif t not in state:
                visit(t, stack + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, "circles of imports:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_run_time_module_opens_a_file():
    """A running game reads only its compiled program: no `open`, `read_text` or `Path` in the
    run time and game folders, except saves, which the user names (game/saves.py reads text)."""
    found = []
    for mod, path in MODULES.items():
        if folder(mod) not in RUNTIME_FOLDERS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = None
            if isinstance(node, ast.Call):
                f = node.func
                name = (
                    f.id
                    if isinstance(f, ast.Name)
                    else f.attr
                    if isinstance(f, ast.Attribute)
                    else None
                )
            if name in ("open", "read_text", "read_bytes", "read_source"):
                found.append(f"{mod}:{node.lineno}: {name}()")
    assert not found, "\n".join(found)


def test_every_built_in_has_a_signature_and_an_implementation():
    from madang.language.signatures import BUILTIN_SIGS
    from madang.runtime.builtins import BUILTIN_FUNCS

    assert set(BUILTIN_SIGS) == set(BUILTIN_FUNCS)
