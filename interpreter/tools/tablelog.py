"""The story of one browser table's game (tools/serve.py): the log entries of each step, kept
as they come, and narrated for each seat in each language when a page asks. A seat reads only
what its narration may tell (tools/narration.py); a spectator only what is public."""

from __future__ import annotations

from .narration import Narrator


class TableLog:
    """Log batches (the entries one step made) and their narration, per (seat, language)."""

    def __init__(self, prog) -> None:
        self.prog = prog
        self.batches: list[list[dict]] = []
        # (seat, language) -> (narrator, lines, lines after each batch)
        self._told: dict[tuple[int, str], tuple[Narrator, list[str], list[int]]] = {}

    def take(self, st) -> None:
        """Keep the entries the game logged since the last call (and empty its log)."""
        if st.log:
            self.batches.append(list(st.log))
            st.log.clear()

    def lines(self, seat: int, lang: str, batches: int | None = None) -> list[str]:
        """The narration for a seat (-1: a spectator) in a language: all of it so far, or of
        the first `batches` steps (a replay's position)."""
        key = (seat, lang)
        told = self._told.get(key)
        if told is None:
            told = self._told[key] = (Narrator(self.prog, lang, seat=seat), [], [])
        narrator, lines, counts = told
        for batch in self.batches[len(counts) :]:
            lines.extend(narrator.lines(batch))
            counts.append(len(lines))
        if batches is None or batches >= len(counts):
            return lines
        return lines[: counts[batches - 1]] if batches > 0 else []


__all__ = ["TableLog"]
