"""What the checker learned about the nodes of a ruleset, as typed records for the build stage.

The AST stays frozen: the checker's findings sit beside it in `Resolved`, read through
`name_of`, `attr_of`, `call_of`, `type_of`, `operand_types` and `maps_list`. Each finding is a
small frozen record whose class says what the node is (`CounterRef("score")`, `ObjProp("cost")`),
so the compiler tests `isinstance(ref, CounterRef)`: a misspelt class is a NameError where a
misspelt tag string was a silent miss.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from .nodes import Node
from .symbols import ANY


@dataclass(frozen=True, slots=True)
class Ref:
    """A resolved name: `name` is the declaration's own (canonical) name."""

    name: str


# ---------------------------------------------------------------- what a bare name is


@dataclass(frozen=True, slots=True)
class LocalRef(Ref):
    """A local name (let, parameter, loop variable, choice); on `x has K`, a keyword held in
    a local name."""


@dataclass(frozen=True, slots=True)
class DefineRef(Ref):
    """A definition, named (`total`) or called (`total(x)`)."""


@dataclass(frozen=True, slots=True)
class CounterRef(Ref):
    """A global counter."""


@dataclass(frozen=True, slots=True)
class ZoneRef(Ref):
    """A global zone."""


@dataclass(frozen=True, slots=True)
class BuiltinRef(Ref):
    """A built-in name (`players`, `option`) or a built-in function (`count(...)`)."""


@dataclass(frozen=True, slots=True)
class ItPropRef(Ref):
    """A field of `it` written alone, inside `where` or a condition argument."""


@dataclass(frozen=True, slots=True)
class KeywordRef(Ref):
    """A keyword."""


@dataclass(frozen=True, slots=True)
class KindRef(Ref):
    """A kind of card."""


@dataclass(frozen=True, slots=True)
class CardRef(Ref):
    """A card, by name (a text value)."""


@dataclass(frozen=True, slots=True)
class GameRef(Ref):
    """A game value the rules may set (`first_player`, `turn_direction`)."""


NameRef = (
    LocalRef | DefineRef | CounterRef | ZoneRef | BuiltinRef | ItPropRef | KeywordRef
    | KindRef | CardRef | GameRef
)  # fmt: skip

# ---------------------------------------------------------------- what a call is


@dataclass(frozen=True, slots=True)
class VerbRef(Ref):
    """A verb called as a statement."""


@dataclass(frozen=True, slots=True)
class DoableRef(Ref):
    """`doable(EVENT(ARGS))`: the event or verb asked about."""


CallRef = VerbRef | DoableRef | DefineRef | BuiltinRef

# ---------------------------------------------------------------- what `x.NAME` is


@dataclass(frozen=True, slots=True)
class AttrRef(Ref):
    """`x.NAME`; `of` says of which type of value (the checker's ambiguity message)."""

    of: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class OptionAttr(AttrRef):
    """`option.NAME`."""

    of: ClassVar[str] = "option"


@dataclass(frozen=True, slots=True)
class KeyAttr(AttrRef):
    """A key of a plain value: `data.NAME`, or an attribute of a value of unknown type."""

    of: ClassVar[str] = "dict"


@dataclass(frozen=True, slots=True)
class PlayerZone(AttrRef):
    of: ClassVar[str] = "player"


@dataclass(frozen=True, slots=True)
class PlayerCounter(AttrRef):
    of: ClassVar[str] = "player"


@dataclass(frozen=True, slots=True)
class PlayerBuiltin(AttrRef):
    """A built-in attribute of a player (signatures.PLAYER_ATTRS)."""

    of: ClassVar[str] = "player"


@dataclass(frozen=True, slots=True)
class AreaZone(AttrRef):
    of: ClassVar[str] = "area"


@dataclass(frozen=True, slots=True)
class AreaCounter(AttrRef):
    of: ClassVar[str] = "area"


@dataclass(frozen=True, slots=True)
class AreaFact(AttrRef):
    """A fact of the map's areas (settings.maps)."""

    of: ClassVar[str] = "area"


@dataclass(frozen=True, slots=True)
class ObjProp(AttrRef):
    """A property (a kind's field) of an object."""

    of: ClassVar[str] = "obj"


@dataclass(frozen=True, slots=True)
class ObjBuiltin(AttrRef):
    """A built-in attribute of an object (signatures.OBJECT_ATTRS)."""

    of: ClassVar[str] = "obj"


@dataclass(frozen=True, slots=True)
class ZoneBuiltin(AttrRef):
    """`z.owner`, `z.size` of a zone."""

    of: ClassVar[str] = "zone"


@dataclass
class Resolved:
    """The checker's findings, looked up by node. Entries hold their node, so a node that died
    and left its id to another is never mistaken for it."""

    _names: dict[int, tuple[Node, Ref]] = field(default_factory=dict, repr=False)
    _attrs: dict[int, tuple[Node, AttrRef]] = field(default_factory=dict, repr=False)
    _calls: dict[int, tuple[Node, Ref]] = field(default_factory=dict, repr=False)
    _types: dict[int, tuple[Node, object]] = field(default_factory=dict, repr=False)
    _operands: dict[int, tuple[Node, tuple]] = field(default_factory=dict, repr=False)
    _maps: dict[int, Node] = field(default_factory=dict, repr=False)
    _bindings: dict[int, tuple[Node, object]] = field(default_factory=dict, repr=False)
    phase_names: dict[str, str] = field(default_factory=dict)  # a phase's spelling -> its name

    # ------------------------------------------------------------ the checker writes
    def set_name(self, node: Node, ref: NameRef) -> None:
        self._names[id(node)] = (node, ref)

    def set_attr(self, node: Node, ref: AttrRef) -> None:
        self._attrs[id(node)] = (node, ref)

    def set_call(self, node: Node, ref: CallRef) -> None:
        self._calls[id(node)] = (node, ref)

    def set_type(self, node: Node, t) -> None:
        """The option type of `choose`/`order`, the value type of `log`."""
        self._types[id(node)] = (node, t)

    def set_binding(self, node: Node, t) -> None:
        """The type of the value a statement binds to a local name (`let`, `x = ...` of a
        local, a `for`'s name, a `choose`'s or an `order`'s): the build stage picks by it which proof that the name always
        holds such a value (never none) to attempt (codegen.CodeGen.held_names)."""
        self._bindings[id(node)] = (node, t)

    def set_operands(self, node: Node, left, right) -> None:
        self._operands[id(node)] = (node, (left, right))

    def set_maps(self, node: Node) -> None:
        """`xs.NAME` of a list: the attribute of each item."""
        self._maps[id(node)] = node

    # ------------------------------------------------------------ the build stage reads
    def name_of(self, node: Node) -> NameRef | None:
        """What a `Name` is (or, on `Has`, the local holding its keyword); None if unknown."""
        return _get(self._names, node)

    def attr_of(self, node: Node) -> AttrRef | None:
        return _get(self._attrs, node)

    def call_of(self, node: Node) -> CallRef | None:
        """What a `Call` or `CallStmt` calls."""
        return _get(self._calls, node)

    def type_of(self, node: Node, default=ANY):
        return _get(self._types, node, default)

    def binding_type(self, node: Node, default=ANY):
        """The type of the value `node` (a `let`, an assignment, a `for`) binds."""
        return _get(self._bindings, node, default)

    def operand_types(self, node: Node) -> tuple | None:
        """The types of a `BinOp`'s two sides."""
        return _get(self._operands, node)

    def maps_list(self, node: Node) -> bool:
        return self._maps.get(id(node)) is node


def _get(table: dict, node: Node, default=None):
    hit = table.get(id(node))
    return hit[1] if hit is not None and hit[0] is node else default
