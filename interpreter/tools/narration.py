"""Log entries → readable lines, in the ruleset's language (`language:` in ruleset.yaml; Korean
for the bundled games) or in English (`--lang en`).

A verb's narration template (`verb destroy/파괴(c: card) "{c} 파괴"`) is used when it is written
in the language asked for; otherwise the verb's name and arguments are shown. Names are shown in
the spelling that fits the language: declarations may have aliases (`attack/공격`), and
`prog.canonical` maps every spelling to its canonical one; for Korean a Hangul spelling is
chosen, for English an ASCII one. Card names use a card's `ko:`/`en:` name when it has one.

**Per seat.** A Narrator made for a `seat` tells only what that seat may know: the log marks
what names a secret (`seen`, runtime/seen.py), and a name the seat may not see is replaced by a
placeholder; a secret choice reads "P1 chose: … (secret)" until the card is revealed.
`seat=None` narrates everything (a spectator of agents, a replay); `seat=-1` only what is public.
Verbs without a narration template and triggers of the rules themselves are bookkeeping: they
are shown only with `internals=True` (`madang replay -v`).
"""

from __future__ import annotations

import re

from ..game import optionlabels
from ..language import templates

HANGUL = re.compile(r"[\uac00-\ud7a3\u3131-\u318e]")
KANA_KANJI = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

WORDS = {
    "ko": {"turn": "턴 {n}: P{p}", "phase": "  [{name}]", "decision": "  P{p} 선택 ({q}): {choice}",
           "secret": "  P{p} 선택 ({q}): (비공개)", "hidden": "(비공개 카드)",
           "action": "  P{p}: {choice}", "game_over": "게임 종료 — 승자: {who}", "nobody": "없음",
           "lost": "  탈락: {who}", "trigger": "  ↳ {rule}", "replaced": "  ↳ 대체: {name}",
           "source": "  ↳ {source} 발동", "move": "    {what} → {to}", "round": "라운드 {n}",
           "reveal": "  공개 ({who}에게): {what}", "fizzled": "  ↳ {source}: 영역을 옮겨 무효"},
    "en": {"turn": "turn {n}: P{p}", "phase": "  [{name}]", "decision": "  P{p} chooses ({q}): {choice}",
           "secret": "  P{p} chooses ({q}): (secret)", "hidden": "(a hidden card)",
           "action": "  P{p}: {choice}", "game_over": "game over — winners: {who}", "nobody": "none",
           "lost": "  out: {who}", "trigger": "  ↳ {rule}", "replaced": "  ↳ replaced: {name}",
           "source": "  ↳ {source} triggers", "move": "    {what} → {to}", "round": "round {n}",
           "reveal": "  revealed to {who}: {what}", "fizzled": "  ↳ {source}: moved away, no effect"},
}  # fmt: skip


def fits(spelling: str, lang: str) -> bool:
    if lang == "ko":
        return bool(HANGUL.search(spelling))
    if lang == "ja":
        return bool(KANA_KANJI.search(spelling))
    return spelling.isascii()


def spelling(prog, name: str, lang: str) -> str:
    """The alias of `name` written in `lang` ('ko': Hangul, 'en': ASCII), else `name`."""
    return Narrator.of(prog, lang).word(name)


class Narrator:
    """Narrates the entries of one game's log, one at a time, in one language."""

    _cache: dict = {}

    @classmethod
    def of(cls, prog, lang: str) -> Narrator:
        key = (id(prog), lang)
        n = cls._cache.get(key)
        if n is None or n.prog is not prog:
            if len(cls._cache) > 32:
                cls._cache.clear()
            n = cls._cache[key] = cls(prog, lang)
        return n

    def __init__(
        self,
        prog,
        lang: str = "ko",
        moves: bool = False,
        seat: int | None = None,
        internals: bool | None = None,
    ):
        self.prog = prog
        self.lang = lang or "en"
        self.moves = moves
        self.seat = seat
        self.internals = moves if internals is None else internals
        self.revealed: set[str] = set()  # names a later entry of the batch shows to the seat
        self.w = WORDS.get(self.lang, WORDS["en"])
        self.words: dict[str, str] = {}
        self.templates = False
        self._after_decision = False
        self.longest = 1
        self.sentences: dict[str, str] = {}
        if prog is None:
            return
        canonical = getattr(prog, "canonical", None) or {}
        groups: dict[str, list[str]] = {}
        for alias, canon in canonical.items():
            groups.setdefault(canon, []).append(alias)
        for canon, spellings in groups.items():
            best = next((s for s in [canon, *spellings] if fits(s, self.lang)), None)
            if best is not None:
                for s in spellings:
                    self.words[s] = best
        for card in getattr(prog, "cards", None) or []:
            extra = getattr(card, "extra", None) or {}
            local = extra.get(self.lang)
            if isinstance(local, dict) and isinstance(local.get("name"), str):
                self.words.setdefault(card.name, local["name"])
            self.words.setdefault(card.name, card.name)  # a name is one phrase: never split
        # the view's labels in this language name what has no spelling of its own (a choice
        # written as a text, a phase without an alias) (docs/views.md)
        view = (getattr(prog, "meta", None) or {}).get("view") or {}
        for k, v in ((view.get("labels") or {}).get(self.lang) or {}).items():
            self.words.setdefault(str(k), str(v))
        self.longest = max((k.count(" ") + 1 for k in self.words), default=1)
        # the view's sentences for verbs in this language (`view: narration: en: {VERB: "..."}`)
        self.sentences = {
            canonical.get(str(k), str(k)): str(v)
            for k, v in ((view.get("narration") or {}).get(self.lang) or {}).items()
        }
        language = (getattr(prog, "meta", None) or {}).get("language") or "en"
        self.templates = str(language).split("-")[0] == self.lang

    def word(self, name: str) -> str:
        return self.words.get(name, name)

    def text(self, value) -> str:
        """A label from the log (a card, `zone#2`, `P1`, an action's option...) respelt."""
        s = str(value)
        if s in self.words:
            return self.words[s]
        if "#" in s and " " not in s:
            base, _, k = s.rpartition("#")
            return f"{self.word(base)}#{k}"
        if "@" in s and " " not in s.partition("@")[0]:
            base, _, where = s.partition("@")  # a per-area zone: `stones@South Hill`
            return f"{self.word(base)}@{where}"
        if " " in s:
            return " ".join(self._phrases(s.split(" ")))
        return s

    def _phrases(self, tokens: list[str]) -> list[str]:
        """Tokens respelt, the longest known name first (`금광 기사` is one card, not the
        counter `황금` and a word)."""
        out, i = [], 0
        while i < len(tokens):
            for j in range(min(len(tokens), i + self.longest), i + 1, -1):
                phrase = " ".join(tokens[i:j])
                if phrase in self.words:
                    out.append(self.words[phrase])
                    i = j
                    break
            else:
                tok = tokens[i]
                if tok.startswith("(") and len(tok) > 1:
                    out.append("(" + self.text(tok[1:]))
                else:
                    out.append(self.text(tok) if tok else tok)
                i += 1
        return out

    def choice(self, label: str, decider: int) -> str:
        """A decision's label as this narrator's seat reads it: the label's owner words are the
        decider's (`your Knight`), so another seat reads `P1's Knight` or, of its own, `your`."""
        w = optionlabels.OWNER_WORDS.get(self.lang, optionlabels.OWNER_WORDS["en"])
        mine = self.seat is not None and self.seat >= 0 and self.seat == decider
        out = []
        for tok in self._phrases(label.split(" ")):
            if tok == "your":
                tok = w["your"] if mine else w["of"].format(p=decider + 1)
            elif tok == "enemy":
                if mine:
                    tok = w["enemy"]
                elif self.seat is None or self.seat < 0:  # 'enemy' is said in two-player games
                    tok = w["of"].format(p=2 - decider)
                else:
                    tok = w["your"]
            out.append(tok)
        return " ".join(out)

    def line(self, entry: dict) -> str | None:
        after_decision, self._after_decision = self._after_decision, False
        w = self.w
        if not isinstance(entry, dict):
            return None
        if "turn" in entry and "player" in entry:
            return w["turn"].format(n=entry["turn"], p=entry["player"] + 1)
        if "round" in entry:
            return w["round"].format(n=entry["round"])
        if "phase" in entry:
            return w["phase"].format(name=self.word(str(entry["phase"])))
        if "decision" in entry:
            self._after_decision = True
            p = entry.get("player", 0) + 1
            q = self.text(entry.get("decision") or "?")
            if self.hides(entry, 1, str(entry.get("decision", ""))):
                q = w["hidden"]  # the question names a card the seat may not see
            if self.hides(entry, 0, str(entry.get("choice", ""))):
                return w["secret"].format(p=p, q=q)
            choice = self.choice(str(entry.get("choice", "")), p - 1)
            return w["decision"].format(p=p, q=q, choice=choice)
        if "action" in entry:
            if after_decision:
                return None  # the decision's line already said it
            args = self.shown(entry, entry.get("args", []))
            choice = " ".join([self.word(str(entry["action"]))] + args)
            return w["action"].format(p=entry.get("player", 0) + 1, choice=choice)
        if "game_over" in entry:
            who = ", ".join(f"P{p + 1}" for p in entry["game_over"]) or w["nobody"]
            return w["game_over"].format(who=who)
        if "lost" in entry:
            return w["lost"].format(who=", ".join(f"P{p + 1}" for p in entry["lost"]))
        if "event" in entry:
            return self.event(str(entry["event"]), entry.get("args") or [], entry)
        if "move" in entry:
            if not self.moves:
                return None
            what = ", ".join(self.shown(entry, entry["move"]))
            return w["move"].format(what=what, to=self.text(entry.get("to", "")))
        if "trigger" in entry:
            source = entry.get("source")
            if self.internals:
                return w["trigger"].format(rule=self.text(entry["trigger"]))
            if source is None:
                return None  # a rule of the game doing its bookkeeping
            return w["source"].format(source=self.shown(entry, [source])[0])
        if "replaced" in entry:
            return w["replaced"].format(name=self.word(str(entry["replaced"])))
        if "reveal" in entry:
            who = ", ".join(f"P{p + 1}" for p in entry.get("to") or ())
            what = ", ".join(self.shown(entry, entry["reveal"]))
            return w["reveal"].format(who=who, what=what)
        if "fizzled" in entry:
            return w["fizzled"].format(source=self.shown(entry, [entry["fizzled"]])[0])
        if "log" in entry:
            return f"  {self.shown(entry, [entry['log']])[0]}"
        return None

    def hides(self, entry: dict, i: int, name: str = "") -> bool:
        """Whether the i-th value the entry names is secret from this narrator's seat."""
        if self.seat is None:
            return False
        seen = entry.get("seen")
        if not seen or i >= len(seen) or seen[i] is None:
            return False
        return self.seat not in seen[i] and name not in self.revealed

    def shown(self, entry: dict, values: list) -> list[str]:
        """The entry's values as this seat may read them: secrets become a placeholder."""
        return [
            self.w["hidden"] if self.hides(entry, i, str(v)) else self.text(v)
            for i, v in enumerate(values)
        ]

    def lines(self, entries: list) -> list[str]:
        """A batch of entries (what one decision led to) as lines. A card that a later entry of
        the batch moves where the seat sees it (a plot turned face up) is named all along."""
        out = []
        for i, e in enumerate(entries):
            self.revealed = self._revealed_after(entries, i) if self.seat is not None else set()
            line = self.line(e)
            if line:
                out.append(line)
        self.revealed = set()
        return out

    def _revealed_after(self, entries: list, i: int) -> set[str]:
        e = entries[i]
        if not isinstance(e, dict) or not e.get("seen") or "decision" in e:
            return set()
        out = set()
        for later in entries[i + 1 :]:
            if isinstance(later, dict) and "move" in later:
                seen = later.get("seen") or [None] * len(later["move"])
                for name, who in zip(later["move"], seen):
                    if who is None or self.seat in who:
                        out.add(str(name))
        return out

    def event(self, name: str, args: list, entry: dict | None = None) -> str | None:
        verbs = getattr(self.prog, "verbs", None) or {}
        canonical = getattr(self.prog, "canonical", None) or {}
        verb = verbs.get(canonical.get(name, name))
        if (
            not self.internals
            and verb is not None
            and not verb.narration
            and verb.name not in self.sentences
        ):
            return None  # bookkeeping: a verb its author did not give a sentence
        shown = self.shown(entry or {}, args)
        if verb is not None:
            template = self.sentences.get(verb.name) or (verb.narration if self.templates else None)
            if template:
                return "  " + templates.fill(template, dict(zip(verb.param_names, shown)))
        if self.internals:
            return f"  {self.word(name)}({', '.join(shown)})"
        # a sentence in another language only: the verb's name in words, then what it names
        said = self.word(name).replace("_", " ")
        return f"  {said}: {', '.join(shown)}" if shown else f"  {said}"


def narrate(prog, entry: dict, lang: str = "ko", moves: bool = False) -> str | None:
    """One log entry as a line (None for entries not worth a line). Stateless: a decision's
    action is shown again; use a Narrator to narrate a whole log."""
    n = Narrator.of(prog, lang)
    n.moves = n.internals = moves
    n._after_decision = False
    return n.line(entry)


__all__ = ["Narrator", "narrate", "spelling"]
