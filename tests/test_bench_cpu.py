"""`madang bench` in CPU time (issue #34): the playouts' and the hand-written anchor's rates per
CPU second, so that their ratio holds on a loaded computer. Figures are never asserted as speed
targets here, only that they are measured the way docs/cli.md says."""

from __future__ import annotations

import json

from madang.tools import bench as bench_tool
from madang.tools.cli import main

CLASH = "clash_of_decks"


def _near(a: float, b: float) -> bool:
    """Equal but for the rounding of the reported CPU seconds (to the µs) and of the rate."""
    return abs(a - b) <= 2e-3 * abs(b) + 0.1


def _anchor(tmp_path, body: str):
    path = tmp_path / "anchor.py"
    path.write_text(body, encoding="utf-8")
    return path


def test_the_anchor_is_timed_in_cpu_time_not_wall_time(tmp_path):
    # An anchor that waits 0.4 s of wall time without working: its CPU time is far less, and the
    # rates per CPU second are computed from the games it says it played.
    anchor = _anchor(
        tmp_path,
        "import json, sys, time\n"
        "n = int(sys.argv[1])\n"
        "time.sleep(0.4)\n"
        "print('a line of chatter first')\n"
        "print(json.dumps({'games': n, 'seconds': 0.4, 'playouts_per_s': n / 0.4,"
        " 'decisions_per_s': 10 * n / 0.4}))\n",
    )
    r = bench_tool.run_baseline(anchor, 40)
    assert r is not None and r["games"] == 40  # the number of games reaches the script
    assert r["playouts_per_s"] == 100.0  # its own figures are kept as it printed them
    assert 0 < r["cpu_seconds"] < 0.3
    assert _near(r["playouts_per_cpu_s"], 40 / r["cpu_seconds"])
    assert r["playouts_per_cpu_s"] > 2 * r["playouts_per_s"]
    # its decisions are its rate times its own seconds: 400, over the CPU time
    assert _near(r["decisions_per_cpu_s"], 400 / r["cpu_seconds"])


def test_an_anchor_that_exits_or_prints_no_figures(tmp_path):
    exits = _anchor(
        tmp_path,
        "import json, sys\n"
        "print(json.dumps({'playouts_per_s': 5.0, 'decisions_per_s': 50}))\n"
        "sys.exit(0)\n",
    )
    r = bench_tool.run_baseline(exits, 7)
    assert r is not None and r["playouts_per_s"] == 5.0 and "cpu_seconds" in r
    silent = tmp_path / "silent.py"
    silent.write_text("print('no figures')\n", encoding="utf-8")
    assert bench_tool.run_baseline(silent, 7) is None


def test_playouts_report_cpu_time_beside_wall_time():
    p = bench_tool.playouts(CLASH, 3)
    assert p["games"] == 3 and p["cpu_seconds"] > 0
    assert _near(p["playouts_per_cpu_s"], 3 / p["cpu_seconds"])
    decisions = p["mean_decisions"] * 3  # the mean is rounded to a tenth
    assert abs(p["decisions_per_cpu_s"] * p["cpu_seconds"] - decisions) <= 0.2
    # one process, one thread: its CPU time cannot much exceed its wall time
    assert p["cpu_seconds"] <= p["seconds"] * 1.05 + 0.01


def test_bench_json_gives_the_ratio_in_cpu_time(tmp_path, monkeypatch, capsys):
    # Only the playouts and the anchor matter here (test_cli runs every measurement).
    monkeypatch.setattr(bench_tool, "cold_load", lambda ref: {"load_cold_s": None})
    monkeypatch.setattr(bench_tool, "thousand_cards", lambda ref, **kw: None)
    monkeypatch.setattr(bench_tool, "state_costs", lambda ref: {})
    monkeypatch.setattr(bench_tool, "mcts_rate", lambda ref: {})
    anchor = _anchor(
        tmp_path,
        "import json, sys\n"
        "x = sum(i * i for i in range(200_000))\n"
        "print(json.dumps({'games': int(sys.argv[1]), 'seconds': 1.0,"
        " 'playouts_per_s': 1000.0, 'decisions_per_s': 20000}))\n",
    )
    assert (
        main(["bench", CLASH, "--games", "2", "--baseline", str(anchor), "--format", "json"]) == 0
    )
    r = json.loads(capsys.readouterr().out)
    mine, b = r["rulesets"][CLASH]["playouts"], r["baseline"]
    for key in ("cpu_seconds", "playouts_per_cpu_s", "decisions_per_cpu_s"):
        assert mine[key] > 0 and b[key] > 0, key
    assert b["ratio_playouts"] == round(1000.0 / mine["playouts_per_s"], 2)  # wall, as before
    assert b["ratio_playouts_cpu"] == round(b["playouts_per_cpu_s"] / mine["playouts_per_cpu_s"], 3)
    assert b["ratio_decisions_cpu"] == round(
        b["decisions_per_cpu_s"] / mine["decisions_per_cpu_s"], 3
    )


def test_unused_cards_are_measured_in_cpu_time_too():
    k = bench_tool.thousand_cards(CLASH, n=20, games=2)
    assert k is not None and k["check_1000_cards_errors"] == 0
    assert k["playouts_1000_unused_per_s"] > 0 and k["playouts_1000_unused_per_cpu_s"] > 0
