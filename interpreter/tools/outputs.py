"""Writing what a command makes (saves, logs, reports, formatted sources) so that a file is
always either the old one or the whole new one."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path


def atomic_write(path: str | Path, text: str) -> None:
    """Write `text` to `path` so that the file is always either the old one or the whole new
    one: a temporary file in the same folder, then a rename. A link is followed (the file it
    points at is replaced, the link stays) and the file keeps its permissions; a file with
    several hard links is rewritten in place, since a rename would split them."""
    path = Path(os.path.realpath(path))
    try:
        old = path.stat()
    except FileNotFoundError:
        old = None
    if old is not None and old.st_nlink > 1:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return
    _remove_stale_temporaries(path)
    # suffix, prefix (with our process id, so that a later run can tell a stopped writer's), folder
    fd, tmp = tempfile.mkstemp(".tmp", f".{path.name}.{os.getpid()}.", str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        mode = old.st_mode & 0o7777 if old is not None else 0o666 & ~_umask()
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _remove_stale_temporaries(path: Path) -> None:
    """The temporary files a writer stopped mid-save (SIGKILL, a system crash) left
    beside `path`: only ours (`.NAME.PID.XXXX.tmp`, regular files), only when that process is
    gone."""
    pattern = re.compile(rf"\.{re.escape(path.name)}\.(\d+)\.[A-Za-z0-9_]+\.tmp")
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        m = pattern.fullmatch(name)
        if m is None or _alive(int(m.group(1))):
            continue
        leftover = path.parent / name
        try:
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink()
        except OSError:
            pass


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (Linux's /proc; elsewhere every writer counts as running)."""
    proc = Path("/proc")
    return not proc.is_dir() or (proc / str(pid)).exists()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
