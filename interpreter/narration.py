"""Log entries → readable lines, in the ruleset's language (Korean for the bundled games) or
in English. Names are shown in the spelling that fits the language: declarations may have
aliases (`attack/공격`), and narration templates (`verb destroy "{c} 파괴"`) are used when given.
"""

from __future__ import annotations

import re

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def spelling(prog, name: str, lang: str) -> str:
    """The alias of `name` written in `lang` ('ko': Hangul, 'en': ASCII), else `name`."""
    canon = prog.syms.canonical.get(name, name)
    spellings = [a for a, c in prog.syms.canonical.items() if c == canon]
    for s in spellings:
        if (lang == "ko" and HANGUL.search(s)) or (lang != "ko" and s.isascii()):
            return s
    return name


WORDS = {
    "ko": {"turn": "턴 {n}: P{p}", "phase": "  [{name}]", "decision": "  P{p} 선택: {choice}",
           "game_over": "게임 종료 — 승자: {who}", "nobody": "없음", "lost": "  패배: {who}",
           "trigger": "  ↳ {rule}", "replaced": "  ↳ 대체: {name}", "move": "    {what} → {to}", "round": "라운드 {n}"},
    "en": {"turn": "turn {n}: P{p}", "phase": "  [{name}]", "decision": "  P{p} chooses: {choice}",
           "game_over": "game over — winners: {who}", "nobody": "none", "lost": "  out: {who}",
           "trigger": "  ↳ {rule}", "replaced": "  ↳ replaced: {name}", "move": "    {what} → {to}", "round": "round {n}"},
}  # fmt: skip


def narrate(prog, entry: dict, lang: str = "ko", moves: bool = False) -> str | None:
    w = WORDS["ko" if lang == "ko" else "en"]
    if "turn" in entry:
        return w["turn"].format(n=entry["turn"], p=entry["player"] + 1)
    if "round" in entry:
        return w["round"].format(n=entry["round"])
    if "phase" in entry:
        return w["phase"].format(name=spelling(prog, entry["phase"], lang))
    if "decision" in entry:
        return w["decision"].format(p=entry["player"] + 1, choice=entry["choice"])
    if "game_over" in entry:
        who = ", ".join(f"P{p + 1}" for p in entry["game_over"]) or w["nobody"]
        return w["game_over"].format(who=who)
    if "lost" in entry:
        return w["lost"].format(who=", ".join(f"P{p + 1}" for p in entry["lost"]))
    if "event" in entry:
        verb = prog.verbs.get(prog.syms.canonical.get(entry["event"], entry["event"]))
        args = entry.get("args", [])
        if verb is not None and verb.narration and lang == (prog.meta.get("language") or "en"):
            values = dict(zip(verb.param_names, args))
            try:
                return "  " + verb.narration.format(**values)
            except (KeyError, IndexError, ValueError):
                pass
        return f"  {spelling(prog, entry['event'], lang)}({', '.join(map(str, args))})"
    if "move" in entry and moves:
        return w["move"].format(what=", ".join(entry["move"]), to=entry["to"])
    if "trigger" in entry:
        return w["trigger"].format(rule=entry["trigger"])
    if "replaced" in entry:
        return w["replaced"].format(name=spelling(prog, entry["replaced"], lang))
    if "log" in entry:
        return f"  {entry['log']}"
    return None
