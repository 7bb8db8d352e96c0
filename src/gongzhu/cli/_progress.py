"""Progress for long runs: a line on a terminal's stderr that changes at least twice a second."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from gongzhu.i18n import Translator


class Progress:
    """``with Progress(t, total) as p: ... p.update(done)`` — silent unless ``stream`` is a tty.

    A timer thread redraws the line every half second, so a run shows it is
    alive within a second even while a worker is still busy with a chunk.
    """

    def __init__(
        self, t: Translator, total: int, *, stream: TextIO | None = None, show: bool | None = None
    ) -> None:
        self.t = t
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.show = self.stream.isatty() if show is None else show
        self.done = 0
        self.start = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> Progress:
        if self.show:
            self._draw()
            self._thread = threading.Thread(target=self._tick, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1.0)
        if self.show and kind is None:
            self._draw()
            print(file=self.stream, flush=True)
        # On an error or Ctrl-C the line stays as it was; the one-line report follows it.

    def update(self, done: int, total: int | None = None) -> None:
        self.done = done
        if total is not None:
            self.total = total

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            self._draw()

    def _draw(self) -> None:
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        line = self.t.gettext("  {done}/{total} deals, {seconds:.0f} s").format(
            done=self.done, total=self.total, seconds=elapsed
        )
        if rate and self.done < self.total:
            line += self.t.gettext(", about {left:.0f} s left").format(
                left=(self.total - self.done) / rate
            )
        with self._lock:
            try:
                print("\r" + line + "\x1b[K", end="", file=self.stream, flush=True)
            except (OSError, ValueError):
                self._stop.set()
