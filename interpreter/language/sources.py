"""Reading user files safely: size limits, encodings and binary data become diagnostics."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from .diagnostics import Diagnostics, Span

MAX_FILE_BYTES = 20_000_000

# Texts that stand for files on disk while a block runs: an editor's unsaved buffers, checked as
# if saved (keyed by resolved path).
_overlay: ContextVar[Mapping[Path, str] | None] = ContextVar("overlay", default=None)


@contextlib.contextmanager
def overlay(texts: Mapping[str | Path, str]) -> Iterator[None]:
    """Read these texts instead of the files at their paths inside the block."""
    token = _overlay.set({Path(k).resolve(): v for k, v in texts.items()})
    try:
        yield
    finally:
        _overlay.reset(token)


def read_text(path: str | Path, diags: Diagnostics) -> str | None:
    """The file's text, or None after reporting why it cannot be read."""
    p = Path(path)
    texts = _overlay.get()
    if texts:
        text = texts.get(p.resolve())
        if text is not None:
            diags.add_source(str(path), text)
            return text
    where = Span(str(path), 1, 1)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            diags.error(
                f"file too large ({size:,} bytes; the limit is {MAX_FILE_BYTES:,})",
                where,
                code="too-large",
            )
            return None
        data = p.read_bytes()
    except FileNotFoundError:
        diags.error("no such file", where, code="no-file")
        return None
    except IsADirectoryError:
        diags.error("is a folder, not a file", where, code="no-file")
        return None
    except OSError as e:
        diags.error(f"cannot read: {e.strerror or e}", where, code="no-file")
        return None
    return decode(data, str(path), diags)


def decode(data: bytes, file: str, diags: Diagnostics) -> str | None:
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        diags.error("binary data (a NUL byte) in a text file", Span(file, line, 1), code="binary")
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        col = (
            len(data[line_start : e.start].decode("utf-8", "replace")) + 1
        )  # characters, not bytes
        diags.error(
            f"invalid UTF-8 (byte 0x{data[e.start]:02x})",
            Span(file, line, col, line, col + 1),
            hint="save the file as UTF-8",
            code="encoding",
        )
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    diags.add_source(file, text)
    return text
