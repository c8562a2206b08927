"""JSON Schemas of ruleset and card files, and their errors as located, readable diagnostics.

The schemas are plain draft 2020-12 JSON Schema, so editors can use them too
(`# yaml-language-server: $schema=...`). Keys starting with `x-` are ours: they only shape the
messages (`x-expected` names what an `anyOf` wants, `x-message` says what a `pattern` means).
"""

from __future__ import annotations

import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .diagnostics import Diagnostics, Span, did_you_mean
from .yamlsrc import YamlDoc, json_key

DRAFT = "https://json-schema.org/draft/2020-12/schema"

_IDENT = {
    "type": "string",
    "pattern": "^[a-z0-9_]+$",
    "x-message": "must be an identifier of lowercase letters a-z, digits and _",
}
_LANG_CODE = {
    "type": "string",
    "pattern": "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$",
    "x-message": "is not a language code such as 'en' or 'ko'",
}
_TEXTS = {
    "type": "object",
    "description": "A text in several languages: language code -> text.",
    "propertyNames": _LANG_CODE,
    "additionalProperties": {"type": "string"},
}
_TITLE = {**_TEXTS, "required": ["en"]}
_REL_PATH = {
    "type": "string",
    "minLength": 1,
    "pattern": r"^(?![/\\])(?![A-Za-z]:)(?!(.*[/\\])?\.\.([/\\]|$))",
    "x-message": "must be a relative path inside the ruleset folder",
}
_SCALAR_VALUE = {"type": ["string", "integer", "boolean"]}
_POINTS = {"type": "object", "additionalProperties": {"type": "integer"}}

_OPTION = {
    "type": "object",
    "description": "A variant of the rules that players choose before a game.",
    "required": ["default"],
    "additionalProperties": False,
    "properties": {
        "default": {**_SCALAR_VALUE, "description": "The value when nobody chooses."},
        "default_by_players": {
            "type": "object",
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": _SCALAR_VALUE,
            "description": "The default for some numbers of players: {4: earth35}.",
        },
        "values": {
            "type": "array",
            "items": _SCALAR_VALUE,
            "minItems": 1,
            "maxItems": 1000,
            "uniqueItems": True,
            "description": "The allowed values.",
        },
        "per_seat": {"type": "boolean", "description": "Each seat picks its own value."},
        "description": _TEXTS,
        "cost": {**_POINTS, "description": "Points each value costs, for budgets."},
    },
}

MAX_PLAYERS = 16  # seats: more would make every per-seat table and pairing list explode

_NAMES = {"type": "array", "items": {"type": "string"}, "uniqueItems": True}
_LABEL = {
    "anyOf": [{"type": "string"}, _TEXTS],
    "x-expected": "a text, or texts by language such as {en: Red, ko: 빨강}",
}
_VIEW = {
    "type": "object",
    "description": "What a player is shown of the game (docs/views.md); what is not named is hidden.",
    "additionalProperties": False,
    "properties": {
        "zones": {**_NAMES, "description": "The zones shown on the board, in this order."},
        "counters": {**_NAMES, "description": "The game's own counters shown."},
        "players": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "counters": {**_NAMES, "description": "Per-player counters shown."},
                "name": {
                    "type": "object",
                    "description": "Each player's name: from a definition of the rules"
                    " (the house a seat plays), a per-seat option or a counter.",
                    "additionalProperties": False,
                    "properties": {
                        "define": {"type": "string"},
                        "option": {"type": "string"},
                        "counter": {"type": "string"},
                        "names": {"type": "object", "additionalProperties": _LABEL},
                    },
                },
            },
        },
        "areas": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"counters": {**_NAMES, "description": "Per-area counters shown."}},
        },
        "kinds": {
            "type": "object",
            "description": "Per kind of object: the properties shown and how it is named.",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "show": {**_NAMES, "description": "Properties shown (modified values)."},
                    "name": {
                        "type": "string",
                        "description": "How an object is named: {name}, {owner} (its player's name).",
                    },
                },
            },
        },
        "marks": {
            **_NAMES,
            "description": "Keywords shown as badges on the objects that have them.",
        },
        "narration": {
            "type": "object",
            "description": "Sentences for verbs by language: {en: {VERB: '{c} attacks'}}.",
            "propertyNames": _LANG_CODE,
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "labels": {
            "type": "object",
            "description": "Labels by language: {en: {NAME: LABEL}}; NAME any shown name.",
            "propertyNames": _LANG_CODE,
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}},
        },
    },
}

RULESET_SCHEMA: dict = {
    "$schema": DRAFT,
    "title": "madang ruleset",
    "type": "object",
    "required": ["name", "title", "players", "files"],
    "additionalProperties": False,
    "properties": {
        "name": {**_IDENT, "description": "The ruleset's identifier."},
        "title": _TITLE,
        "description": _TEXTS,
        "players": {
            "anyOf": [
                {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
                {
                    "type": "object",
                    "required": ["min", "max"],
                    "additionalProperties": False,
                    "properties": {
                        "min": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
                        "max": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
                    },
                },
            ],
            "x-expected": f"a number of players up to {MAX_PLAYERS}, or a range such as {{min: 2, max: 4}}",
        },
        "language": {**_LANG_CODE, "description": "The default narration language."},
        "files": {
            "type": "array",
            "items": _REL_PATH,
            "minItems": 1,
            "description": "The language files of the rules, in order.",
        },
        "cards": {"type": "array", "items": _REL_PATH, "description": "The card files."},
        "options": {
            "type": "object",
            "propertyNames": _IDENT,
            "additionalProperties": _OPTION,
        },
        "budget": {
            "type": "object",
            "description": "Option costs must fit in the points given by one option.",
            "required": ["points_from"],
            "additionalProperties": False,
            "properties": {
                "points_from": _IDENT,
                "points": _POINTS,
                "refund": _POINTS,
            },
        },
        "data": {"description": "Free-form constants for the rules."},
        "decks": {
            "type": "object",
            "additionalProperties": False,
            "required": ["option"],
            "description": "Deck files: where a seat's deck comes from (docs/authoring.md).",
            "properties": {
                "option": {**_IDENT, "description": "The per-seat option naming a seat's deck."},
                "zone": {**_IDENT, "description": "Where a deck's cards lie when its rules run."},
                "files": {"type": "array", "items": _REL_PATH},
                "fields": {
                    "type": "object",
                    "additionalProperties": {"enum": ["card", "cards", "text", "number"]},
                    "description": "What else a deck file names: a card, cards with copies, a "
                    "text or a number.",
                },
                "drawn": {**_NAMES, "description": "Zones: a card seen in its owner's is drawn."},
                "cost": {
                    "type": "string",
                    "description": "The property per-card statistics show and filter as cost.",
                },
                "played": {
                    **_NAMES,
                    "description": "Events or actions: naming a card first plays it.",
                },
            },
        },
        "settings": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "auto_single": {"type": "boolean"},
                "trigger_order": {
                    "enum": ["active_first", "turn_order", "timestamp", "chosen", "by_owner"]
                },
                "trigger_chooser": {
                    "type": "string",
                    "description": "With trigger_order chosen: a definition without parameters "
                    "giving the player who orders simultaneous triggers (default: first_player).",
                },
                "new_triggers_wait": {
                    "type": "boolean",
                    "description": "With trigger_order by_owner: the triggers met while several "
                    "players' simultaneous triggers resolve wait until all of those have resolved.",
                },
                "trigger_tiers": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Tiers of triggers (a trigger joins one with `after EVENT as "
                    "TIER`): of the triggers met at the same time, a tier's resolve before the next "
                    "tier's and before the triggers of no tier, each tier in trigger_order.",
                },
                "effect_waits": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Tiers of trigger_tiers whose triggers, met while an effect "
                    "is resolving, wait until that effect has finished.",
                },
                "source_must_remain": {
                    "type": "boolean",
                    "description": "An object's triggered ability does nothing if its source "
                    "changed zones between triggering and resolving.",
                },
                "max_steps": {"type": "integer", "minimum": 1},
                "map_option": _IDENT,
                "evaluation": {
                    "type": "string",
                    "description": "For agents: a definition with one player parameter saying "
                    "how good the position is for that player (docs/agents.md).",
                },
                "payoff": {
                    "type": "string",
                    "description": "The definition with one player parameter giving what the "
                    "game pays that player at its end (default: payoff; docs/integrations.md).",
                },
                "payoff_range": {
                    "type": "array",
                    "items": {"type": "number"},
                    "minItems": 2,
                    "maxItems": 2,
                    "description": "The lowest and highest payoff a player can get "
                    "(solvers' bounds; default [-1, 1] for win/lose, unbounded with a payoff).",
                },
                "payoff_sum": {
                    "type": "number",
                    "description": "The payoffs of all players always add up to this "
                    "(0: zero-sum); without it the game is general-sum.",
                },
                "mcts": {
                    "type": "string",
                    "description": "For agents: how `mcts` searches this game unless its spec "
                    "says otherwise, in the spec's syntax (`c=0.15:follow=6`; only depth, c, "
                    "greedy, group, prune, widen, follow, turn).",
                },
                "playout_depth": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "For agents: how many decisions a search plays at random "
                    "past its tree before the evaluation judges (default 20; 0: the evaluation "
                    "judges a position as it stands).",
                },
                "public": {
                    "type": "object",
                    "additionalProperties": False,
                    "description": "For agents: what a player knows of the others' hidden cards "
                    "besides what it sees (docs/agents.md); the default is nothing.",
                    "properties": {
                        "decklists": {
                            "type": "boolean",
                            "description": "Every player's decklist is known to all.",
                        },
                        "kinds": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "Kinds whose hidden cards are known to be of that "
                            "kind (kept apart, or another back).",
                        },
                    },
                },
            },
        },
        "scenarios": {**_REL_PATH, "description": "The folder of scenario tests."},
        "deprecated": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Old names of public definitions, each with its replacement: the old "
            "name still works and every use of it is a warning naming the replacement.",
        },
        "view": _VIEW,
        "constraints": {
            "type": "array",
            "description": "Option combinations that are refused: when every option in `if` has its value, those in `forbid` may not.",
            "items": {
                "type": "object",
                "required": ["if", "forbid", "message"],
                "additionalProperties": False,
                "properties": {
                    "if": {"type": "object"},
                    "forbid": {"type": "object"},
                    "message": {"type": "string"},
                },
            },
        },
        "maps": {
            "type": "object",
            "description": "Boards of areas: name -> {areas: {area: {adjacent: [...], ...}}, ...}.",
            "propertyNames": _IDENT,
            "additionalProperties": {
                "type": "object",
                "required": ["areas"],
                "properties": {
                    "areas": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "object",
                            "properties": {
                                "adjacent": {"type": "array", "items": {"type": "string"}}
                            },
                        },
                    },
                },
            },
        },
    },
}

_FIELD_TYPES: dict[str, dict] = {
    "number": {"type": "integer"},
    "text": {"type": "string"},
    "keyword": {"type": "string"},
    "bool": {"type": "boolean"},
    "list of text": {"type": "array", "items": {"type": "string"}},
}

# Keys every card may have besides its kind's fields.
_CARD_COMMON: dict[str, dict] = {
    "text": {"type": "string", "description": "The card's abilities, in the rules language."},
    "traits": {"type": "array", "items": {"type": "string"}},
    "id": {"type": "string", "description": "A collector number such as ST01-002."},
    "copies": {"type": "integer", "minimum": 0},
    "origin": {"type": "object", "description": "Where the card comes from (free-form)."},
}
_TRANSLATION = r"[a-z]{2}(-[A-Za-z]{2,4})?"


def card_schema(ruleset_name: str, kinds: dict[str, dict[str, tuple]]) -> dict:
    """The schema of a card file for a ruleset whose card kinds (and their aliases) are `kinds`.

    `kinds` maps each kind name to {field: (type, required[, limits])}; aliases map to the same
    dict.
    """
    names = list(kinds)
    by_fields: dict[int, list[str]] = {}
    for name, fields in kinds.items():
        by_fields.setdefault(id(fields), []).append(name)
    branches = [
        {
            "if": {"properties": {"type": {"enum": group}}, "required": ["type"]},
            "then": _kind_schema(kinds[group[0]]),
        }
        for group in by_fields.values()
    ]
    card = {
        "type": "object",
        "required": ["name", "type"],
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "type": {"enum": names, "description": "The card's kind."},
        },
        "allOf": branches,
    }
    return {
        "$schema": DRAFT,
        "title": f"{ruleset_name} cards",
        "type": "object",
        "required": ["cards"],
        "additionalProperties": False,
        "properties": {
            "ruleset": {"const": ruleset_name, "description": "The ruleset these cards are for."},
            "files": {
                "type": "array",
                "items": {"allOf": [_REL_PATH, {"pattern": "\\.madang$"}]},
                "description": "Language files of this card set, beside this file.",
            },
            "cards": {"type": "array", "items": card},
        },
    }


def _kind_schema(fields: dict[str, tuple]) -> dict:
    props: dict[str, Any] = {"name": True, "type": True, **_CARD_COMMON}
    for field, (ftype, _, *limits) in fields.items():
        props[field] = dict(_FIELD_TYPES.get(ftype, {}))
        if limits and limits[0] is not None:  # `cost: number 0..10`
            props[field]["minimum"], props[field]["maximum"] = limits[0]
            props[field]["description"] = f"{limits[0][0]} to {limits[0][1]}"
    # Two-letter keys (ja, en-US) hold translations, unless the kind names such a field.
    taken = "|".join(re.escape(k) for k in sorted(props) if re.fullmatch(_TRANSLATION, k))
    pattern = f"^(?!({taken})$){_TRANSLATION}$" if taken else f"^{_TRANSLATION}$"
    allowed = sorted(props)
    return {
        "required": [f for f, (_, required, *_) in fields.items() if required],
        "properties": props,
        "patternProperties": {
            pattern: {"type": "object", "x-translation": True, "x-allowed": allowed},
        },
        "additionalProperties": False,
    }


# -- validation ---------------------------------------------------------------------------------


def validate(data: Any, schema: dict, doc: YamlDoc, diags: Diagnostics, at: tuple = ()) -> bool:
    """Check `data` against `schema`; report every problem located in `doc`. True when valid.

    `data` is `doc.data`, or the part of it at path `at` (such as the cards inside a scenario).
    """
    instance = _jsonable(data)
    before = len(diags.errors)
    reporter = _Reporter(doc, diags, tuple(at))
    try:
        for error in Draft202012Validator(schema).iter_errors(instance):
            reporter.report(error)
    except RecursionError:
        diags.error("data nested too deeply to check", doc.span(()), code="schema")
    return len(diags.errors) == before


def _jsonable(value: Any) -> Any:
    """The data as JSON sees it: mapping keys become text (7 -> '7', true -> 'true')."""
    if isinstance(value, dict):
        return {json_key(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"string {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}


def _expected_types(types: Any) -> str:
    if isinstance(types, str):
        types = [types]
    return " or ".join(_TYPE_NAMES.get(t, t) for t in types)


def _show(value: Any) -> str:
    return repr(value) if isinstance(value, str) else _describe(value).split(" ", 1)[-1]


def _subject(path: tuple) -> str:
    """How a message names the value at `path`."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        parent = path[-2] if len(path) >= 2 else None
        if parent == "cards":
            return f"card {last + 1}"
        return f"entry {last + 1} of '{parent}'" if isinstance(parent, str) else f"entry {last + 1}"
    return f"'{last}'"


def _container(path: tuple, instance: Any) -> str:
    """How a message names the mapping at `path` ('' for the whole file)."""
    if not path:
        return ""
    if (
        isinstance(path[-1], int)
        and len(path) >= 2
        and path[-2] == "cards"
        and isinstance(instance, dict)
        and isinstance(instance.get("name"), str)
    ):
        return f"card '{instance['name']}'"
    return _subject(path)


# Language codes that surely mean a translation (other two-letter keys may be typos).
_LANGUAGES = set("en ko ja zh fr de es it pt ru nl pl sv tr th vi id ar he hi uk cs".split())
_YAML_BOOLS = {"yes", "no", "on", "off", "y", "n", "true", "false"}


_KEYWORDS = {
    "type",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "pattern",
    "minimum",
    "maximum",
    "minItems",
    "minLength",
    "uniqueItems",
}


class _Reporter:
    def __init__(self, doc: YamlDoc, diags: Diagnostics, at: tuple = ()):
        self.doc, self.diags, self.at = doc, diags, at
        self.seen: set = set()

    def error(self, message: str, span: Span, hint: str | None = None) -> None:
        self.diags.error(message, span, hint=hint, code="schema")

    def report(self, e: ValidationError) -> None:
        path = self.at + tuple(e.absolute_path)
        handler = getattr(self, f"_{e.validator}", None) if e.validator in _KEYWORDS else None
        if "propertyNames" in e.absolute_schema_path:
            self._property_name(e, path)
        elif e.validator in ("anyOf", "oneOf"):
            self._any_of(e, path)
        elif handler is not None:
            handler(e, path)
        else:
            self.error(f"{_subject(path)}: {e.message}", self.doc.span(path))

    # one method per JSON Schema keyword --------------------------------------------------------

    def _type(self, e: ValidationError, path: tuple) -> None:
        if e.schema.get("x-translation") and path[-1].split("-")[0] not in _LANGUAGES:
            self._unknown_key(path[:-1], path[-1], e.schema.get("x-allowed", []), e.instance)
            return
        if e.schema.get("x-translation"):
            message = f"{_subject(path)} must be a mapping, got {_describe(e.instance)}"
            hint = "a language code holds a translation, such as {name: ..., text: ...}"
            self.error(message, self.doc.span(path), hint)
            return
        if not path and e.instance is None:
            required = e.schema.get("required", [])
            hint = f"expected keys: {', '.join(required)}" if required else None
            self.error("the file is empty", self.doc.span(path), hint)
            return
        expected = _expected_types(e.validator_value)
        message = f"{_subject(path)} must be {expected}, got {_describe(e.instance)}"
        self.error(message, self.doc.span(path), self._type_hint(e, path))

    def _type_hint(self, e: ValidationError, path: tuple) -> str | None:
        types = e.validator_value if isinstance(e.validator_value, list) else [e.validator_value]
        written = self.doc.source(path)
        if "string" in types and isinstance(e.instance, int | float | bool) and written:
            if isinstance(e.instance, bool) and written.lower() in _YAML_BOOLS:
                return f'YAML reads {written} as {_show(e.instance)}; write "{written}" for text'
            return f'write "{written}" in quotes to keep it as text'
        if types == ["integer"] and isinstance(e.instance, str):
            if re.fullmatch(r"[+-]?\d+", e.instance.strip()):
                return f"write {e.instance.strip()} without quotes"
        if "boolean" in types and isinstance(e.instance, str):
            return "write true or false"
        return None

    def _required(self, e: ValidationError, path: tuple) -> None:
        key = (path, tuple(e.absolute_schema_path))
        if key in self.seen:
            return
        self.seen.add(key)
        where = _container(path, e.instance)
        for prop in e.validator_value:
            if isinstance(e.instance, dict) and prop not in e.instance:
                message = f"missing required key '{prop}'" + (f" in {where}" if where else "")
                self.error(message, self.doc.span(path))

    def _additionalProperties(self, e: ValidationError, path: tuple) -> None:
        allowed = list(e.schema.get("properties", {}))
        patterns = "|".join(e.schema.get("patternProperties", {}))
        for key in e.instance:
            if key in allowed or (patterns and re.search(patterns, key)):
                continue
            self._unknown_key(path, key, allowed, e.instance)

    def _unknown_key(self, path: tuple, key: str, allowed: list, instance: Any) -> None:
        where = _container(path, _at(self.doc, path))
        message = f"unknown key '{key}'" + (f" in {where}" if where else "")
        hint = did_you_mean(key, allowed)
        if hint is None and allowed:
            shown = [a for a in allowed if a not in ("name", "type")] or allowed
            hint = "allowed keys: " + ", ".join(shown)
            if len(hint) > 160:
                hint = None
        self.error(message, self.doc.key_span(path + (key,)), hint)

    def _enum(self, e: ValidationError, path: tuple) -> None:
        choices = [_show(v) for v in e.validator_value]
        listed = ", ".join(choices[:12]) + (", ..." if len(choices) > 12 else "")
        message = f"{_subject(path)} must be one of {listed}; got {_show(e.instance)}"
        hint = None
        if isinstance(e.instance, str):
            hint = did_you_mean(e.instance, e.validator_value)
        self.error(message, self.doc.span(path), hint)

    def _const(self, e: ValidationError, path: tuple) -> None:
        message = f"{_subject(path)} must be {_show(e.validator_value)}, got {_show(e.instance)}"
        self.error(message, self.doc.span(path))

    def _pattern(self, e: ValidationError, path: tuple) -> None:
        what = e.schema.get("x-message", f"must match the pattern {e.validator_value}")
        self.error(f"{_subject(path)} {what}, got {_show(e.instance)}", self.doc.span(path))

    def _property_name(self, e: ValidationError, path: tuple) -> None:
        key = e.instance
        what = e.schema.get("x-message", "is not allowed here")
        if what.startswith("must"):
            what = f"is not a valid name: it {what}"
        hint = None
        if key in ("true", "false", "null"):
            hint = "YAML reads a bare no/yes/on/off/null as a value: put the key in quotes"
        self.error(f"key {_show(key)} {what}", self.doc.key_span(path + (key,)), hint)

    def _minimum(self, e: ValidationError, path: tuple) -> None:
        message = f"{_subject(path)} must be at least {e.validator_value}, got {_show(e.instance)}"
        self.error(message, self.doc.span(path))

    def _maximum(self, e: ValidationError, path: tuple) -> None:
        message = f"{_subject(path)} must be at most {e.validator_value}, got {_show(e.instance)}"
        self.error(message, self.doc.span(path))

    def _minItems(self, e: ValidationError, path: tuple) -> None:
        n = e.validator_value
        need = "must not be empty" if n == 1 else f"needs at least {n} entries"
        self.error(f"{_subject(path)} {need}", self.doc.span(path))

    def _minLength(self, e: ValidationError, path: tuple) -> None:
        self.error(f"{_subject(path)} must not be empty", self.doc.span(path))

    def _uniqueItems(self, e: ValidationError, path: tuple) -> None:
        seen: list = []
        for i, item in enumerate(e.instance):
            if item in seen:
                message = f"{_subject(path)} lists {_show(item)} twice"
                self.error(message, self.doc.span(path + (i,)))
                return
            seen.append(item)

    def _any_of(self, e: ValidationError, path: tuple) -> None:
        """Explain the alternative whose type fits the value, else say what was expected."""
        by_branch: dict[int, list[ValidationError]] = {}
        for sub in e.context or []:
            by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [
            errors
            for errors in by_branch.values()
            if not any(s.validator == "type" and not s.relative_path for s in errors)
        ]
        if len(fitting) == 1:
            for sub in fitting[0]:
                self.report(sub)
            return
        expected = e.schema.get("x-expected")
        if expected is None:
            types = [b.get("type") for b in e.validator_value if isinstance(b, dict)]
            expected = _expected_types([t for t in types if isinstance(t, str)]) or "valid"
        message = f"{_subject(path)} must be {expected}, got {_describe(e.instance)}"
        self.error(message, self.doc.span(path))


def _at(doc: YamlDoc, path: tuple) -> Any:
    """The loaded value at `path` (None when there is none)."""
    node = doc.node(path)
    return node.data if node is not None else None
