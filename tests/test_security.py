"""#12, code execution: nothing planted in a shared place or found by walking folders runs.

Each test plants a file that would run Python (it creates a marker file) where madang used to
look, runs the command, and checks that the marker was never made.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from madang.language import parser
from madang.tools import bench as bench_tool
from madang.tools.cli import main
from madang.tools.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent


class _Plant:
    """Unpickling it runs `touch marker`."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _planted_pickle(marker: Path) -> bytes:
    # lark's cache file: a hash line, then pickles; unpickling starts at once.
    return b"0" * 32 + b"\n" + pickle.dumps(_Plant(marker))


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(extra)
    return env


def test_a_grammar_cache_planted_in_the_shared_temp_folder_never_runs(tmp_path):
    shared, home = tmp_path / "tmp", tmp_path / "home"
    shared.mkdir()
    home.mkdir()
    marker = tmp_path / "ran"
    # where the cache used to live, for every digest: plant the same pickle under many names
    grammar = (ROOT / "grammar" / "madang.lark").read_bytes()
    import hashlib

    old = shared / f"madang-grammar-{hashlib.sha256(grammar).hexdigest()[:16]}.lark-cache"
    old.write_bytes(_planted_pickle(marker))
    out = subprocess.run(
        [sys.executable, "-m", "madang", "check", "clash_of_decks"],
        env=_env(TMPDIR=str(shared), HOME=str(home), XDG_CACHE_HOME=str(home / ".cache")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert not marker.exists()
    assert sorted(p.name for p in shared.iterdir()) == [old.name]  # nothing new in the shared place


def test_the_grammar_cache_is_used_only_in_a_private_folder_of_the_user(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    path = parser._cache_path()
    assert isinstance(path, str) and Path(path).parent == tmp_path / "madang"
    assert not Path(path).is_relative_to(tempfile.gettempdir()) or tmp_path.is_relative_to(
        tempfile.gettempdir()
    )
    folder = tmp_path / "madang"
    assert folder.stat().st_mode & 0o777 == 0o700
    folder.chmod(0o777)  # others could plant a cache there
    assert parser._cache_path() is False
    folder.chmod(0o700)
    Path(path).symlink_to(tmp_path / "elsewhere")  # a link planted at the cache's name
    assert parser._cache_path() is False
    Path(path).unlink()
    Path(path).write_bytes(b"x")
    Path(path).chmod(0o666)  # writable by others
    assert parser._cache_path() is False


def test_bench_runs_no_baseline_it_finds_by_walking_folders(tmp_path, monkeypatch, capsys):
    marker = tmp_path / "ran"
    bench = tmp_path / "shared" / "bench"
    bench.mkdir(parents=True)
    script = f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n"
    for name in ("clash_baseline.py", "_baseline.py", "c_baseline.py"):
        (bench / name).write_text(script, encoding="utf-8")
    below = tmp_path / "work" / "deep"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    # Only the search for an anchor matters here, not the measurements (test_cli runs them all).
    monkeypatch.setattr(bench_tool, "cold_load", lambda ref: {"load_cold_s": None})
    monkeypatch.setattr(bench_tool, "thousand_cards", lambda ref, **kw: None)
    assert main(["bench", "clash_of_decks", "--games", "2", "--seconds", "1",
                 "--format", "json"]) == 0  # fmt: skip
    assert '"baseline"' not in capsys.readouterr().out
    assert not marker.exists()


def test_inline_scenario_cards_are_read_from_memory_not_a_shared_file(tmp_path, monkeypatch):
    shared = tmp_path / "tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    folder = tmp_path / "scenarios"
    folder.mkdir()
    scenario = folder / "wall.yaml"
    scenario.write_text(
        "ruleset: clash_of_decks\n"
        'rule: "#12: inline cards are never written to a shared folder"\n'
        "cards:\n"
        "  - name: WALL\n"
        "    type: creature\n"
        "    cost: 1\n"
        "    attack: 0\n"
        "    health: 9\n"
        "setup:\n"
        "  zones:\n"
        "    hand#1: [WALL]\n"
        "steps:\n"
        "  - expect:\n"
        '      cards: {"hand#1/0": WALL}\n',
        encoding="utf-8",
    )
    result = run_scenario(load_scenario(scenario))
    assert result.ok, result.message
    assert list(shared.iterdir()) == []  # nothing written to, or read back from, the temp folder
    assert [p.name for p in folder.iterdir()] == ["wall.yaml"]  # nor beside the scenario
