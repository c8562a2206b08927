"""A ruleset's public definitions are an interface (issue 32, compatibility): a renamed one stays
as a deprecated alias (ruleset.yaml `deprecated`) whose every use warns with its replacement."""

import shutil
from pathlib import Path

from madang.build.loader import bundled_dir, load_ruleset
from madang.language.diagnostics import Diagnostics

OLD_CARD = """\
ruleset: nivel_arena
cards:
  - name: "古文書"
    type: 유닛
    코스트: 1
    파워: 3000
    히트: 1
    속성: "炎"
    소속: []
    text: |
      엔트리
      after entered(this):
          require still_on_field(this)
          level_up(you, 1)
"""


def test_a_card_using_a_deprecated_name_loads_with_a_located_warning(tmp_path: Path):
    (tmp_path / "old.yaml").write_text(OLD_CARD, encoding="utf-8")
    diags = Diagnostics()
    loaded = load_ruleset("nivel_arena", diags, extra_cards=[str(tmp_path / "old.yaml")])
    assert not diags.has_errors() and loaded.program is not None
    found = [d for d in diags.sorted() if d.code == "deprecated"]
    assert [(d.span.line, d.span.col, d.message) for d in found] == [
        (13, 19, "'still_on_field' is deprecated: use 'on_field'")
    ]


def test_a_deprecated_name_needs_a_defined_replacement(tmp_path: Path):
    folder = tmp_path / "r"
    shutil.copytree(bundled_dir() / "nivel_arena", folder)
    meta = (folder / "ruleset.yaml").read_text(encoding="utf-8")
    (folder / "ruleset.yaml").write_text(
        meta.replace("still_on_field: on_field", "still_on_field: on_feild"), encoding="utf-8"
    )
    diags = Diagnostics()
    load_ruleset(str(folder), diags, compile=False)
    errs = [d for d in diags.sorted() if d.severity == "error"]
    assert len(errs) == 1 and "'on_feild', which is not defined" in errs[0].message
    assert errs[0].span.file.endswith("ruleset.yaml") and errs[0].span.line > 1
    assert "on_field" in (errs[0].hint or "")
