"""Parse errors → messages that name the likely mistake.

lark reports *where* it got stuck and which tokens it expected; that is rarely where the writer
went wrong. This module turns the raw error into the usual mistakes: a misspelt keyword (English
or Korean, compared letter by letter after splitting Hangul syllables into jamo), a missing ':',
'=' written for '==', a bracket never closed, and indentation that matches no block or mixes
tabs with spaces (raised by the indenter as `IndentProblem`, located at the offending line).
"""

from __future__ import annotations

import re
import unicodedata

from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    VisitError,
)

from .diagnostics import Diagnostics
from .keywords import CORE, KEYWORDS

# Human names for the terminals that parse errors mention.
TOKEN_NAMES = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "_COLON": "':'",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "DOT": "'.'",
    "EQUAL": "'='",
    "SLASH": "'/'",
    "$END": "end of file",
}

# Keywords that begin a line (a declaration, an ability or a statement): a misspelling of one of
# these as the first word of a line is the usual cause of an error later on that line.
LINE_STARTERS = (
    "KIND ZONE COUNTER EVENT VERB DEFINE KEYWORD ACTION SETUP FLOW CHECK WHEN AFTER BEFORE INSTEAD "
    "IF ELIF ELSE FOR REPEAT WHILE LET MOVE CREATE REMOVE SHUFFLE CHOOSE ORDER EMIT WIN LOSE TIE "
    "END TURN ROUND PHASE PASS RETURN BREAK MODIFY GRANT WINDOW LOG REQUIRE HOLD"
).split()

_WORD = re.compile(r"[^\W\d]\w*")

# Characters other languages use where this one has a word, and the hint that says so.
_OTHER_LANGUAGES = {
    "&": "write 'and' (그리고)",
    "|": "write 'or' (또는)",
    "!": "write 'not' (아닌), or '!=' for 'differs from'",
    "'": 'strings are written in double quotes: "..."',
}


class IndentProblem(LarkError):
    """Raised by the indenter: the line (1-based, in the parsed text) and its indentation."""

    def __init__(self, message: str, line: int, width: int, hint: str | None = None):
        super().__init__(message)
        self.message, self.line, self.width, self.hint = message, line, width, hint


class TreeProblem(LarkError):
    """Raised while the syntax tree is built (a rule matched, but its parts make no sense):
    the message, where, and the likeliest fix."""

    def __init__(self, message: str, span, hint: str | None = None):
        super().__init__(message)
        self.message, self.span, self.hint = message, span, hint


def not_a_statement(word: str | None, span) -> TreeProblem:
    """A line that is an expression, not a statement: most often a misspelt keyword (`pas`)."""
    near = nearest_keyword(word, LINE_STARTERS) if word else None
    if near:
        return TreeProblem(
            f"'{word}' is not a statement: a statement or a verb call such as destroy(x) was "
            "expected",
            span,
            f"did you mean '{near}'?",
        )
    if word:  # a verb named without its brackets
        return TreeProblem(
            f"'{word}' on its own is not a statement",
            span,
            f"to call the verb, write {word}() with its arguments in the brackets",
        )
    return TreeProblem(
        "not a statement: a value on its own does nothing",
        span,
        "a verb call such as destroy(x), or an assignment, was expected",
    )


def report_tree(e: VisitError, origin, diags: Diagnostics) -> None:
    """A `VisitError` of lark's tree transformation ("Error trying to process rule ..."):
    located at the problem, or at the rule that failed."""
    orig = e.orig_exc
    if isinstance(orig, TreeProblem):
        diags.error(orig.message, orig.span, orig.hint, code="syntax")
        return
    meta = getattr(e.obj, "meta", None)
    if meta is not None and not getattr(meta, "empty", True):
        span = origin.span(meta.line, meta.column, meta.end_line, meta.end_column)
    else:
        span = origin.span(1, 1)
    diags.error(f"cannot build the syntax tree: {orig}", span, code="syntax")


def report_indent(e: IndentProblem, origin, diags: Diagnostics) -> None:
    diags.error(e.message, origin.span(e.line, 1, e.line, e.width + 1), e.hint, code="indent")


def report(e: UnexpectedInput, text: str, origin, diags: Diagnostics) -> None:
    """One located diagnostic for a parse error, with the likeliest fix as its hint."""
    line, col = getattr(e, "line", -1), getattr(e, "column", -1)
    if isinstance(e, UnexpectedEOF) or line is None or line < 1:
        lines = text.rstrip("\n").split("\n")
        line, col = len(lines), len(lines[-1]) + 1
    tok = getattr(e, "token", None)
    expected = set(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())
    pos = getattr(e, "pos_in_stream", None)
    if pos is None and tok is not None:
        pos = tok.start_pos
    at_end = isinstance(e, UnexpectedEOF) or (tok is not None and tok.type in ("_DEDENT", "$END"))
    if pos is None or at_end:
        pos = len(text)

    opened = _unclosed_bracket(text, pos)
    if opened is not None and (opened[1] < line or at_end):
        ch, bl, bc = opened
        diags.error(
            f"'{ch}' is never closed",
            origin.span(bl, bc, bl, bc + 1),
            f"the parser read on to {'the end' if at_end else f'line {origin.span(line, 1).line}'}"
            f" looking for its '{_CLOSE[ch]}'",
            code="syntax",
        )
        return

    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        msg, width, hint = f"unexpected character {ch!r}", 1, _expected_hint(expected)
        if ch == "\t":
            msg = "a tab inside a line"
            hint = "use spaces"
        elif ch in _OTHER_LANGUAGES:
            hint = _OTHER_LANGUAGES[ch]
            width = 2 if text.startswith(ch * 2, e.pos_in_stream) else 1
        diags.error(msg, origin.span(line, col, line, col + width), hint, code="syntax")
        return

    if tok is not None and tok.type in ("_INDENT", "_DEDENT"):
        # these borrow the position of the line break before them: point at the line itself
        line, col = tok.end_line or line, 1
        width = max(len(str(tok.value)), 1)
        msg = "unexpected indentation" if tok.type == "_INDENT" else "unexpected end of block"
        typo = _misspelt_line_start(text, line - 1)
        if typo is not None:
            hint = f"did you mean '{typo[2]}'? (on the line before)"
        elif tok.type == "_INDENT":
            hint = "a block only follows a line that ends with ':'"
        else:
            hint = _expected_hint(expected)
        diags.error(msg, origin.span(line, col, line, col + width), hint, code="syntax")
        return

    typo = _misspelt_line_start(text, line, before=None if tok is None else tok.start_pos)
    if typo is not None and (tok is None or tok.type != "_NL" or "_COLON" not in expected):
        word, wcol, near = typo
        diags.error(
            f"'{word}' is not a keyword",
            origin.span(line, wcol, line, wcol + len(word)),
            f"did you mean '{near}'?",
            code="syntax",
        )
        return
    msg, hint = _classify(tok, expected, text, line)
    width = (
        len(tok.value)
        if tok is not None and tok.type not in ("_NL", "_DEDENT", "$END") and tok.value
        else 1
    )
    diags.error(msg, origin.span(line, col, line, col + width), hint, code="syntax")


def _classify(tok, expected: set[str], text: str, line: int) -> tuple[str, str | None]:
    if tok is None or tok.type == "$END":
        return "unexpected end of text", _expected_hint(expected)
    word = str(tok.value)
    if tok.type == "_NL":
        if "_COLON" in expected:
            typo = _misspelt_line_start(text, line)
            return "missing ':' at the end of the line", (
                f"did you mean '{typo[2]}'?" if typo else "a line that opens a block ends with ':'"
            )
        return "unexpected end of line", _expected_hint(expected)
    if tok.type == "EQUAL" and "COMP_OP" in expected:
        return "unexpected '='", "to compare, write '=='"
    if tok.type == "IF" and text.split("\n")[line - 1].lstrip().split()[:1] in (
        ["else"],
        ["아니면"],
    ):
        return f"unexpected {word!r}", "write 'elif' (아니고만약) for 'else if'"
    if word in KEYWORDS and "NAME" in expected:
        return f"'{word}' is a reserved word and cannot be used as a name", _expected_hint(expected)
    if tok.type == "NAME":
        near = nearest_keyword(word, [t for t in expected if t in CORE])
        if near:
            return f"'{word}' is not a keyword", f"did you mean '{near}'?"
    return f"unexpected {word!r}", _expected_hint(expected)


def _expected_hint(expected: set[str]) -> str | None:
    shown = sorted(
        {TOKEN_NAMES.get(t, f"'{t.lower()}'") for t in expected if not t.startswith("__")}
    )
    if shown and len(shown) <= 8:
        return "expected " + ", ".join(shown)
    return None


def _line_text(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _first_word_col(text: str, line: int) -> int:
    s = _line_text(text, line)
    return len(s) - len(s.lstrip()) + 1


def _misspelt_line_start(
    text: str, line: int, before: int | None = None
) -> tuple[str, int, str] | None:
    """(word, column, keyword) when the first word of `line` is a near miss of a line keyword.

    With `before` (a position in the text), the word must start before it: the error came after.
    """
    full = _line_text(text, line)
    s = full.lstrip()
    m = _WORD.match(s)
    if not m or m.group() in KEYWORDS:
        return None
    after = s[m.end() :].lstrip(" \t")
    if after[:1] in ("(", ".", "[", "=", "+", "-", ","):  # a call, an attribute, an assignment
        return None
    col = len(full) - len(s) + 1
    if before is not None:
        start = sum(len(x) + 1 for x in text.split("\n")[: line - 1])
        if start + col - 1 > before:
            return None
    near = nearest_keyword(m.group(), LINE_STARTERS)
    return (m.group(), col, near) if near else None


def nearest_keyword(word: str, terminals) -> str | None:
    """The keyword spelling closest to `word` in its own script, if it is a likely typo."""
    hangul = any("\uac00" <= c <= "\ud7a3" for c in word)
    best, best_d = None, None
    for term in terminals:
        en, ko, _ = CORE[term]
        cand = ko if hangul else en
        d = _distance(_jamo(word.lower()), _jamo(cand))
        # one slip; two in a long English word (Korean words are short in syllables but long
        # in letters: 반격 and 반복 differ by two letters and are different words)
        limit = 2 if not hangul and len(cand) > 4 else 1
        if d <= limit and (best_d is None or d < best_d):
            best, best_d = cand, d
    return best


def _jamo(s: str) -> str:
    """Hangul syllables split into letters, so that 이젼 and 이전 differ by one letter."""
    return unicodedata.normalize("NFD", s)


def _distance(a: str, b: str) -> int:
    """Edit distance counting a swap of two neighbours as one edit (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


_CLOSE = {"(": ")", "[": "]"}


def code_chars(text: str):
    """The characters of `text` outside strings and comments, each with its line and column
    (from 1), newlines and the opening `"` and `#` included: what brackets and operators are
    counted over (the parser's depth guard, the hint at an unclosed bracket)."""
    line, col = 1, 0
    in_str = comment = escaped = False
    for ch in text:
        col += 1
        if ch == "\n":
            yield ch, line, col
            line, col = line + 1, 0
            in_str = comment = False
        elif comment:
            continue
        elif in_str:  # brackets inside a string do not nest
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        else:
            if ch == '"':
                in_str = True
            elif ch == "#":
                comment = True
            yield ch, line, col


def _unclosed_bracket(text: str, pos: int) -> tuple[str, int, int] | None:
    """The innermost bracket still open at `pos` (its char, line, column), outside strings."""
    stack: list[tuple[str, int, int]] = []
    for ch, line, col in code_chars(text[:pos]):
        if ch in "([":
            stack.append((ch, line, col))
        elif ch in ")]" and stack:
            stack.pop()
    return stack[-1] if stack else None
