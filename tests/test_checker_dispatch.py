"""The checker has one method per node class (`stmt_If`, `expr_Call`), found by the node's
class: a new statement or expression without its method fails here, not in a user's ruleset."""

import pytest
from madang.language import nodes as n
from madang.language.checker import Checker


def _concrete(base):
    out, todo = [], [base]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls is not base and "__dataclass_fields__" in cls.__dict__:
            out.append(cls)
    return sorted(out, key=lambda c: c.__name__)


@pytest.mark.parametrize("cls", _concrete(n.Stmt), ids=lambda c: c.__name__)
def test_every_statement_class_has_its_method(cls):
    assert callable(getattr(Checker, "stmt_" + cls.__name__, None))


@pytest.mark.parametrize("cls", _concrete(n.Expr), ids=lambda c: c.__name__)
def test_every_expression_class_has_its_method(cls):
    assert callable(getattr(Checker, "expr_" + cls.__name__, None))


def _ability_classes() -> list[type]:
    """The declarations an ability holds (`Ability.decl`'s annotation)."""
    import typing

    from madang.language.symbols import Ability

    return list(typing.get_args(typing.get_type_hints(Ability)["decl"]))


@pytest.mark.parametrize("cls", _ability_classes(), ids=lambda c: c.__name__)
def test_every_ability_class_has_its_method(cls):
    assert callable(getattr(Checker, "ability_" + cls.__name__, None))


def test_the_ability_classes_are_read_from_the_annotation():
    assert {c.__name__ for c in _ability_classes()} == {"Trigger", "Static", "ActionDecl"}
