"""A text progress bar for long-running management commands."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``with ProgressBar(total, "label") as bar: bar.advance()`` draws ``[####....] 40/100``.

    On a terminal the bar redraws in place; elsewhere (CI logs) it prints at most every 10%."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None,
                 width: int = 30) -> None:
        self.total = max(total, 1)
        self.label = label
        # Django's OutputWrapper adds a newline to every write; draw on the real stream.
        self.stream = getattr(stream, "_out", stream) or sys.stderr
        self.width = width
        self.done = 0
        self.started = time.monotonic()
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last_tenth = -1

    def __enter__(self) -> ProgressBar:
        self._draw()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done = min(self.done, self.total)
        self._draw(final=True)

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        self._draw()

    def _draw(self, final: bool = False) -> None:
        filled = int(self.width * min(self.done, self.total) / self.total)
        elapsed = time.monotonic() - self.started
        line = (f"{self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
                f"{self.done}/{self.total} {elapsed:5.1f}s")
        if self._tty:
            self.stream.write("\r" + line + ("\n" if final else ""))
            self.stream.flush()
            return
        tenth = int(10 * min(self.done, self.total) / self.total)
        if final or tenth != self._last_tenth:
            self._last_tenth = tenth
            self.stream.write(line + "\n")
            self.stream.flush()
