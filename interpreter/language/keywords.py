"""The core keywords of the language, each with its English and Korean spelling.

The lexer reads every word as a NAME; `KEYWORDS` turns reserved words into their terminals.
This table is the single source of the keyword list in docs/language.md (a test compares them).
"""

from __future__ import annotations

# terminal: (English, Korean, what it is for)
CORE: dict[str, tuple[str, str, str]] = {
    "KIND": ("kind", "종류", "declare a kind of object and its properties"),
    "ZONE": ("zone", "구역", "declare a zone"),
    "COUNTER": ("counter", "카운터", "declare a counter (global, per player or per area)"),
    "EVENT": ("event", "사건", "declare an event that abilities can react to"),
    "VERB": ("verb", "동사", "declare a named procedure; calling it is an event"),
    "DEFINE": ("define", "정의", "declare a named expression"),
    "KEYWORD": ("keyword", "키워드", "declare a game keyword (an ability)"),
    "ACTION": ("action", "행동", "declare an action a player may take in a window"),
    "SETUP": ("setup", "준비", "the setup block"),
    "FLOW": ("flow", "진행", "the flow of the game"),
    "CHECK": ("check", "검사", "a state check, run after every atomic action"),
    "RULE": ("rule", "규칙", "a deck-construction rule, checked on every deck file"),
    "WHEN": ("when", "할때", "trigger: another spelling of `after` (`madang fmt` writes `after`)"),
    "AFTER": ("after", "이후", "trigger: after an event"),
    "BEFORE": ("before", "이전", "trigger: before an event"),
    "INSTEAD": ("instead", "대신", "replacement: instead of an event"),
    "OF": ("of", "의", "in `instead of`, `front of`, `until end of`, `list of`"),
    "ONCE": ("once", "한번", "`once per turn` limits, `window ... once`"),
    "OPTIONAL": ("optional", "임의", "a trigger or replacement its player may decline"),
    "HOLD": ("hold", "보류", "a block whose triggered abilities wait until it ends"),
    "PER": ("per", "마다", "`once per turn`, `once per turn per c`, `per player`"),
    "IF": ("if", "만약", "condition"),
    "ELIF": ("elif", "아니고만약", "further condition"),
    "ELSE": ("else", "아니면", "otherwise"),
    "THEN": ("then", "이면", "`if c then a else b` (an expression)"),
    "FOR": ("for", "각각", "loop over a list"),
    "IN": ("in", "안에", "membership, loop source, creation zone, a counter's range"),
    "REPEAT": ("repeat", "반복", "repeat n times / until"),
    "TIMES": ("times", "회", "`repeat n times`"),
    "WHILE": ("while", "동안", "loop while a condition holds"),
    "UNTIL": ("until", "까지", "`repeat until`, `until end of turn`"),
    "LET": ("let", "변수", "declare a local name"),
    "MOVE": ("move", "이동", "move objects to a zone"),
    "TO": ("to", "으로", "destination"),
    "AT": ("at", "위치", "`move x to zone at index`"),
    "FRONT": ("front", "앞쪽", "`front of zone`: index 0"),
    "BACK": ("back", "뒤쪽", "`back of zone`: the end"),
    "CREATE": ("create", "생성", "create an object"),
    "AS": (
        "as",
        "이름",
        "name a created object; `after E as TIER`: a trigger's tier; `once per S as LIMIT`: a shared limit",
    ),
    "REMOVE": ("remove", "제거", "remove an object from the game"),
    "SHUFFLE": ("shuffle", "섞기", "shuffle a zone"),
    "CHOOSE": ("choose", "선택", "a decision: pick from options"),
    "ORDER": ("order", "정렬", "a decision: put items in order"),
    "FROM": ("from", "중에서", "option source, parameter domain"),
    "BY": ("by", "에의해", "who decides; amount of a modifier"),
    "EMIT": ("emit", "발생", "emit an event"),
    "WIN": ("win", "승리", "a player (or list) wins"),
    "LOSE": ("lose", "패배", "a player (or list) loses"),
    "TIE": ("tie", "무승부", "the game ends in a draw"),
    "END": ("end", "종료", "`end turn`, `end phase`, `end game`, `until end of`"),
    "EXPIRE": ("expire", "만료", "`expire turn`: the effects `until end of` a scope end now"),
    "TURN": ("turn", "턴", "a player's turn (scope)"),
    "ROUND": ("round", "라운드", "a round (scope)"),
    "PHASE": ("phase", "단계", "a named phase (scope)"),
    "GAME": ("game", "게임", "`end game`"),
    "PASS": ("pass", "통과", "do nothing"),
    "MUST": ("must", "필수", "`window ... must`: no `pass` while an action is legal"),
    "RETURN": ("return", "반환", "leave the current verb or ability"),
    "BREAK": ("break", "중단", "leave the current loop"),
    "MODIFY": ("modify", "변경", "a modifier of a property"),
    "GRANT": ("grant", "부여", "a modifier giving a keyword"),
    "WINDOW": ("window", "기회", "offer the actions of a window"),
    "LOG": ("log", "기록", "write a line to the game log"),
    "COST": (
        "cost",
        "비용",
        "`cost ACTION(x):` an additional cost of an action (a line word only)",
    ),
    "REVEAL": (
        "reveal",
        "공개",
        "`reveal x to p`: show objects to players (a statement word only)",
    ),
    "REQUIRE": ("require", "요구", "legality condition of an action"),
    "WHERE": ("where", "조건", "filter a list (`it` is each item)"),
    "AND": ("and", "그리고", "logical and"),
    "OR": ("or", "또는", "logical or"),
    "NOT": ("not", "아닌", "logical not"),
    "IS": ("is", "이다", "kind test"),
    "HAS": ("has", "보유", "keyword test"),
    "TRUE": ("true", "참", "boolean"),
    "FALSE": ("false", "거짓", "boolean"),
    "NONE": ("none", "없음", "no value"),
    "THIS": ("this", "이것", "the object whose ability this is"),
    "YOU": ("you", "당신", "its controller, or the acting player"),
    "IT": ("it", "그것", "the item tested in `where`"),
}

KEYWORDS: dict[str, str] = {}
for _term, (_en, _ko, _) in CORE.items():
    KEYWORDS[_en] = _term
    KEYWORDS[_ko] = _term

# Korean comparison words: `cost 2 이하` means cost <= 2.
KO_COMPARISONS = {"이하": "<=", "이상": ">=", "미만": "<", "초과": ">"}
for _w in KO_COMPARISONS:
    KEYWORDS[_w] = "KO_COMP"

# Soft keywords are keywords only where a statement begins with them and is not a call or an
# assignment (`reveal c to p`): elsewhere they stay names, so that a zone, action or attribute
# may still be called `reveal` or `공개`.
SOFT = frozenset({"REVEAL", "COST", "CHECK"})

# Keywords only inside one statement, after another of its keywords: `at` after the `to` of
# a `move` (`move c to p.deck at 0`), `must` after the `by` of a `window`. Elsewhere they are
# names, so that a field or a local may be called `at`, `위치` (a place, a time) or `must`.
CONTEXTUAL = {"AT": ("MOVE", "TO"), "MUST": ("WINDOW", "BY")}

RESERVED = frozenset(w for w, t in KEYWORDS.items() if t not in SOFT and t not in CONTEXTUAL)
