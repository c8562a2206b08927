"""The measuring scripts the docs name (scripts/): digests show a change keeps the games, and
the A/B speed script runs on a folder. Their figures are only as good as their determinism."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(*args: str) -> str:
    r = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_digests_are_the_same_in_two_runs_and_name_every_bundled_ruleset():
    from madang.build.loader import bundled_names

    first = run("scripts/digests.py", "2")
    assert first == run("scripts/digests.py", "2")
    lines = [line.split() for line in first.splitlines()]
    assert sorted({name for name, *_ in lines}) == sorted(bundled_names())
    assert len(lines) == 2 * len(bundled_names())
    assert all(len(digest) == 64 and int(k) > 0 for _, _, k, digest in lines)


def test_game_only_digests_leave_out_the_run_loops_bookkeeping():
    whole = run("scripts/digests.py", "1").split()
    game = run("scripts/digests.py", "1", "--game-only").split()
    assert whole[:3] == game[:3] and whole[3] != game[3]
    assert game == run("scripts/digests.py", "1", "--game-only").split()


def test_speed_ab_compares_two_versions_on_the_same_games():
    out = run("scripts/speed_ab.py", ".", ".", "clash_of_decks", "--games", "2", "--repeats", "1")
    assert out.startswith("clash_of_decks: A ") and "B/A " in out
    # the rulesets may also follow the options
    out = run("scripts/speed_ab.py", ".", ".", "--games", "1", "--repeats", "1", "nivel_arena")
    assert out.startswith("nivel_arena: A ") and "clash" not in out
    # --cycle: the per-seat options (decks) given to the seats in turn, as `madang bench` does
    out = run(
        "scripts/speed_ab.py",
        ".",
        ".",
        "clash_of_decks",
        "--games",
        "2",
        "--cycle",
        "--repeats",
        "1",
    )
    assert out.rstrip().endswith("(deck cycled: 12 ways)"), out


def test_count_work_counts_the_same_games_alike_in_both_versions():
    out = run("scripts/count_work.py", ".", ".", "clash_of_decks", "--games", "2", "--top", "3")
    first = out.splitlines()[0]
    assert first.startswith("clash_of_decks: bytecodes a game A ")
    assert first.count("B/A 1.0000") == 2, first  # the same code counts the same work
    a, b = (float(first.split(f" {t} ")[1].split()[0].replace(",", "")) for t in ("A", "B"))
    assert a == b > 10_000
    assert len(out.splitlines()) == 1  # nothing moved, so no function is listed
