"""The benchmarks' profiler: py-spy sampling a server's processes, and the summary printed."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from games.benchmarks.sampling import Sampler, profiling_available, summary
from games.benchmarks.servers import children

BUSY = """
import time
def spin():
    end = time.monotonic() + 30
    while time.monotonic() < end:
        sum(range(1000))
spin()
"""


def test_the_summary_ranks_functions_by_own_and_cumulative_samples():
    stacks = ["thread (1);main (app/run.py:3);work (app/work.py:10) 3",
              "thread (1);main (app/run.py:3);wait (db/conn.py:7) 1",
              "not a stack line"]
    lines = summary(stacks)
    assert lines[0].startswith("  profile (4 samples of busy threads")
    own = lines[1:lines.index("  by cumulative time:")]
    assert own == ["     75.0%  work (app/work.py)", "     25.0%  wait (db/conn.py)"]
    assert "    100.0%  main (app/run.py)" in lines


def test_no_samples_say_so():
    assert summary([]) == ["  profile: no samples"]


def test_the_workers_of_a_process_are_its_children():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in children(os.getpid())
    finally:
        child.kill()
        child.wait()
    with pytest.raises(OSError):
        children(2 ** 22 + 1)  # no such process


@pytest.mark.skipif(not profiling_available(), reason="py-spy is not installed")
def test_the_sampler_records_where_a_busy_process_spends_its_time(tmp_path):
    busy = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        time.sleep(0.3)
        sampler = Sampler([busy.pid], tmp_path / "var" / "profile.txt")
        time.sleep(1.0)
        lines = sampler.stop()
    finally:
        busy.kill()
        busy.wait()
    assert (tmp_path / "var" / "profile.txt").exists()
    assert any("spin (" in line for line in lines), lines
    with pytest.raises(ValueError):
        Sampler([], tmp_path / "var" / "none.txt")
