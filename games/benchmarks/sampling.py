"""Where a server's time goes during a benchmark: py-spy samples its processes (their Python
threads; idle ones, such as a worker waiting for a connection, are left out) and the summary
ranks the functions by own and by cumulative samples. ``bench_longpoll --profile`` samples the
events process during a wake-up, ``bench_api --profile`` the web server's workers during the
move path's rounds. Sampling takes CPU of its own, so a profiled run's figures are not the
benchmark's: the profile says where the time went, a run without it how much there was."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

# Functions listed per table.
TOP = 25


class Sampler:
    """py-spy recording each of ``pids`` until ``stop``; the raw stacks of all of them end up
    in ``out``."""

    def __init__(self, pids: list[int], out: Path) -> None:
        if not pids:
            raise ValueError("nothing to sample: no process given")
        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)
        out.unlink(missing_ok=True)
        executable = _py_spy()
        self.parts = [out.with_name(f"{out.stem}.{pid}{out.suffix}") for pid in pids]
        self.processes = []
        for pid, part in zip(pids, self.parts, strict=True):
            part.unlink(missing_ok=True)
            self.processes.append(subprocess.Popen(
                [str(executable), "record", "--pid", str(pid), "--rate", "500", "--format",
                 "raw", "--output", str(part), "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        time.sleep(0.5)  # attached before the work to sample starts

    def stop(self) -> list[str]:
        """Stop sampling; the summary's lines."""
        errors = []
        for process in self.processes:
            process.send_signal(signal.SIGINT)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
            if process.stderr is not None:
                errors.append(process.stderr.read().decode(errors="replace").strip())
        stacks = []
        for part in self.parts:
            if part.exists():
                stacks.extend(part.read_text().splitlines())
                part.unlink()
        if not stacks:
            return [f"  profile: py-spy wrote nothing ({' '.join(errors)[-300:]})"]
        self.out.write_text("\n".join(stacks) + "\n")
        return summary(stacks, self.out)


def _py_spy() -> Path:
    return Path(sys.executable).with_name("py-spy")


def profiling_available() -> bool:
    """Whether py-spy is installed beside this Python (the test extra installs it)."""
    return _py_spy().exists()


def summary(stacks: list[str], out: Path | None = None) -> list[str]:
    """Own and cumulative samples per function, from py-spy's collapsed stacks."""
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    samples = 0
    for line in stacks:
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_frame(frame) for frame in stack.split(";")[1:]]  # [0]: the thread
        if not frames:
            continue
        samples += count
        own[frames[-1]] = own.get(frames[-1], 0) + count
        for frame in set(frames):
            total[frame] = total.get(frame, 0) + count
    if not samples:
        return ["  profile: no samples"]

    def table(values: dict[str, int]) -> list[str]:
        ranked = sorted(values.items(), key=lambda item: -item[1])[:TOP]
        return [f"    {100 * n / samples:5.1f}%  {name}" for name, n in ranked]

    where = f", raw stacks in {out.relative_to(out.parents[1])}" if out is not None else ""
    return ([f"  profile ({samples} samples of busy threads; py-spy{where}), by own time:"]
            + table(own) + ["  by cumulative time:"] + table(total))


def _frame(frame: str) -> str:
    """``function (path/to/module.py:line)`` as ``function (module.py)``."""
    name, _, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    return f"{name} ({'/'.join(Path(path).parts[-2:])})"

