"""The one log of dropped input: a flood of garbage must not become a flood of log lines."""

from __future__ import annotations

import logging
import time

log = logging.getLogger("netplay.transport")


class _DropLog:
    """Logs why input was dropped, at most `limit` lines per second, so a flood of garbage cannot
    flood the log too; what was suppressed is counted in the next line."""

    def __init__(self, limit: int = 20, prefix: str = "dropped: "):
        self.limit, self.prefix, self.window, self.count, self.suppressed = limit, prefix, 0.0, 0, 0

    def __call__(self, fmt: str, *args: object) -> None:
        now = time.monotonic()
        if now - self.window >= 1.0:
            self.window, self.count = now, 0
        if self.count >= self.limit:
            self.suppressed += 1
            return
        self.count += 1
        if self.suppressed:
            fmt += " (%d earlier lines not logged)"
            args = (*args, self.suppressed)
            self.suppressed = 0
        log.warning(self.prefix + fmt, *args)
