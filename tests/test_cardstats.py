"""Per-card statistics separate a card from its deck: the improvement when drawn is computed
within each deck and seat and pooled (tools/cardstats.py), with counts and intervals."""

import json

import pytest
from madang.tools import cardstats
from madang.tools.cardstats import DRAWN, DRAWN_W, IN, IN_W, PLAYED, PLAYED_W
from madang.tools.cli import main


def counts(held, won, drawn, drawn_won, played=0, played_won=0) -> list[int]:
    row = [0] * 6
    row[IN], row[IN_W], row[DRAWN], row[DRAWN_W] = held, won, drawn, drawn_won
    row[PLAYED], row[PLAYED_W] = played, played_won
    return row


# A card in a strong deck (70% whether drawn or not) and a weak one (30% either way), drawn
# mostly in the strong deck: pooled, drawing it looks worth +32 points; within each deck, 0.
CONFOUNDED = {
    ("X", "strong", 0): counts(100, 70, 90, 63),
    ("X", "weak", 0): counts(100, 30, 10, 3),
}


def test_improvement_when_drawn_removes_the_deck():
    (row,) = cardstats.report(CONFOUNDED)
    assert row["drawn"]["rate"] - row["not_drawn"]["rate"] == pytest.approx(0.32)
    assert row["iwd"]["value"] == pytest.approx(0.0, abs=1e-9)
    lo, hi = row["iwd"]["ci95"]
    assert lo < 0 < hi
    assert row["iwd"]["with_games"] == 100 and row["iwd"]["without_games"] == 100
    per = {d["deck"]: d for d in row["per_deck"]}
    assert set(per) == {"strong", "weak"} and row["decks"] == ["strong", "weak"]
    assert per["strong"]["drawn"]["rate"] == pytest.approx(0.7)
    assert per["strong"]["not_drawn"]["games"] == 10 and per["strong"]["iwd"]["few"]
    assert per["weak"]["iwd"]["value"] == pytest.approx(0.0)


def test_a_real_improvement_is_found_and_few_games_are_flagged():
    by_card = {
        ("GOOD", "a", 0): counts(200, 110, 100, 70),  # 70% drawn, 40% not
        ("GOOD", "a", 1): counts(200, 90, 100, 60),  # 60% drawn, 30% not
        ("RARE", "a", 0): counts(10, 5, 5, 3),
    }
    rows = {r["name"]: r for r in cardstats.report(by_card)}
    good = rows["GOOD"]["iwd"]
    assert good["value"] == pytest.approx(0.3) and good["ci95"][0] > 0.15 and not good["few"]
    assert rows["RARE"]["iwd"]["few"] and rows["RARE"]["in_deck"]["few"]
    assert [r["name"] for r in cardstats.report(by_card)] == ["GOOD", "RARE"]


def test_a_game_that_draws_every_card_ranks_by_played():
    by_card = {
        ("A", "d", 0): counts(100, 50, 100, 50, 60, 40),
        ("B", "d", 0): counts(100, 50, 100, 50, 80, 40),
    }
    rows = cardstats.report(by_card)
    assert cardstats.ranking(rows) == "iwp"
    assert all(r["iwd"]["value"] is None for r in rows)
    assert [r["name"] for r in rows] == ["A", "B"]  # A: 66.7% vs 25%; B: 50% vs 50%
    text = "\n".join(cardstats.render(rows))
    assert "IWP points (95% CI)" in text and "+41.7" in text


def test_the_model_gives_a_deck_adjusted_effect():
    pytest.importorskip("scipy")
    rows = cardstats.report(CONFOUNDED)
    cardstats.fit_models(CONFOUNDED, rows)
    m = rows[0]["model"]
    assert m["event"] == "drawn" and m["effect"] == pytest.approx(0.0, abs=1e-3)
    assert m["ci95"][0] < 0 < m["ci95"][1]
    good = {("G", "a", 0): counts(400, 220, 200, 140)}
    assert cardstats.logit_effect([(200, 140, 200, 80)])["effect"] == pytest.approx(
        1.2528, abs=0.01
    )  # log(0.7/0.3) - log(0.4/0.6)
    cardstats.fit_models(good, rows := cardstats.report(good))
    assert rows[0]["model"]["odds_ratio"][1] > 1


def test_gauntlet_json_gives_every_card_its_improvement_per_deck_and_adjusted(capsys):
    code = main(["simulate", "clash_of_decks", "--cards", "docs/examples/my_cards.yaml",
                 "--deck", "docs/examples/my_deck.yaml", "--against", "all", "--games", "200",
                 "--seed", "1", "--jobs", "1", "--by-card", "--format", "json"])  # fmt: skip
    r = json.loads(capsys.readouterr().out)
    assert code == 0
    for c in r["cards"]:
        for key in ("iwd", "iwp"):
            assert set(c[key]) >= {"value", "ci95", "with_games", "without_games", "few"}
        assert c["per_deck"] and all(set(d) >= {"deck", "iwd", "iwp"} for d in c["per_deck"])
        assert sorted(d["deck"] for d in c["per_deck"]) == c["decks"]
        assert c["kind"] and (c["kind"] == "tower" or isinstance(c["cost"], int))
    # every card is in hand from the start in Clash of Decks: ranked by improvement when played
    assert cardstats.ranking(r["cards"]) == "iwp"
    top = [c for c in r["cards"] if not c["iwp"]["few"]][:8]
    assert len({tuple(c["decks"]) for c in top}) > 1, [c["name"] for c in top]
    baron = next(c for c in r["cards"] if c["name"] == "BARON")
    assert {d["deck"] for d in baron["per_deck"]} == {"1", "wardens"}
    assert sum(d["in_deck"]["games"] for d in baron["per_deck"]) == baron["in_deck"]["games"]
    files = {f["path"]: f for f in r["inputs"]["files"]}
    assert files["docs/examples/my_deck.yaml"]["role"] == "deck"
    assert len(files["docs/examples/my_cards.yaml"]["sha256"]) == 64
    assert set(r["inputs"]["fingerprints"]) == {"rules", "cards", "options"}


def test_card_model_from_the_command_line(capsys):
    pytest.importorskip("scipy")
    argv = ["simulate", "clash_of_decks", "--games", "40", "--seed", "1", "--jobs", "1",
            "--format", "json"]  # fmt: skip
    assert main([*argv, "--card-model"]) == 2
    assert "add --by-card" in capsys.readouterr().err
    assert main([*argv, "--by-card", "--card-model"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    fitted = [c for c in cards if c["model"]["effect"] is not None]
    assert fitted and all(c["model"]["event"] == "played" for c in cards)
    assert all(c["model"]["ci95"][0] <= c["model"]["effect"] <= c["model"]["ci95"][1]
               for c in fitted)  # fmt: skip
