"""Safe YAML with positions: plain data plus the span of every value, for located diagnostics.

Only YAML's event stream is used (libyaml's when available): this module composes the nodes
itself, without recursion, and builds plain Python data (dict, list, str, int, float, bool,
None). Nothing is ever executed; tags other than the standard scalar and collection tags are
refused. Hostile input (syntax errors, alias bombs, deep nesting, several documents, duplicate
keys) becomes a diagnostic, never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .diagnostics import Diagnostics, Span
from .parser import Origin

MAX_DEPTH = 100
MAX_ALIAS_NODES = 100_000

_LOADER = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader

_Y = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = _Y + "str", _Y + "int", _Y + "float", _Y + "bool", _Y + "null"
SEQ, MAP, MERGE = _Y + "seq", _Y + "map", _Y + "merge"
# Resolved implicitly by YAML 1.1 but not plain data: kept as the text written.
_AS_TEXT = {_Y + "timestamp", _Y + "value", "!"}

_SCALAR, _SEQ, _MAP = 0, 1, 2
_LINE_BREAK = re.compile(r"\r\n|[\n\r\x85\u2028\u2029]")


class _Node:
    """One composed value: its position (0-based) and, for collections, its children."""

    __slots__ = (
        "kind",
        "data",
        "style",
        "line",
        "col",
        "end_line",
        "end_col",
        "items",
        "size",
        "height",
    )

    def __init__(self, kind: int, data: Any, start, end, style: str | None = None):
        self.kind, self.data, self.style = kind, data, style
        self.line, self.col = start.line, start.column
        self.end_line, self.end_col = end.line, end.column
        # seq: list of _Node; map: {key: (key _Node, value _Node)}
        self.items: Any = [] if kind == _SEQ else {} if kind == _MAP else None
        self.size = 1  # number of values, counting those reached through aliases
        self.height = 0 if kind == _SCALAR else 1  # levels of collections, aliases followed


class _Stop(Exception):
    """Internal: a problem has been reported and loading cannot go on."""


@dataclass
class YamlDoc:
    """A loaded YAML file: `data` is plain Python; positions are looked up by path."""

    file: str
    data: Any
    text: str = field(repr=False)
    root: _Node | None = field(default=None, repr=False)
    _lines: list[str] | None = field(default=None, repr=False)

    def node(self, path: Iterable = ()) -> _Node | None:
        """The node at `path` (keys and list indices), or None when there is none."""
        found, rest = self._walk(path)
        return found if not rest else None

    def has(self, path: Iterable) -> bool:
        return self.node(path) is not None

    def span(self, path: Iterable = ()) -> Span:
        """The span of the value at `path`; for a missing path, of its nearest existing parent."""
        found, _ = self._walk(path)
        if found is None:
            return Span(self.file, 1, 1, 1, 1)
        return _span(self.file, found)

    def key_span(self, path: Iterable) -> Span:
        """The span of the mapping key of the last step of `path`, else `span(path)`."""
        path = tuple(path)
        if path:
            parent = self.node(path[:-1])
            if parent is not None and parent.kind == _MAP:
                pair = _lookup(parent, path[-1])
                if pair is not None:
                    return _span(self.file, pair[0])
        return self.span(path)

    def text_origin(self, path: Iterable) -> Origin:
        """Where the string at `path` starts, so that positions inside it map to the file."""
        found = self.node(path)
        if found is None:
            s = self.span(path)
            return Origin(self.file, s.line, s.col)
        if found.kind != _SCALAR or found.style in (None, ""):
            return Origin(self.file, found.line + 1, found.col + 1)
        if found.style in ("'", '"'):
            return Origin(self.file, found.line + 1, found.col + 2)
        # Block scalar (| or >): the content starts on the line after the indicator.
        first = found.line + 1
        indent = self._block_indent(found, first)
        return Origin(self.file, first + 1, indent + 1, indent + 1)

    def source(self, path: Iterable) -> str | None:
        """The text written for the value at `path` when it sits on one line (quotes included)."""
        found = self.node(path)
        if found is None or found.end_line != found.line:
            return None
        lines = self._text_lines()
        if found.line >= len(lines):
            return None
        return lines[found.line][found.col : found.end_col]

    def _block_indent(self, node: _Node, first: int) -> int:
        lines = self._text_lines()
        value = node.data if isinstance(node.data, str) else ""
        for i, vline in enumerate(value.split("\n")):
            if vline.strip(" ") and first + i < len(lines):
                fline = lines[first + i]
                spaces_file = len(fline) - len(fline.lstrip(" "))
                spaces_value = len(vline) - len(vline.lstrip(" "))
                return max(spaces_file - spaces_value, 0)
        return node.col

    def _text_lines(self) -> list[str]:
        if self._lines is None:
            self._lines = _LINE_BREAK.split(self.text)
        return self._lines

    def _walk(self, path: Iterable) -> tuple[_Node | None, tuple]:
        current, steps = self.root, tuple(path)
        for i, step in enumerate(steps):
            child = None
            if current is not None and current.kind == _MAP:
                pair = _lookup(current, step)
                child = pair[1] if pair is not None else None
            elif current is not None and current.kind == _SEQ and type(step) is int:
                child = current.items[step] if 0 <= step < len(current.items) else None
            if child is None:
                return current, steps[i:]
            current = child
        return current, ()


def _lookup(node: _Node, key: Any) -> tuple[_Node, _Node] | None:
    """The (key, value) nodes of a mapping entry; keys also match by their text (JSON keys)."""
    try:
        pair = node.items.get(key)
    except TypeError:
        pair = None
    if pair is None and isinstance(key, str):
        for k, p in node.items.items():
            if not isinstance(k, str) and json_key(k) == key:
                return p
    return pair


def json_key(key: Any) -> str:
    """A mapping key as text, the way JSON (and so JSON Schema) sees it."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return str(key)


def _span(file: str, node: _Node) -> Span:
    end_line, end_col = node.end_line + 1, node.end_col + 1
    if node.kind == _SCALAR and node.style in ("|", ">"):
        end_line, end_col = node.line + 1, node.col + 2  # the indicator only
    return Span(file, node.line + 1, node.col + 1, end_line, end_col)


def _mark_span(file: str, mark) -> Span:
    return Span(file, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_Y) :] if tag.startswith(_Y) else tag


def _show_key(key: Any) -> str:
    return repr(key) if isinstance(key, str) else json_key(key)


def load_yaml(text: str, file: str, diags: Diagnostics) -> YamlDoc | None:
    """Load one YAML document as plain data with positions; None after reporting why it cannot.

    An empty file (or one with only comments) gives a document whose data is None. Problems that
    leave the data well defined (a duplicate key: the first value is kept) are reported and the
    document is still returned, so that later checks can report their problems too.
    """
    diags.sources.setdefault(file, text)
    try:
        composer = _Composer(text, file, diags)
        root = composer.run()
    except _Stop:
        return None
    except yaml.MarkedYAMLError as e:
        if "nesting depth" in str(e.problem):  # libyaml's own limit, met scanning ahead of us
            line, col = _deep_flow(text) or (1, 1)
            diags.error(
                f"YAML nested too deeply (more than {MAX_DEPTH} levels)",
                Span(file, line, col),
                code="yaml-too-deep",
            )
            return None
        _report_syntax(e, text, file, diags)
        return None
    except yaml.reader.ReaderError as e:
        _report_reader(e, text, file, diags)
        return None
    except yaml.YAMLError as e:  # any other problem yaml reports without a position
        diags.error(f"invalid YAML: {e}", Span(file, 1, 1), code="yaml-syntax")
        return None
    except UnicodeEncodeError as e:  # a lone surrogate cannot reach libyaml
        line, col = _position(text, e.start)
        diags.error(
            f"invalid character U+{ord(text[e.start]):04X}",
            Span(file, line, col, line, col + 1),
            code="encoding",
        )
        return None
    except RecursionError:
        diags.error(
            f"YAML nested too deeply (more than {MAX_DEPTH} levels)",
            Span(file, 1, 1),
            code="yaml-too-deep",
        )
        return None
    if composer.failed:
        return None
    return YamlDoc(file, root.data if root is not None else None, text, root)


def _deep_flow(text: str) -> tuple[int, int] | None:
    """Where flow brackets (`[`, `{`) first nest deeper than MAX_DEPTH, outside quotes and
    comments: the position libyaml does not give when it refuses deep nesting itself."""
    depth, line, col, quote = 0, 1, 0, ""
    prev = "\n"
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, prev = line + 1, 0, ch
            if quote == "#":
                quote = ""
            continue
        if quote:
            if ch == quote and quote != "#":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and prev in " \t\n":
            quote = "#"
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line, col
        elif ch in "]}":
            depth = max(depth - 1, 0)
        prev = ch
    return None


class _Frame:
    __slots__ = ("node", "key", "anchor", "merges")

    def __init__(self, node: _Node, anchor: str | None):
        self.node, self.anchor = node, anchor
        self.key: _Node | None = None  # a mapping key waiting for its value
        self.merges: list[_Node] = []  # `<<` sources, merged when the mapping ends


class _Composer:
    """Builds nodes and data from parser events with an explicit stack (no recursion)."""

    def __init__(self, text: str, file: str, diags: Diagnostics):
        self.loader = _LOADER(text)
        self.file, self.diags = file, diags
        self.constructor = SafeConstructor()
        self.anchors: dict[str, _Node] = {}
        self.open_anchors: set[str] = set()
        self.stack: list[_Frame] = []
        self.root: _Node | None = None
        self.expanded = 0
        self.failed = False

    def run(self) -> _Node | None:
        try:
            return self._run()
        finally:
            self.loader.dispose()

    def _run(self) -> _Node | None:
        get = self.loader.get_event
        documents = 0
        while True:
            event = get()
            cls = type(event)
            if cls is yaml.ScalarEvent:
                self._add(self._scalar(event), event.anchor)
            elif cls is yaml.MappingStartEvent or cls is yaml.SequenceStartEvent:
                self._start(event, _MAP if cls is yaml.MappingStartEvent else _SEQ)
            elif cls is yaml.MappingEndEvent or cls is yaml.SequenceEndEvent:
                self._end(event)
            elif cls is yaml.AliasEvent:
                self._add(self._alias(event), None)
            elif cls is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    self.diags.error(
                        "more than one YAML document in this file",
                        _mark_span(self.file, event.start_mark),
                        hint="remove the '---' line, or split the documents into files",
                        code="yaml-documents",
                    )
                    raise _Stop
            elif cls is yaml.StreamEndEvent:
                return self.root
            # StreamStartEvent, DocumentEndEvent: nothing to do

    # -- nodes -------------------------------------------------------------------------------

    def _scalar(self, event) -> _Node:
        value, tag = event.value, event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolve(yaml.ScalarNode, value, event.implicit)
        node = _Node(_SCALAR, None, event.start_mark, event.end_mark, event.style or None)
        if tag == STR or tag in _AS_TEXT:
            node.data = value
        elif tag == MERGE:
            node.data = value
            node.style = "<<"
        elif tag in (INT, FLOAT, BOOL, NULL):
            node.data = self._construct(tag, value, event)
        else:
            self._bad_tag(tag, event)
        return node

    def _construct(self, tag: str, value: str, event) -> Any:
        scalar = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark)
        try:
            if tag == INT:
                return self.constructor.construct_yaml_int(scalar)
            if tag == FLOAT:
                return self.constructor.construct_yaml_float(scalar)
            if tag == BOOL:
                return self.constructor.bool_values[value.lower()]
            return None
        except (ValueError, KeyError, IndexError, ConstructorError):
            self.diags.error(
                f"{value!r} is not a valid {_show_tag(tag)}",
                Span(
                    self.file,
                    event.start_mark.line + 1,
                    event.start_mark.column + 1,
                    event.end_mark.line + 1,
                    event.end_mark.column + 1,
                ),
                code="yaml-tag",
            )
            self.failed = True
            return None

    def _bad_tag(self, tag: str, event) -> None:
        self.diags.error(
            f"unsupported YAML tag '{_show_tag(tag)}'",
            _mark_span(self.file, event.start_mark),
            hint="only plain data is allowed: text, numbers, true/false, null, lists and mappings",
            code="yaml-tag",
        )
        self.failed = True

    def _start(self, event, kind: int) -> None:
        if len(self.stack) >= MAX_DEPTH:
            self.diags.error(
                f"YAML nested too deeply (more than {MAX_DEPTH} levels)",
                _mark_span(self.file, event.start_mark),
                code="yaml-too-deep",
            )
            raise _Stop
        tag = event.tag
        if tag not in (None, "!", SEQ if kind == _SEQ else MAP):
            self._bad_tag(tag, event)
        node = _Node(kind, [] if kind == _SEQ else {}, event.start_mark, event.end_mark)
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Frame(node, event.anchor))

    def _end(self, event) -> None:
        frame = self.stack.pop()
        node = frame.node
        node.end_line, node.end_col = event.end_mark.line, event.end_mark.column
        if frame.merges:
            self._merge(node, frame.merges)
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
        self._add(node, frame.anchor)

    def _alias(self, event) -> _Node:
        name = event.anchor
        target = self.anchors.get(name)
        if target is None:
            recursive = name in self.open_anchors
            self.diags.error(
                f"alias '*{name}' refers to a value that contains it"
                if recursive
                else f"unknown alias '*{name}'",
                _mark_span(self.file, event.start_mark),
                hint=None if recursive else "define it first with '&name'",
                code="yaml-alias",
            )
            raise _Stop
        if len(self.stack) + target.height > MAX_DEPTH:
            self.diags.error(
                f"YAML nested too deeply (more than {MAX_DEPTH} levels, following aliases)",
                _mark_span(self.file, event.start_mark),
                code="yaml-too-deep",
            )
            raise _Stop
        self.expanded += target.size
        if self.expanded > MAX_ALIAS_NODES:
            self.diags.error(
                f"YAML aliases expand too far (more than {MAX_ALIAS_NODES:,} values)",
                _mark_span(self.file, event.start_mark),
                hint="an alias bomb? use fewer nested aliases",
                code="yaml-alias-bomb",
            )
            raise _Stop
        return target

    def _add(self, node: _Node, anchor: str | None) -> None:
        """Attach a finished node to the collection being built (or make it the root)."""
        if anchor is not None:
            self.anchors[anchor] = node
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        parent = frame.node
        parent.size += node.size
        if node.height >= parent.height:
            parent.height = node.height + 1
        if parent.kind == _SEQ:
            parent.items.append(node)
            parent.data.append(node.data)
        elif frame.key is None:
            frame.key = node
        else:
            key, frame.key = frame.key, None
            self._put(frame, key, node)

    def _put(self, frame: _Frame, key: _Node, value: _Node) -> None:
        parent = frame.node
        if key.kind == _SCALAR and key.style == "<<":
            frame.merges.append(value)
            return
        k = key.data
        if key.kind != _SCALAR:
            self.diags.error(
                "a mapping key must be a single value, not a list or mapping",
                _span(self.file, key),
                code="yaml-key",
            )
            self.failed = True
            return
        first = parent.items.get(k)
        if first is not None:
            self.diags.error(  # the data stays usable: the first value is kept
                f"duplicate key {_show_key(k)} (first at line {first[0].line + 1})",
                _span(self.file, key),
                code="yaml-duplicate-key",
            )
            return
        parent.items[k] = (key, value)
        parent.data[k] = value.data

    def _merge(self, node: _Node, sources: list[_Node]) -> None:
        """`<<: *base` (or a list of them): keys not written here come from the bases, in order."""
        for source in sources:
            bases = source.items if source.kind == _SEQ else [source]
            for base in bases:
                if base.kind != _MAP:
                    self.diags.error(
                        "'<<' merges a mapping or a list of mappings",
                        _span(self.file, base),
                        code="yaml-merge",
                    )
                    self.failed = True
                    continue
                for k, pair in base.items.items():
                    if k not in node.items:
                        node.items[k] = pair
                        node.data[k] = pair[1].data


def _report_syntax(e: yaml.MarkedYAMLError, text: str, file: str, diags: Diagnostics) -> None:
    mark = e.problem_mark or e.context_mark
    span = _mark_span(file, mark) if mark is not None else Span(file, 1, 1)
    problem = e.problem or e.context or "syntax error"
    hint = None
    lines = _LINE_BREAK.split(text)
    if (
        mark is not None
        and mark.line < len(lines)
        and lines[mark.line][mark.column : mark.column + 1] == "\t"
    ):
        hint = "indent YAML with spaces, not tabs"
    elif (
        e.context and e.context_mark is not None and e.problem and e.context_mark.line != mark.line
    ):
        hint = f"{e.context} at line {e.context_mark.line + 1}"
    diags.error(f"invalid YAML: {problem}", span, hint=hint, code="yaml-syntax")


def _report_reader(e: yaml.reader.ReaderError, text: str, file: str, diags: Diagnostics) -> None:
    pos = e.position
    if _LOADER is not yaml.SafeLoader:  # libyaml counts bytes of UTF-8
        pos = len(text.encode("utf-8", "surrogatepass")[:pos].decode("utf-8", "ignore"))
    line, col = _position(text, pos)
    char = e.character if isinstance(e.character, int) else ord(str(e.character)[:1] or "?")
    diags.error(
        f"character U+{char:04X} is not allowed in YAML",
        Span(file, line, col, line, col + 1),
        code="yaml-syntax",
    )


def _position(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of a character index, counting lines as YAML does."""
    before = text[:index]
    breaks = list(_LINE_BREAK.finditer(before))
    if not breaks:
        return 1, index + 1
    return len(breaks) + 1, index - breaks[-1].end() + 1
