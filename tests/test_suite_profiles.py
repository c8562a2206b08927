"""The suite's hypothesis profiles: CI's plain `pytest` draws the full counts, the quick loop
(`-m "not slow"`) a fifth (tests/conftest.py, tests/quick.py)."""

from conftest import skips_slow


def test_only_an_expression_leaving_out_the_slow_tests_is_the_quick_loop():
    # no expression (CI) once read as the quick loop: pytest's parser evaluates "" as false
    assert not skips_slow("")
    assert not skips_slow("   ")
    assert not skips_slow("slow")
    assert not skips_slow("slow or not slow")
    assert skips_slow("not slow")
    assert skips_slow("not slow and not browser")
