"""Slow fixtures whose work runs in child processes (JVMs, testees, the console script), started beside the suite's
first tests: one job at a time in one thread, so their child processes take the second core while the suite
keeps the first. A fixture asks for its job's result: it waits when the job still runs, and computes it on the spot
when the run did not start it (a module run alone)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

_pool: list[ThreadPoolExecutor] = []
_jobs: dict[str, Future] = {}
_owner: list[object] = []  # the pytest config of the session that started the jobs
timings: dict[str, dict[str, float]] = {}  # per job: seconds it ran, and seconds a test waited for it


def _timed(name: str, job: Callable[[], Any]) -> Callable[[], Any]:
    """`job`, recording how long it ran under `name`."""

    def run() -> Any:
        began = time.monotonic()
        try:
            return job()
        finally:
            timings.setdefault(name, {})["ran"] = time.monotonic() - began

    return run


def start(name: str, job: Callable[[], Any], owner: object) -> None:
    """Queue `job` under `name` for the session of config `owner` (jobs run one after another, in the order
    started)."""
    if not _pool:
        _pool.append(ThreadPoolExecutor(1, "background"))
        _owner[:] = [owner]
    _jobs[name] = _pool[0].submit(_timed(name, job))


def result(name: str, job: Callable[[], Any]) -> Any:
    """The result of the job started under `name` (its exception raised here), else `job()` run now."""
    future = _jobs.pop(name, None)
    if future is None:
        return job()
    began = time.monotonic()
    try:
        return future.result()
    finally:
        timings.setdefault(name, {})["waited"] = time.monotonic() - began


def owned() -> bool:
    """Some session started jobs and has not ended."""
    return bool(_owner)


def stop(owner: object) -> bool:
    """At the end of the session that started them (not of an inner pytester session): drop the jobs no test
    asked for (a deselected or failed module) once the running one ends."""
    if _owner[:1] != [owner]:
        return False
    _owner.clear()
    for future in _jobs.values():
        future.cancel()
    _jobs.clear()
    if _pool:
        _pool.pop().shutdown(wait=True, cancel_futures=True)
    return True
