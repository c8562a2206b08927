"""The documentation says what the code does.

- docs/language.md lists exactly the core keywords of `madang.language.keywords.CORE` (English and
  Korean), the Korean comparison words, the type names, the zone attributes and the built-in
  names, functions and attributes. Those tables are generated from the code: after changing
  the code, run `python tests/test_docs.py --update` to rewrite them.
- Every code block of the docs that is marked as the language parses: ```madang blocks are whole
  files (parse_module), ```madang-text blocks are card texts (parse_card_text), and
  ```madang-fragment blocks are pieces that are not checked. A block right after an HTML comment
  `<!-- file: PATH -->` is the exact content of that file.
- The example files under docs/examples/ check clean, the example games play, and the tutorial
  (docs/authoring.md and its Korean twin) shows the real output of `madang check` and
  `madang test` on them, at the lines and columns it shows.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from madang.build.loader import load_ruleset
from madang.language.diagnostics import Diagnostics
from madang.language.keywords import CORE, KO_COMPARISONS
from madang.language.parser import Origin, parse_card_text, parse_module
from madang.tools.cli import main as cli_main

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
EXAMPLES = DOCS / "examples"
LANGUAGE = DOCS / "language.md"
TUTORIALS = [DOCS / "authoring.md", DOCS / "authoring.ko.md"]


# ---------------------------------------------------------------- the generated tables


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def table_keywords() -> str:
    from madang.language.keywords import CORE

    rows = ["| English | 한국어 | used for |", "|---|---|---|"]
    for en, ko, what in CORE.values():
        rows.append(f"| `{en}` | `{ko}` | {_md(what)} |")
    return "\n".join(rows)


def table_ko_comparisons() -> str:
    from madang.language.keywords import KO_COMPARISONS

    meaning = {"<=": "at most", ">=": "at least", "<": "less than", ">": "more than"}
    rows = ["| word | means | example | reads as |", "|---|---|---|---|"]
    for word, op in KO_COMPARISONS.items():
        rows.append(f"| `{word}` | `{op}` ({meaning[op]}) | `코스트 2 {word}` | `코스트 {op} 2` |")
    return "\n".join(rows)


def table_types() -> str:
    from madang.language.symbols import TYPE_NAMES, type_name

    groups: dict[str, list[str]] = {}
    for spelling, t in TYPE_NAMES.items():
        groups.setdefault(type_name(t) if not isinstance(t, tuple) else "list", []).append(spelling)
    what = {
        "number": "a whole number (there are no fractions)",
        "text": "a string of characters",
        "bool": "`true` or `false`",
        "player": "a player (shown as P1, P2, …; `p.seat` counts from 0)",
        "object": "a card, piece or token in the game",
        "zone": "one zone (one player's hand, a shared pile, one area's units)",
        "area": "an area of the map",
        "keyword": "a game keyword (`관통`), as a value",
        "kind": "a kind of object (`creature`), as a value",
        "condition": "a condition on `it`, only as a keyword parameter (`돌파[코스트 2 이하]`)",
        "any": "anything: the checker does not check it",
        "list": "a list of any values; `list of T` (`목록 의 T`) is a list of T",
    }
    rows = ["| type | spellings | values |", "|---|---|---|"]
    for t, spellings in groups.items():
        rows.append(f"| {t} | {', '.join(f'`{s}`' for s in spellings)} | {what.get(t, '')} |")
    return "\n".join(rows)


def table_zone_attributes() -> str:
    from madang.language.symbols import ZONE_FLAGS, ZONE_SCOPES

    what = {
        "player": "one zone for each player",
        "area": "one zone for each area of the map",
        "global": "one zone for the whole game (the default)",
        "ordered": "the order of its objects matters (see the note below)",
        "public": "everyone sees its contents (the default)",
        "owner": "only its player sees its contents; the others see how many",
        "hidden": "nobody sees its contents, only how many",
        "active": "abilities of the objects in it are in force",
        "renews": "an object arriving from another zone is a new object: its fields, "
        "modifiers, grants and `once per` uses start afresh",
    }
    rows = ["| attribute | 한국어 | meaning |", "|---|---|---|"]
    for table in (ZONE_SCOPES, ZONE_FLAGS):
        by_value: dict[str, list[str]] = {}
        for spelling, v in table.items():
            by_value.setdefault(v, []).append(spelling)
        for v, spellings in by_value.items():
            en = [s for s in spellings if s.isascii()]
            ko = [s for s in spellings if not s.isascii()]
            rows.append(
                f"| {', '.join(f'`{s}`' for s in en)} | {', '.join(f'`{s}`' for s in ko)} | {what[v]} |"
            )
    return "\n".join(rows)


def _result(ret) -> str:
    from madang.language.symbols import type_name

    if callable(ret):
        try:
            return type_name(ret([("list", "T")])).replace("any", "T") + " (from the argument)"
        except Exception:  # pragma: no cover - a result type we cannot describe
            return "depends on the arguments"
    return type_name(ret)


def table_builtin_functions() -> str:
    from madang.language.signatures import BUILTIN_SIGS

    rows = ["| function | arguments | result | what it gives |", "|---|---|---|---|"]
    for name, b in BUILTIN_SIGS.items():
        n = f"{b.min_args}" if b.min_args == b.max_args else f"{b.min_args}–{b.max_args}"
        rows.append(f"| `{name}` | {n} | {_result(b.returns)} | {_md(b.doc)} |")
    return "\n".join(rows)


def table_builtin_names() -> str:
    from madang.language.signatures import BUILTIN_NAMES
    from madang.language.symbols import type_name

    what = {
        "players": "the players still in the game, in seat order",
        "active": "the player whose turn it is (set by `turn P:`)",
        "first_player": "the first player in turn order (P1 unless the rules set it)",
        "turn_direction": "1 (seat order) or -1 (reverse): the direction of `next_player`",
        "turn_number": "turns begun so far (`turn P:` adds 1)",
        "resolving": "an effect (an object's trigger, replacement or action) is being processed"
        " ([11.8](#118-state-checks))",
        "round_number": "rounds begun so far (`round:` adds 1)",
        "player_count": "the number of players in this game",
        "areas": "every area of the map in use",
        "option": "`option.NAME` (also `옵션.NAME`): the value of an option of ruleset.yaml",
        "data": "`data.KEY` (also `자료.KEY`): the free-form `data:` of ruleset.yaml",
    }
    rows = ["| name | type | value |", "|---|---|---|"]
    for name, t in BUILTIN_NAMES.items():
        rows.append(f"| `{name}` | {type_name(t)} | {what.get(name, '')} |")
    return "\n".join(rows)


def table_attributes() -> str:
    from madang.language.signatures import OBJECT_ATTRS, PLAYER_ATTRS
    from madang.language.symbols import type_name

    what = {
        "owner": "its owner (assignable: `c.owner = p`)",
        "zone": "the zone it is in",
        "position": "its index in its zone, from 0 (the front)",
        "name": "its card's name",
        "kind": "its card's kind",
        "id": "its object number (objects are numbered as created)",
        "seat": "the player's seat, from 0",
    }
    rows = ["| of | attribute | type | value |", "|---|---|---|---|"]
    for name, t in OBJECT_ATTRS.items():
        rows.append(f"| object | `{name}` | {type_name(t)} | {what.get(name, '')} |")
    for name, t in PLAYER_ATTRS.items():
        rows.append(f"| player | `{name}` | {type_name(t)} | {what.get(name, '')} |")
    # Zones' attributes are resolved by the checker itself (checker.Checker._attr_of).
    rows.append("| zone | `owner`, `소유자` | player | the player of a per-player zone |")
    rows.append("| zone | `size`, `크기` | number | how many objects it holds |")
    return "\n".join(rows)


GENERATED = {
    "keywords": table_keywords,
    "ko-comparisons": table_ko_comparisons,
    "types": table_types,
    "zone-attributes": table_zone_attributes,
    "builtin-names": table_builtin_names,
    "builtin-functions": table_builtin_functions,
    "attributes": table_attributes,
}
SECTION = re.compile(r"<!-- generated: ([\w-]+) -->\n(.*?)<!-- end generated -->\n", re.S)


def update(text: str) -> str:
    return SECTION.sub(
        lambda m: f"<!-- generated: {m[1]} -->\n{GENERATED[m[1]]()}\n<!-- end generated -->\n", text
    )


# ---------------------------------------------------------------- markdown


def code_blocks(path: Path) -> list[tuple[str, str, int, str]]:
    """(info string, content, line of the opening fence, the text just before it)."""
    out = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\S*)", lines[i])
        if m:
            indent, info, start = m[1], m[2], i
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
                i += 1
            before = "\n".join(lines[max(0, start - 2) : start])
            out.append((info, "\n".join(body) + "\n", start + 1, before))
        i += 1
    return out


def table_after(text: str, marker: str) -> list[list[str]]:
    """The rows of the first markdown table after `marker`, as lists of cells."""
    at = text.index(marker)
    rows = []
    for line in text[at:].split("\n")[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if all(set(c) <= set("-: ") for c in cells):
            continue
        rows.append(cells)
    return rows[1:]  # without the header


def unquote(cell: str) -> str:
    return cell.strip().strip("`")


# ---------------------------------------------------------------- tests: the tables


def test_keyword_table_lists_exactly_the_core_keywords():
    rows = table_after(LANGUAGE.read_text(encoding="utf-8"), "<!-- generated: keywords -->")
    pairs = [(unquote(r[0]), unquote(r[1])) for r in rows]
    want = [(en, ko) for en, ko, _ in CORE.values()]
    assert sorted(pairs) == sorted(want), (
        f"missing: {sorted(set(want) - set(pairs))}; not keywords: {sorted(set(pairs) - set(want))}"
    )
    assert len(pairs) == len(set(pairs)) == len(CORE)


def test_korean_comparison_words_are_listed():
    rows = table_after(LANGUAGE.read_text(encoding="utf-8"), "<!-- generated: ko-comparisons -->")
    got = {unquote(r[0]): unquote(r[1].split()[0]) for r in rows}
    assert got == KO_COMPARISONS


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_table_is_current(name):
    text = LANGUAGE.read_text(encoding="utf-8")
    sections = dict(SECTION.findall(text))
    assert name in sections, f"docs/language.md has no <!-- generated: {name} --> section"
    assert sections[name].strip() == GENERATED[name]().strip(), (
        "the table is out of date: run `python tests/test_docs.py --update`"
    )


# ------------------------------------------------------------ tests: code blocks


def doc_blocks():
    for path in [LANGUAGE, *TUTORIALS]:
        for info, body, line, before in code_blocks(path):
            yield pytest.param(path, info, body, line, before, id=f"{path.name}:{line}")


def test_the_docs_have_language_blocks():
    infos = [b.values[1] for b in doc_blocks()]
    assert infos.count("madang") >= 10
    assert infos.count("madang-text") >= 5
    assert all(
        i
        in (
            "madang",
            "madang-text",
            "madang-fragment",
            "yaml",
            "console",
            "text",
            "json",
            "python",
            "",
        )
        for i in infos
    ), sorted(set(infos))


@pytest.mark.parametrize("path,info,body,line,before", list(doc_blocks()))
def test_code_block(path, info, body, line, before):
    where = f"{path.relative_to(REPO)}:{line}"
    m = re.search(r"<!-- file: (\S+) -->", before)
    if m:
        shown = (REPO / m[1]).read_text(encoding="utf-8")
        assert body == shown, f"{where}: the block differs from {m[1]}"
    if info in ("madang", "madang-text"):
        diags = Diagnostics()
        shown_as = str(path.relative_to(REPO))
        diags.add_source(shown_as, path.read_text(encoding="utf-8"))
        parse = parse_module if info == "madang" else parse_card_text
        tree = parse(body, Origin(shown_as, line + 1), diags)
        assert tree is not None and not diags.has_errors(), diags.render()
    elif info == "madang-fragment":
        assert fragment_parses(body), f"{where}: the fragment parses in no context"
    elif info == "yaml":
        yaml.safe_load(body)


def fragment_parses(body: str) -> bool:
    """A piece of a file parses as a file, a card text, statements of a block, or expressions."""
    indented = "".join("    " + ln + "\n" for ln in body.splitlines())
    tries = [
        (parse_module, body),
        (parse_card_text, body),
        (parse_module, "flow:\n" + indented),
        (parse_module, "".join(f"define x = {ln}\n" for ln in body.splitlines() if ln.strip())),
        (parse_module, _with_bodies(body)),  # declaration headers shown without their blocks
    ]
    for parse, text in tries:
        diags = Diagnostics()
        if parse(text, Origin("fragment"), diags) is not None and not diags.has_errors():
            return True
    return False


def _with_bodies(body: str) -> str:
    lines = body.splitlines()
    out = []
    for i, ln in enumerate(lines):
        out.append(ln)
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if ln.rstrip().endswith(":") and not nxt.startswith((" ", "\t")):
            out.append("    pass")
    return "\n".join(out) + "\n"


def test_a_fragment_that_does_not_parse_is_found():
    assert fragment_parses("count(p.hand) + 1\nnot c.fresh")
    assert not fragment_parses("after destroy(u) if:\n    pass")


# ------------------------------------------------------------ tests: the examples


def check(*args: str) -> Diagnostics:
    diags = Diagnostics()
    load_ruleset(args[0], diags, list(args[1:]))
    return diags


def test_example_card_set_checks_clean():
    diags = check("clash_of_decks", str(EXAMPLES / "my_cards.yaml"))
    assert not diags.errors and not diags.warnings, diags.render()


def test_broken_example_is_the_clean_one_with_mistakes():
    broken = (EXAMPLES / "my_cards_broken.yaml").read_text(encoding="utf-8")
    assert fix_all(broken) == (EXAMPLES / "my_cards.yaml").read_text(encoding="utf-8")


def test_broken_example_reports_its_mistakes(tmp_path):
    """A card breaking the schema hides the texts' mistakes; fixed, the five others show."""
    diags = check("clash_of_decks", str(EXAMPLES / "my_cards_broken.yaml"))
    got = [(d.span.line, d.span.col, d.message) for d in diags.sorted()]
    assert got == [(10, 5, "missing required key 'health' in card 'HARPY'")]
    fixed = tmp_path / "my_cards.yaml"
    fixed.write_text(
        fix_health((EXAMPLES / "my_cards_broken.yaml").read_text(encoding="utf-8")),
        encoding="utf-8",
    )
    lines = [
        (d.span.line, d.span.col, d.code) for d in check("clash_of_decks", str(fixed)).sorted()
    ]
    assert lines == [
        (9, 15, "unknown-keyword"),
        (21, 19, "type"),
        (26, 11, "arity"),
        (45, 27, "unknown-name"),
        (46, 15, "arity"),
    ]


FIXES = [
    ("    text: 보호, 견고\n", "    text: 보호, 견고함\n"),
    ("아우라[2]", "아우라[관통]"),
    ("    text: 관통[2]\n", "    text: 관통\n"),
    ("facing(lan)", "facing(lane)"),
    ("strike(this, t, 1)\n", "strike(this, t, 1, false)\n"),
]


def fix_health(text: str) -> str:
    old = "    attack: 2\n    text: 분노, 질주\n"
    assert old in text
    return text.replace(old, "    attack: 2\n    health: 1\n    text: 분노, 질주\n")


def fix_all(text: str) -> str:
    text = fix_health(text)
    for old, new in FIXES:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_example_scenario_passes():
    from madang.tools.scenario import run_paths

    report = run_paths([str(EXAMPLES / "phoenix_test.yaml")])
    assert report.failed == 0 and report.passed == 1, report.render()


@pytest.mark.parametrize("folder", ["twenty", "twenty_ko"])
def test_example_ruleset_checks_clean(folder):
    diags = check(str(EXAMPLES / folder))
    assert not diags.errors and not diags.warnings, diags.render()


def test_example_ruleset_in_korean_keywords_plays_the_same_games():
    import madang
    from madang.tools.agents import RandomAgent

    for seed in range(12):
        results = []
        for folder in ("twenty", "twenty_ko"):
            game = madang.new_game(EXAMPLES / folder, {"players": 2 + seed % 3}, seed=seed)
            agent = RandomAgent()
            while not game.is_terminal():
                game.apply_action(agent.choose(game, game.current_player()))
            results.append((game.digest(), game.winners, game.st.decisions))
        assert results[0] == results[1], f"seed {seed}"
        assert results[0][1], f"seed {seed}: nobody won"


def test_example_ruleset_in_korean_keywords_declares_the_same_things():
    """Same declarations in the same order; the spellings of core words, type names, zone
    attributes and (in uses) aliases differ."""
    en = parse_module(
        (EXAMPLES / "twenty" / "twenty.madang").read_text(encoding="utf-8"),
        Origin("en"),
        Diagnostics(),
    )
    ko = parse_module(
        (EXAMPLES / "twenty_ko" / "twenty.madang").read_text(encoding="utf-8"),
        Origin("ko"),
        Diagnostics(),
    )
    assert [type(d).__name__ for d in en.decls] == [type(d).__name__ for d in ko.decls]
    assert [getattr(d, "names", None) for d in en.decls] == [
        getattr(d, "names", None) for d in ko.decls
    ]


# ------------------------------------------------------------ tests: the tutorial's outputs


def console_blocks(path: Path) -> list[tuple[str, str, int]]:
    """(command, expected output, line) of the ```console blocks of a tutorial."""
    out = []
    for info, body, line, _ in code_blocks(path):
        if info == "console" and body.startswith("$ "):
            cmd, _, rest = body.partition("\n")
            out.append((cmd[2:], rest, line))
    return out


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda p: p.name)
def test_tutorial_shows_real_outputs(tutorial, tmp_path, monkeypatch, capsys):
    """Every `madang check my_cards.yaml` and `madang test ...` of the tutorial, replayed on
    the example files in the state the tutorial describes: the draft, the draft with the
    health fixed, the finished file."""
    blocks = [
        b
        for b in console_blocks(tutorial)
        if b[0].startswith(("madang check my_cards.yaml", "madang test"))
    ]
    checks = [b for b in blocks if b[0].startswith("madang check")]
    assert len(checks) == 3, [b[0] for b in blocks]
    draft = (EXAMPLES / "my_cards_broken.yaml").read_text(encoding="utf-8")
    states = iter(
        [draft, fix_health(draft), (EXAMPLES / "my_cards.yaml").read_text(encoding="utf-8")]
    )
    monkeypatch.chdir(tmp_path)
    shutil.copy(EXAMPLES / "phoenix_test.yaml", tmp_path / "phoenix_test.yaml")
    for cmd, want, line in blocks:
        if cmd.startswith("madang check"):
            (tmp_path / "my_cards.yaml").write_text(next(states), encoding="utf-8")
        capsys.readouterr()
        cli_main(cmd.split()[1:])
        got = capsys.readouterr().out
        assert got == want, f"{tutorial.name}:{line}: `{cmd}` prints\n{got}"


def deck_runs(tutorial: Path) -> tuple[dict[str, tuple[str, int]], list[str]]:
    """Part 3's console blocks by command, and its runs: the two deck checks, then the
    gauntlet."""
    blocks = {cmd: (want, line) for cmd, want, line in console_blocks(tutorial)}
    runs = [c for c in blocks if c.startswith(("madang check my_deck", "madang check docs/"))]
    runs += [c for c in blocks if c.startswith("madang simulate clash_of_decks --cards my_cards")]
    assert len(runs) == 3, runs
    return blocks, runs


def replay_deck_run(tutorial: Path, blocks: dict, cmd: str, monkeypatch, capsys) -> None:
    """Run one of Part 3's commands; its output holds the lines the tutorial shows (lines
    elided with `...` aside)."""
    want, line = blocks[cmd]
    here = EXAMPLES if "my_deck" in cmd else REPO
    monkeypatch.chdir(here)
    argv = [a for a in cmd.split()[1:]]
    if "--report" in argv:
        at = argv.index("--report")
        del argv[at : at + 2]
        argv += ["--jobs", "1"]
    capsys.readouterr()
    cli_main(argv)
    got = capsys.readouterr()
    shown = [x for x in want.splitlines() if x.strip() != "..."]
    # the bundled rules are shown where they are: the checkout, or site-packages when installed
    real = [re.sub(r"\S*/(rulesets/)", r"\1", x) for x in (got.err + got.out).splitlines()]
    kept = [x for x in real if x in shown or x.startswith("note: report written")]
    assert [x for x in shown if not x.startswith(("note:", "  7.24 s"))] == [
        x for x in kept if not x.startswith("note:")
    ], f"{tutorial.name}:{line}: `{cmd}` prints\n" + "\n".join(real)


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda p: p.name)
def test_tutorial_shows_real_deck_checks(tutorial, monkeypatch, capsys):
    """Part 3: the deck checks print what the tutorial shows, and both languages show the same
    gauntlet (played once, by the next test)."""
    blocks, runs = deck_runs(tutorial)
    if tutorial != TUTORIALS[0]:
        english, _ = deck_runs(TUTORIALS[0])
        assert blocks[runs[2]][0] == english[runs[2]][0]
    for cmd in runs[:2]:
        replay_deck_run(tutorial, blocks, cmd, monkeypatch, capsys)


@pytest.mark.slow  # 2,000 games
def test_tutorial_shows_the_real_gauntlet(monkeypatch, capsys):
    """Part 3: the gauntlet's first lines are those of the real run."""
    blocks, runs = deck_runs(TUTORIALS[0])
    replay_deck_run(TUTORIALS[0], blocks, runs[2], monkeypatch, capsys)


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda p: p.name)
def test_tutorial_shows_the_real_failure_of_a_scenario(tutorial, tmp_path, monkeypatch, capsys):
    """The failing run shown is that of the example scenario without PHOENIX's ability."""
    shown = [
        b[1]
        for b in code_blocks(tutorial)
        if b[0] == "text" and b[1].startswith("FAIL phoenix_test")
    ]
    assert len(shown) == 1
    ability = (
        "    text: |\n      instead of destroy(this) once per turn:\n          this.damage = 0\n"
    )
    text = (EXAMPLES / "phoenix_test.yaml").read_text(encoding="utf-8")
    assert ability in text
    (tmp_path / "phoenix_test.yaml").write_text(text.replace(ability, ""), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert cli_main(["test", "phoenix_test.yaml"]) == 1
    assert capsys.readouterr().out == shown[0]


@pytest.mark.parametrize("tutorial", TUTORIALS, ids=lambda p: p.name)
def test_tutorial_card_entry_checks_clean(tutorial, tmp_path):
    """The card the tutorial adds to the bundled cards.yaml is a valid Clash of Decks card."""
    entries = [b for b in code_blocks(tutorial) if "<!-- new card -->" in b[3]]
    assert entries, "the tutorial marks the added card with <!-- new card -->"
    for _, body, _, _ in entries:
        f = tmp_path / "new_card.yaml"
        f.write_text("ruleset: clash_of_decks\ncards:\n" + body, encoding="utf-8")
        diags = check("clash_of_decks", str(f))
        assert not diags.errors, diags.render()


@pytest.mark.slow  # twice 1,000 games
def test_tutorial_part1_runs_are_the_real_ones(tmp_path, monkeypatch, capsys):
    """Part 1: the card added to the bundled cards, deck 4 changed as shown, and the two
    simulations before and after print what the tutorial shows (the timing line aside)."""
    import yaml

    tutorial = TUTORIALS[0]
    blocks = {cmd: want for cmd, want, _ in console_blocks(tutorial)}
    before = "madang simulate clash_of_decks --games 1000 --seed 1"
    after = "madang simulate rulesets/clash_of_decks --games 1000 --seed 1"
    folder = tmp_path / "rulesets" / "clash_of_decks"
    shutil.copytree(REPO / "rulesets" / "clash_of_decks", folder)
    (card,) = [b[1] for b in code_blocks(tutorial) if "<!-- new card -->" in b[3]]
    with (folder / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write(card)
    (deck,) = [b[1] for b in code_blocks(tutorial) if b[0] == "yaml" and 'name: "4"' in b[1]]
    (folder / "decks" / "4.yaml").write_text(deck, encoding="utf-8")
    assert yaml.safe_load(deck)["cards"].get("GOLEM") == 1
    monkeypatch.chdir(tmp_path)
    for cmd in (before, after):
        capsys.readouterr()
        assert cli_main([*cmd.split()[1:], "--jobs", "2"]) == 0
        got = capsys.readouterr().out.splitlines()[:-1]  # the last line is the timing
        assert got == blocks[cmd].splitlines()[:-1], f"`{cmd}` prints\n" + "\n".join(got)
    ko = {cmd: want for cmd, want, _ in console_blocks(TUTORIALS[1])}
    assert ko[before] == blocks[before] and ko[after] == blocks[after]


if __name__ == "__main__":
    if sys.argv[1:] == ["--update"]:
        old = LANGUAGE.read_text(encoding="utf-8")
        new = update(old)
        LANGUAGE.write_text(new, encoding="utf-8")
        print("docs/language.md: " + ("updated" if new != old else "already current"))
    else:
        for name, fn in GENERATED.items():
            print(f"<!-- generated: {name} -->\n{fn()}\n<!-- end generated -->\n")
