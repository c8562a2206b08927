"""#12 fuzzing: mutated rulesets, card files, ruleset.yaml, saves and scenarios get a clean answer
(exit 0, 1 or 2, no traceback, no internal error) within a time and memory limit per case.

Each target runs tests/fuzz_driver.py in a process of its own (3 GiB of address space, 30 s a
case). The examples are the same on every run; `HYPOTHESIS_PROFILE=explore` draws new ones, and
`python tests/fuzz_driver.py TARGET --examples 1000` runs a longer search by hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DRIVER = Path(__file__).with_name("fuzz_driver.py")
EXAMPLES = 60

# how deep the mutated inputs must reach (a command, or a command and its exit code), so that a driver that stopped exercising anything fails
REACHED = {
    "language": "simulate",
    "cards": "simulate",
    "meta": "simulate",
    "saves": "play 0",
    "scenarios": "test 0",
}


@pytest.mark.parametrize("target", list(REACHED))
def test_mutated_input_gets_a_clean_answer(target):
    out = subprocess.run(
        [sys.executable, str(DRIVER), target, "--examples", str(EXAMPLES)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout)
    shown = [
        f"{f['file']}: {f['problem']}\n--- input ---\n{f['input'][:1500]}"
        for f in report["failures"]
    ]
    assert not report["failures"], "\n\n".join(shown[:3])
    reached = sum(n for key, n in report["exits"].items() if key.startswith(REACHED[target]))
    assert reached >= 3, report["exits"]
