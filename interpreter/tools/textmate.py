"""The TextMate grammar of the language for editors, generated from the keyword table so that
both spellings of every keyword are highlighted and the list cannot drift from the lexer.

    python -m madang.tools.textmate > editors/vscode/syntaxes/madang.tmLanguage.json
"""

from __future__ import annotations

import json
import re

from ..language.keywords import CORE, KO_COMPARISONS

CONSTANTS = {"TRUE", "FALSE", "NONE", "THIS", "YOU", "IT"}
OPERATORS = {"AND", "OR", "NOT", "IS", "HAS"}
DECLARATIONS = ["KIND", "ZONE", "COUNTER", "EVENT", "VERB", "DEFINE", "KEYWORD", "ACTION"]


def _words(terms) -> list[str]:
    out = []
    for term in terms:
        en, ko, _ = CORE[term]
        out += [*en.split(), *ko.split()]
    return sorted(set(out), key=lambda w: (-len(w), w))


def _alternation(words: list[str]) -> str:
    # \b does not see Hangul or Kana as word characters in every engine: write the edges out.
    return r"(?<![\w])(?:" + "|".join(map(re.escape, words)) + r")(?![\w])"


def grammar() -> dict:
    control = [t for t in CORE if t not in CONSTANTS | OPERATORS]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "madang",
        "scopeName": "source.madang",
        "fileTypes": ["madang"],
        "patterns": [
            {"include": "#comment"},
            {"include": "#string"},
            {"include": "#declaration"},
            {"include": "#number"},
            {"include": "#keyword"},
            {"include": "#operator"},
            {"include": "#constant"},
        ],
        "repository": {
            "comment": {"name": "comment.line.madang", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.madang",
                "begin": '"',
                "end": '"',
                "patterns": [{"name": "constant.character.escape.madang", "match": r"\\."}],
            },
            "number": {"name": "constant.numeric.madang", "match": r"(?<![\w])\d+(?![\w])"},
            "keyword": {"name": "keyword.control.madang", "match": _alternation(_words(control))},
            "operator": {
                "name": "keyword.operator.word.madang",
                "match": _alternation(_words(OPERATORS) + sorted(KO_COMPARISONS)),
            },
            "constant": {
                "name": "constant.language.madang",
                "match": _alternation(_words(CONSTANTS)),
            },
            "declaration": {
                "match": r"(?<![\w])("
                + "|".join(map(re.escape, _words(DECLARATIONS)))
                + r")\s+(\w+)",
                "captures": {
                    "1": {"name": "keyword.control.madang"},
                    "2": {"name": "entity.name.function.madang"},
                },
            },
        },
    }


def render() -> str:
    return json.dumps(grammar(), ensure_ascii=False, indent=2) + "\n"


if __name__ == "__main__":
    print(render(), end="")
