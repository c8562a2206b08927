"""Bytes from a file, read without trusting it: a size limit counted while reading, no blocking
on pipes or devices, and control characters made visible before a line is shown."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

MAX_FILE_BYTES = 20_000_000


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


BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# Control characters other than tab and line ends (terminal escapes among them), and bidi marks.
UNSAFE = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{BIDI}]")


def unsafe_shown(text: str) -> str:
    """The text with control characters and bidi marks replaced by U+FFFD (columns kept), for
    showing a line of a file that has them."""
    return UNSAFE.sub("\ufffd", text)
