"""Reading user files safely: size limits, encodings and binary data become diagnostics."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import unicodedata
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


class TooLarge(OSError):
    """More bytes than the limit: counted while reading, never trusted from the file's size."""


class NotRegular(OSError):
    """A device, FIFO or socket: reading could block or never end."""


def read_bytes(path: str | Path, limit: int) -> bytes:
    """At most `limit` bytes of a regular file. Opened without blocking (a FIFO would wait for a
    writer), checked to be a plain file, then read up to the limit whatever its size says."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(21, "is a folder", str(path))
        if not stat.S_ISREG(mode):
            raise NotRegular(f"{path}: not a regular file")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise TooLarge(f"{path}: more than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


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
    bad = _UNSAFE.search(text)
    if bad:
        ch = bad.group()
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        what = "a bidirectional-text control" if ch in _BIDI else "a control character"
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


_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Control characters other than tab and line ends (terminal escapes among them), and bidi marks.
_UNSAFE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_BIDI}]")


def unsafe_shown(text: str) -> str:
    """The text with control characters and bidi marks replaced by U+FFFD (columns kept), for
    showing a line of a file that has them."""
    return _UNSAFE.sub("\ufffd", text)
