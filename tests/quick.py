"""How many examples the property tests draw: the quick loop draws a fifth of them.

`python -m pytest -m "not slow"` is the loop a contributor runs after each edit; CI runs
everything with the full counts. tests/conftest.py loads the hypothesis profile "quick" when the
slow tests are deselected, and a test that names its own count (`max_examples=examples(200)`)
is scaled by the profile through here, since an explicit count would override the profile's.
"""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # hypothesis's default max_examples: the profiles are measured against it


def quick() -> bool:
    """Whether this is the quick loop (the profile "quick" is loaded)."""
    return settings.default.max_examples < FULL


def examples(n: int) -> int:
    """`n` under the repeatable profile (CI, a plain `pytest`), n/5 in the quick loop, 5n when
    exploring (HYPOTHESIS_PROFILE=explore)."""
    return max(5, n * settings.default.max_examples // FULL)
