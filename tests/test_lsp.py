"""`madang lsp` driven by a real LSP client (pytest-lsp) over stdin/stdout: opening a ruleset,
typing a mistake, hovering, completing, going to definitions and references, formatting."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[1]


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "madang", "lsp"])
)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        t.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def clash(tmp_path) -> Path:
    """A copy of a bundled ruleset that the test may break."""
    return Path(shutil.copytree(REPO / "rulesets" / "clash_of_decks", tmp_path / "clash"))


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def open_doc(client: LanguageClient, path: Path, text: str | None = None) -> None:
    lang = "madang" if path.suffix == ".madang" else "yaml"
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(t.TextDocumentItem(uri(path), lang, 1, text))
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def position_of(path: Path, needle: str, nth: int = 0) -> t.Position:
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [(i, line.index(needle)) for i, line in enumerate(lines) if needle in line]
    i, col = hits[nth]
    return t.Position(i, col + 1)


@pytest.mark.asyncio
async def test_a_clean_ruleset_has_no_diagnostics_and_a_typed_mistake_is_located(client, clash):
    rules = clash / "abilities.madang"
    await open_doc(client, rules)
    assert not client.diagnostics[uri(rules)]
    cards = clash / "cards.yaml"
    broken = cards.read_text(encoding="utf-8").replace(
        "text: 견고함, 관통", "text: 견고함, 관퉁", 1
    )
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(t.TextDocumentItem(uri(cards), "yaml", 1, broken))
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    found = client.diagnostics[uri(cards)]
    assert len(found) == 1
    line = next(i for i, s in enumerate(broken.splitlines()) if "관퉁" in s)
    assert found[0].range.start.line == line
    assert found[0].severity == t.DiagnosticSeverity.Error
    assert "관퉁" in found[0].message and "관통" in found[0].message  # the hint names the fix
    # fixing the buffer (unsaved) clears it
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=2, uri=uri(cards)),
            [t.TextDocumentContentChangeWholeDocument(cards.read_text(encoding="utf-8"))],
        )
    )
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert not client.diagnostics[uri(cards)]


@pytest.mark.asyncio
async def test_hover_shows_the_declaration_its_comment_and_a_cards_text(client, clash):
    cards = clash / "cards.yaml"
    await open_doc(client, cards)
    hover = await client.text_document_hover_async(
        t.HoverParams(t.TextDocumentIdentifier(uri(cards)), position_of(cards, "관통"))
    )
    assert "keyword 관통/pierce" in hover.contents.value
    assert "also hits the creature behind the target" in hover.contents.value
    hover = await client.text_document_hover_async(
        t.HoverParams(t.TextDocumentIdentifier(uri(cards)), position_of(cards, "TROLL"))
    )
    assert "**card** `TROLL`" in hover.contents.value and "health 6" in hover.contents.value


@pytest.mark.asyncio
async def test_completion_offers_keywords_in_both_languages_and_names_in_scope(client, clash):
    rules = clash / "rules.madang"
    text = rules.read_text(encoding="utf-8") + "\ndefine probe(p: player) = 1\n"
    await open_doc(client, rules, text)
    line = len(text.splitlines()) - 1  # where an expression goes: every name in scope
    result = await client.text_document_completion_async(
        t.CompletionParams(t.TextDocumentIdentifier(uri(rules)), t.Position(line, 26))
    )
    labels = {item.label for item in result.items}
    assert {"when", "할때", "관통", "pierce", "TROLL", "attack_order"} <= labels


@pytest.mark.asyncio
async def test_definition_and_references_cross_files(client, clash):
    cards = clash / "cards.yaml"
    await open_doc(client, cards)
    where = await client.text_document_definition_async(
        t.DefinitionParams(t.TextDocumentIdentifier(uri(cards)), position_of(cards, "관통"))
    )
    abilities = clash / "abilities.madang"
    assert where.uri == uri(abilities)
    assert where.range.start.line == position_of(abilities, "keyword 관통").line
    refs = await client.text_document_references_async(
        t.ReferenceParams(
            text_document=t.TextDocumentIdentifier(uri(cards)),
            position=position_of(cards, "관통"),
            context=t.ReferenceContext(include_declaration=True),
        )
    )
    files = {r.uri for r in refs}
    assert uri(cards) in files and uri(abilities) in files
    assert uri(clash / "rules.madang") in files  # the rules read it with `has`


@pytest.mark.asyncio
async def test_formatting_gives_the_canonical_layout(client, clash):
    ugly = clash / "ugly.madang"
    ugly.write_text("define   heal_amount(p:player)  =  count( p.hand )\n", encoding="utf-8")
    await open_doc(client, ugly)
    edits = await client.text_document_formatting_async(
        t.DocumentFormattingParams(
            t.TextDocumentIdentifier(uri(ugly)), t.FormattingOptions(4, True)
        )
    )
    assert len(edits) == 1
    assert edits[0].new_text == "define heal_amount(p: player) = count(p.hand)\n"


@pytest.mark.asyncio
async def test_outline_and_semantic_tokens(client, clash):
    abilities = clash / "abilities.madang"
    await open_doc(client, abilities)
    symbols = await client.text_document_document_symbol_async(
        t.DocumentSymbolParams(t.TextDocumentIdentifier(uri(abilities)))
    )
    assert [s.name for s in symbols][:2] == ["광역", "관통"]
    tokens = await client.text_document_semantic_tokens_full_async(
        t.SemanticTokensParams(t.TextDocumentIdentifier(uri(abilities)))
    )
    data = tokens.data
    assert data and len(data) % 5 == 0
    first_types = [data[i + 3] for i in range(0, 30, 5)]
    assert 10 in first_types  # the opening comment is a comment token


# ---------------------------------------------------------------- the editor extension's files


def test_the_textmate_grammar_is_generated_from_the_keyword_table():
    """editors/vscode's grammar is the generator's output: a keyword added to the table and not
    regenerated fails here."""
    from madang.tools.textmate import render

    committed = (REPO / "editors" / "vscode" / "syntaxes" / "madang.tmLanguage.json").read_text(
        encoding="utf-8"
    )
    assert committed == render(), (
        "run: python -m madang.tools.textmate > editors/vscode/syntaxes/madang.tmLanguage.json"
    )


def test_the_textmate_grammar_highlights_both_spellings_of_every_keyword():
    import re

    from madang.language.keywords import CORE
    from madang.tools.textmate import grammar

    rules = grammar()["repository"]
    patterns = [re.compile(r["match"]) for r in rules.values() if "match" in r]
    for en, ko, _ in CORE.values():
        for word in (*en.split(), *ko.split()):
            assert any(p.fullmatch(word) for p in patterns), word
    assert not any(p.fullmatch("관통") for p in patterns)  # a game's word is no core keyword
    declaration = re.compile(rules["declaration"]["match"])
    assert declaration.match("verb 요새피해(").group(2) == "요새피해"


def test_the_extension_starts_the_server_for_madang_and_yaml_files():
    import json

    pkg = json.loads((REPO / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    assert pkg["contributes"]["languages"][0]["extensions"] == [".madang"]
    assert pkg["contributes"]["configuration"]["properties"]["madang.server.command"][
        "default"
    ] == ["madang", "lsp"]
    js = (REPO / "editors" / "vscode" / "extension.js").read_text(encoding="utf-8")
    assert 'language: "madang"' in js and 'language: "yaml"' in js


def test_the_extension_activates_on_a_folder_of_yaml_card_files_only():
    """The manifest wakes the extension for YAML files and for folders marked with madang.toml
    or a ruleset.yaml (not only .madang files), and every file it needs is packaged; whether a
    YAML file is madang's is decided by its content (detect.js, run here with node)."""
    import json
    import subprocess

    folder = REPO / "editors" / "vscode"
    pkg = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    events = set(pkg["activationEvents"])
    assert {"onLanguage:yaml", "onLanguage:madang", "workspaceContains:**/madang.toml",
            "workspaceContains:**/ruleset.yaml"} <= events  # fmt: skip
    assert (folder / pkg["main"]).is_file()
    for f in ("extension.js", "detect.js", "language-configuration.json"):
        assert f in pkg["files"] and (folder / f).is_file()
    js = (folder / "extension.js").read_text(encoding="utf-8")
    assert 'require("./detect")' in js and "onDidOpenTextDocument" in js
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    samples = {
        "my_cards.yaml": (REPO / "docs/examples/my_cards.yaml").read_text("utf-8"),
        "my_deck.yaml": (REPO / "docs/examples/my_deck.yaml").read_text("utf-8"),
        "ruleset.yaml": (REPO / "rulesets/clash_of_decks/ruleset.yaml").read_text("utf-8"),
        "compose.yaml": "services:\n  web: {image: nginx}\n",
        "ci.yml": "name: ci\non: push\njobs: {}\n",
    }
    script = (
        f"const d = require({json.dumps(str(folder / 'detect.js'))});"
        "const s = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = {}; for (const k in s) out[k] = d.isMadangDocument('yaml', k, s[k]);"
        "process.stdout.write(JSON.stringify(out));"
    )
    got = subprocess.run([node, "-e", script], input=json.dumps(samples), capture_output=True,
                         text=True, check=True, timeout=60)  # fmt: skip
    assert json.loads(got.stdout) == {"my_cards.yaml": True, "my_deck.yaml": True,
                                      "ruleset.yaml": True, "compose.yaml": False,
                                      "ci.yml": False}  # fmt: skip


def test_an_unrelated_yaml_file_gets_no_diagnostics(tmp_path):
    from madang.tools.lsp import Workspace

    other = tmp_path / "docker-compose.yaml"
    other.write_text("services:\n  web: {image: nginx}\n", encoding="utf-8")
    assert Workspace().analyse(other).diagnostics == []


def test_a_deck_file_is_checked_as_typed_with_its_cards_and_rules(tmp_path):
    """Deck files (#13): the cards beside the deck count, and a broken deck rule is reported
    at the card's line while the buffer is unsaved."""
    import shutil

    from madang.tools.lsp import Workspace

    for name in ("cards.yaml", "deck.yaml"):
        shutil.copy(REPO / "docs" / "examples" / "nivel_set" / name, tmp_path / name)
    deck = tmp_path / "deck.yaml"
    ws = Workspace()
    assert [d for d in ws.analyse(deck).diagnostics if d.severity == "error"] == []
    typed = deck.read_text(encoding="utf-8").replace('"ブレイズ": 3', '"ブレイズ": 4')
    ws.open(deck, typed)
    errors = [d for d in ws.analyse(deck).diagnostics if d.severity == "error"]
    line = next(i for i, s in enumerate(typed.splitlines(), 1) if '"ブレイズ": 4' in s)
    assert any("5.1.2.2" in d.message and d.span.line == line for d in errors), errors


def test_completion_and_hover_know_the_cards_of_a_deck_file(tmp_path):
    """In a deck file the server completes card names (the set's beside it and the ruleset's)
    and hovers a card with its kind, numbers and text."""
    import shutil

    from madang.tools.lsp import Workspace, completions, hover_text

    for name in ("cards.yaml", "deck.yaml"):
        shutil.copy(REPO / "docs" / "examples" / "nivel_set" / name, tmp_path / name)
    ws = Workspace()
    analysis = ws.analyse(tmp_path / "deck.yaml")
    labels = {c[0] for c in completions(analysis)}
    assert {"ブレイズ", "ノイズ"} <= labels  # a new card of the set and a card of the ruleset
    text = hover_text(ws, analysis, "フレア") or ""
    assert "card" in text and "파워 4000" in text and "어태커" in text


# -------------------------------------------------- quick fixes, rename, signatures, context


@pytest.mark.asyncio
async def test_a_did_you_mean_diagnostic_has_a_quick_fix(client, tmp_path):
    cards = tmp_path / "spear.yaml"
    shutil.copy(REPO / "docs" / "examples" / "cli" / "misspelt-keyword.yaml", cards)
    await open_doc(client, cards)
    (diag,) = client.diagnostics[uri(cards)]
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            t.TextDocumentIdentifier(uri(cards)),
            diag.range,
            t.CodeActionContext(diagnostics=[diag]),
        )  # fmt: skip
    )
    (fix,) = actions
    assert fix.kind == t.CodeActionKind.QuickFix and fix.title == "Change to '관통'"
    (edit,) = fix.edit.changes[uri(cards)]
    line = cards.read_text(encoding="utf-8").splitlines()[edit.range.start.line]
    assert line[edit.range.start.character : edit.range.end.character] == "관퉁"
    assert edit.new_text == "관통"


@pytest.mark.asyncio
async def test_rename_changes_a_keyword_and_a_card_in_every_file(client, clash):
    cards = clash / "cards.yaml"
    await open_doc(client, cards)
    edit = await client.text_document_rename_async(
        t.RenameParams(t.TextDocumentIdentifier(uri(cards)), position_of(cards, "관통"), "꿰뚫기")
    )
    files = set(edit.changes)
    assert {uri(cards), uri(clash / "abilities.madang"), uri(clash / "rules.madang")} <= files
    for target, edits in edit.changes.items():
        lines = Path(t_path := target.removeprefix("file://")).read_text("utf-8").splitlines()
        for e in edits:
            assert e.new_text == "꿰뚫기", t_path
            assert (
                lines[e.range.start.line][e.range.start.character : e.range.end.character] == "관통"
            )
    edit = await client.text_document_rename_async(
        t.RenameParams(t.TextDocumentIdentifier(uri(cards)), position_of(cards, "TROLL"), "OGRE2")
    )
    decks = {u for u in edit.changes if "/decks/" in u}
    assert uri(cards) in edit.changes and decks  # the sample decks that hold TROLL follow
    nothing = await client.text_document_rename_async(
        t.RenameParams(t.TextDocumentIdentifier(uri(cards)), position_of(cards, "관통"), "a b")
    )
    assert nothing is None  # a new name must be one word


@pytest.mark.asyncio
async def test_signature_help_for_a_verb_and_a_builtin(client, clash):
    rules = clash / "rules.madang"
    await open_doc(client, rules)
    at = position_of(rules, "strike(s, target")
    help_ = await client.text_document_signature_help_async(
        t.SignatureHelpParams(
            t.TextDocumentIdentifier(uri(rules)),
            t.Position(at.line, at.character + len("trike(s, ")),
        )  # fmt: skip
    )
    sig = help_.signatures[0]
    assert sig.label.startswith("strike(") and len(sig.parameters) == 4
    assert help_.active_parameter == 1
    at = position_of(rules, "first(foes)")
    help_ = await client.text_document_signature_help_async(
        t.SignatureHelpParams(
            t.TextDocumentIdentifier(uri(rules)), t.Position(at.line, at.character + len("irst("))
        )  # fmt: skip
    )
    assert help_.signatures[0].label.startswith("first(") and help_.signatures[0].documentation


@pytest.mark.asyncio
async def test_completion_is_filtered_by_context(client, clash, tmp_path):
    rules = clash / "rules.madang"
    text = rules.read_text(encoding="utf-8") + "\nverb probe(p: player):\n    \n"
    await open_doc(client, rules, text)
    line = len(text.splitlines()) - 1

    async def labels(path, line, col):
        got = await client.text_document_completion_async(
            t.CompletionParams(t.TextDocumentIdentifier(uri(path)), t.Position(line, col))
        )
        return {i.label for i in got.items}

    start = await labels(rules, line, 4)  # a statement goes here
    assert {"if", "move", "만약"} <= start and "TROLL" not in start and "관통" not in start
    cards = tmp_path / "mine.yaml"
    cards.write_text("ruleset: clash_of_decks\ncards:\n  - name: X\n    type: spell\n    \n"
                     "  - name: Y\n    type: creature\n    \n    text: \n", encoding="utf-8")  # fmt: skip
    await open_doc(client, cards)
    spell, creature = await labels(cards, 4, 4), await labels(cards, 7, 4)
    assert "cost" in spell and "health" not in spell  # the fields of the kind at hand
    assert {"cost", "health"} <= creature and "if" not in creature
    assert {"관통", "분노"} <= await labels(cards, 8, 10) and "TROLL" not in await labels(
        cards, 8, 10
    )
    (tmp_path / "d").mkdir()
    shutil.copy(REPO / "docs" / "examples" / "my_cards.yaml", tmp_path / "d" / "my_cards.yaml")
    deck = tmp_path / "d" / "deck.yaml"
    deck.write_text("ruleset: clash_of_decks\nname: d\ncards:\n  HARPY: 1\n  \n", "utf-8")
    await open_doc(client, deck)
    in_deck = await labels(deck, 4, 2)  # the game's cards and those of the file beside the deck
    assert {"TROLL", "GARGOYLE"} <= in_deck and "if" not in in_deck and "cost" not in in_deck


@pytest.mark.slow
def test_the_packaged_extension_activates_on_yaml_card_files(tmp_path):
    """#36: the extension packaged as VS Code installs it (vsce, from the npm registry), and the
    manifest inside the .vsix wakes it for YAML files and marked folders, with every file it
    needs inside."""
    import json
    import subprocess
    import zipfile

    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx (Node.js) is not installed: the extension cannot be packaged here")
    work = tmp_path / "vscode"
    shutil.copytree(REPO / "editors" / "vscode", work)
    vsix = tmp_path / "madang.vsix"
    done = subprocess.run(
        [npx, "-y", "@vscode/vsce@3", "package", "--no-dependencies", "--skip-license",
         "--allow-missing-repository", "-o", str(vsix)],
        cwd=work, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("extension/package.json"))
    assert {"extension/extension.js", "extension/detect.js"} <= names
    events = set(manifest["activationEvents"])
    assert {"onLanguage:yaml", "workspaceContains:**/madang.toml",
            "workspaceContains:**/ruleset.yaml"} <= events  # fmt: skip
