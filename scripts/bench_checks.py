"""What the run folder's safety checks cost a ``fcsim simulate`` (4 x greedy, all cores).

Runs the simulate once (its wall time covers the whole command, as in
``bench_simulate.py``), then does again, on the run's own chunk files, all the work the
checks add to a fresh run, and times it:

- ``checksum_s``: the SHA-256 of every chunk file (:func:`fcsim.runner.format.encode`
  hashes all but the footer, in the workers);
- ``durable_s``: writing every chunk durably (temporary name, ``fsync``, rename, folder
  ``fsync``; :func:`fcsim.runner.durable.write_durably`) minus writing it plainly;
- ``folder_s``: opening, locking, checking and releasing the folder, and holding Ctrl-C
  back around every chunk write (:class:`fcsim.runner.store.RunFolder`).

Their sum is an upper bound on what the checks add to the wall time: in the run the
checksums are spread over the workers and the writes overlap the play. One stable line::

    games=… workers=… wall_s=… checksum_s=… durable_s=… folder_s=… checks_s=… overhead_pct=…

    python scripts/bench_checks.py                   # 1,000,000 games
    python scripts/bench_checks.py --games 100000
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

from arguments import at_least, summary
from bench_page import recording
from bench_simulate import run

from fcsim.runner import format as fmt
from fcsim.runner.durable import write_durably
from fcsim.runner.plan import RunPlan
from fcsim.runner.stops import stops_deferred
from fcsim.runner.store import RunFolder


def checksum_seconds(chunks: list[bytes]) -> float:
    """Time to hash every chunk as :func:`~fcsim.runner.format.encode` does."""
    start = time.perf_counter()
    for data in chunks:
        hashlib.sha256(data).hexdigest()
    return time.perf_counter() - start


def durable_seconds(chunks: list[bytes], scratch: Path) -> float:
    """Time to write every chunk durably, minus the time to write it plainly."""
    plain, durable = scratch / "plain", scratch / "durable"
    plain.mkdir()
    durable.mkdir()
    start = time.perf_counter()
    for index, data in enumerate(chunks):
        (plain / fmt.part_name(index)).write_bytes(data)
    plain_s = time.perf_counter() - start
    start = time.perf_counter()
    for index, data in enumerate(chunks):
        target = durable / fmt.part_name(index)
        write_durably(target, data, target.with_name(fmt.temp_name(target.name)))
    return time.perf_counter() - start - plain_s


def folder_seconds(plan: RunPlan, chunks: int, scratch: Path) -> float:
    """Time to open, lock, check and release a fresh folder for ``plan``, with Ctrl-C held
    back once per chunk."""
    start = time.perf_counter()
    folder = RunFolder.open(scratch / "fresh", plan, resume=False)
    folder.create()
    for _ in range(chunks):
        with stops_deferred():
            pass
    folder.release()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=summary(__doc__))
    parser.add_argument("--games", type=at_least(1), default=1_000_000)
    parser.add_argument("--workers", type=at_least(1), default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    # On the disk the user writes to (not a RAM file system), so fsync costs what it costs.
    scratch = Path(tempfile.mkdtemp(prefix="bench_checks_", dir=Path.cwd()))
    try:
        out = scratch / "run"
        wall = run(args.games, args.workers, out)["wall_s"]
        plan = RunPlan.from_metadata(fmt.read_metadata(out))
        chunks = [path.read_bytes() for path in fmt.part_files(out).values()]
        checksum = checksum_seconds(chunks)
        durable = durable_seconds(chunks, scratch)
        folder = folder_seconds(plan, len(chunks), scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    checks = checksum + durable + folder
    print(f"games={args.games} workers={args.workers} wall_s={wall:.1f} "
          f"checksum_s={checksum:.3f} durable_s={durable:.3f} folder_s={folder:.3f} "
          f"checks_s={checks:.3f} overhead_pct={100 * checks / (wall - checks):.2f}", flush=True)


if __name__ == "__main__":
    with recording(__file__):
        main()
