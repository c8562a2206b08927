"""Reading user files safely: size limits, encodings and binary data become diagnostics."""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from .diagnostics import Diagnostics, Span
from .files import BIDI, MAX_FILE_BYTES, UNSAFE, NotRegular, TooLarge, read_bytes, unsafe_shown

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
        data = read_bytes(p, MAX_FILE_BYTES)
    except FileNotFoundError:
        diags.error("no such file", where, code="no-file")
        return None
    except IsADirectoryError:
        diags.error("is a folder, not a file", where, code="no-file")
        return None
    except TooLarge:
        diags.error(f"file too large (more than {MAX_FILE_BYTES:,} bytes)", where, code="too-large")
        return None
    except NotRegular:
        diags.error(
            "not a regular file (a device, pipe or socket); madang reads only plain files",
            where,
            code="no-file",
        )
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
    bad = UNSAFE.search(text)
    if bad:
        ch = bad.group()
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        what = "a bidirectional-text control" if ch in BIDI else "a control character"
        diags.add_source(file, unsafe_shown(text))
        diags.error(
            f"{what} (U+{ord(ch):04X}) in the text",
            Span(file, line, col, line, col + 1),
            hint="it can make text read differently from what it is; delete it",
            code="encoding",
        )
        return None
    # One spelling for every name: 한 typed as composed syllables or as jamo is the same name.
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    diags.add_source(file, text)
    return text
