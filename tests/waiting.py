"""Waiting for a background ``fcsim`` process to reach a point, patiently; and letting it
take Ctrl-C.

The first command of a test session may compile every kernel it needs (minutes on a
slow or loaded machine), so a deadline here only stops a test that hangs; it never
stands for how fast fcsim should be (the benchmarks in ``scripts/`` say that).
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable

PATIENCE_S = 900  # the longest a test waits for a process to get somewhere
POLL_S = 0.05


def wait_until(reached: Callable[[], bool], proc: subprocess.Popen) -> None:
    """Return once ``reached()`` holds, with ``proc`` still running; fail with its output if
    it ends first, or after :data:`PATIENCE_S`."""
    deadline = time.monotonic() + PATIENCE_S
    while not reached():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"still waiting after {PATIENCE_S} s"
        time.sleep(POLL_S)


def default_sigint() -> None:
    """A ``preexec_fn``: let the child take Ctrl-C even where the tests run with SIGINT
    ignored (a background job of a non-interactive shell passes SIG_IGN on to what it
    starts, and Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
