"""The host's budget of open files: every connection costs one descriptor, so the host first raises
its soft limit toward the hard one, then keeps its connections within what is left."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from netplay.transport.settings import FILE_LIMIT

log = logging.getLogger("netplay.transport")


def raise_file_limit(target: int = FILE_LIMIT) -> int:
    """Raise this process's soft limit of open files toward its hard limit (at most `target`) and return
    the soft limit in force. Every connection costs the host a file descriptor; the usual soft limit of
    1024 is far below what the system allows (the hard limit is often 4096 to a million), and a few
    hundred idle connections must not be able to use up what is left. Where the system does not allow
    more, the host works with what it has (see `_Connections`)."""
    try:
        import resource
    except ImportError:       # not a POSIX system: nothing to raise
        return FILE_LIMIT
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = target if hard == resource.RLIM_INFINITY else min(hard, target)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            log.info("raised the limit of open files from %d to %d (hard limit %s)", soft, want, hard)
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the limit of open files from %d (hard limit %s): %s", soft, hard, exc)
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return FILE_LIMIT if soft == resource.RLIM_INFINITY else soft


@dataclass(slots=True)
class _Budget:
    allowed: int          # connections (of both ports) the host keeps before it closes the oldest idle ones
    count: int = 0
    peak: int = 0
