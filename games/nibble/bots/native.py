"""The C core of the level-4 search (``mcts.c``): compiled on first use, loaded with ctypes.

The system C compiler (``$CC``, else ``cc``; ``-O2 -shared -fPIC``) builds the core into the
cache directory (``$BOARDPOST_CACHE_DIR``, else ``~/.cache/boardpost``), one file per digest of
the source, written under a temporary name and renamed into place, so that processes starting
at once never load a half-written file. A directory that already holds the built file (the
Docker image builds it in a stage with a compiler) needs no compiler at all. When the core can
be neither found nor built, or ``BOARDPOST_NIBBLE_PURE`` is set, :func:`core` answers None and
the pure Python of :mod:`games.nibble.bots.mcts` plays.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from games.nibble.bots.mcts import Config, Result

SOURCE = Path(__file__).with_name("mcts.c")

_loaded: dict[str, ctypes.CDLL | None] = {}


def cache_dir() -> Path:
    configured = os.environ.get("BOARDPOST_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "boardpost"


def library_name() -> str:
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    return f"nibble_mcts-{digest}.so"


def build(directory: Path | None = None) -> Path:
    """Compiles the core into ``directory`` (the cache directory by default) unless it is
    there already; the path of the library. Raises OSError or CalledProcessError on failure."""
    directory = cache_dir() if directory is None else directory
    target = directory / library_name()
    if target.exists():
        return target
    directory.mkdir(parents=True, exist_ok=True)
    compiler = shlex.split(os.environ.get("CC") or "cc")
    fd, temporary = tempfile.mkstemp(prefix=".nibble_mcts-", suffix=".so", dir=directory)
    os.close(fd)
    try:
        subprocess.run([*compiler, "-O2", "-shared", "-fPIC", "-o", temporary, str(SOURCE),
                        "-lm"], check=True, capture_output=True, timeout=120)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return target


def core() -> ctypes.CDLL | None:
    """The loaded C core, or None when it cannot be had (the pure Python plays then)."""
    if os.environ.get("BOARDPOST_NIBBLE_PURE"):
        return None
    key = str(cache_dir())
    if key not in _loaded:
        _loaded[key] = _load()
    return _loaded[key]


def _load() -> ctypes.CDLL | None:
    try:
        library = ctypes.CDLL(str(build()))
    except (OSError, subprocess.SubprocessError):
        return None
    function = library.nibble_mcts
    function.restype = ctypes.c_int
    function.argtypes = [
        ctypes.POINTER(ctypes.c_int8), ctypes.POINTER(ctypes.c_int32),
        ctypes.POINTER(ctypes.c_int32), ctypes.c_uint64, ctypes.c_int32, ctypes.c_double,
        ctypes.c_double, ctypes.c_int32, ctypes.c_int32, ctypes.POINTER(ctypes.c_uint64),
        ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int64),
    ]
    return library


def search(library: ctypes.CDLL, board: list[int], counts: list[list[int]], order: list[int],
           seed: int, config: Config) -> Result:
    """The C search; the same arguments and result as :func:`games.nibble.bots.mcts.search`."""
    board_arg = (ctypes.c_int8 * 81)(*board)
    counts_arg = (ctypes.c_int32 * 18)(*counts[0], *counts[1])
    order_arg = (ctypes.c_int32 * 9)(*order)
    low, high = ctypes.c_uint64(), ctypes.c_uint64()
    stats = (ctypes.c_int64 * 4)()
    index = library.nibble_mcts(board_arg, counts_arg, order_arg, seed & ((1 << 64) - 1),
                                config.iterations, config.seconds, config.explore, config.multi,
                                config.retries, ctypes.byref(low), ctypes.byref(high), stats)
    if index < 0:
        raise MemoryError("the Nibble search could not allocate its tree")
    mask = high.value << 64 | low.value
    return Result(mask, int(index), int(stats[0]), int(stats[1]), int(stats[2]), int(stats[3]))
