"""#12 fuzzing: mutated rulesets, card files, ruleset.yaml, saves and scenarios get a clean answer
(exit 0, 1 or 2, no traceback, no internal error) within a time and memory limit per case.

Each target runs tests/fuzz_driver.py in a process of its own (3 GiB of address space, 30 s a
case). The examples are the same on every run (60 a target; fewer of the costly ones in the quick
loop, `-m "not slow"`); `HYPOTHESIS_PROFILE=explore` draws new ones, and
`python tests/fuzz_driver.py TARGET --examples 1000` runs a longer search by hand.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from quick import quick

DRIVER = Path(__file__).with_name("fuzz_driver.py")
EXAMPLES = 60
# The quick loop (tests/quick.py) draws fewer where a case costs most: enough that the drawn cases
# still reach the depth REACHED asks for (the examples are the same on every run).
QUICK_EXAMPLES = {"language": 30, "cards": 30, "meta": 20}

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
    n = QUICK_EXAMPLES.get(target, EXAMPLES) if quick() else EXAMPLES
    out = subprocess.run(
        [sys.executable, str(DRIVER), target, "--examples", str(n)],
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
