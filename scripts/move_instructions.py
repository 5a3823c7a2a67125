"""Machine instructions per move in the Django process, counted by valgrind's callgrind: a count
does not move with the machine's load, as CPU time does, so a change's cost or saving shows
even while other work runs.

``manage.py profile_moves --plain N`` plays N moves of the move path through the WSGI
application in one process, on matches it set up and warmed up first, the N moves inside one
call of ``functools.reduce``; callgrind counts only what runs within that call
(``--toggle-collect``), so start-up, set-up and warm-up are left out and the count over N is
one move's instructions in the Django process. PostgreSQL's own work is not in it (its CPU:
``scripts/cpu_of.py``). It runs twice, with FEW and with MANY moves, and prints both: moves
that cost alike give figures within a few per cent of each other. Needs valgrind (Debian's
package) and the database of DATABASE_URL.

    python scripts/move_instructions.py [--few 40] [--many 120]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLLECTED = re.compile(r"Collected : (\d+)")


def count(moves: int, folder: Path) -> int:
    """The instructions callgrind counted within the ``moves`` moves of a run."""
    out = folder / f"callgrind.{moves}"
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--collect-atstart=no",
         "--toggle-collect=functools_reduce", f"--callgrind-out-file={out}", sys.executable,
         "manage.py", "profile_moves", "--plain", str(moves)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**os.environ, "DJANGO_DEBUG": "false", "THROTTLE_USER": "1000000/min",
             "PYTHONHASHSEED": "0"})
    found = COLLECTED.search(run.stderr)
    if run.returncode != 0 or found is None:
        raise SystemExit(f"the run of {moves} moves failed:\n{run.stdout[-2000:]}"
                         f"{run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--few", type=int, default=40)
    parser.add_argument("--many", type=int, default=120)
    args = parser.parse_args()
    if not 0 < args.few < args.many:
        parser.error("expected 0 < --few < --many")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian's valgrind package)")
    with tempfile.TemporaryDirectory(prefix="move-instructions-") as folder:
        few, many = count(args.few, Path(folder)), count(args.many, Path(folder))
    print(f"instructions per move: {many / args.many / 1e6:.2f} million over {args.many} moves, "
          f"{few / args.few / 1e6:.2f} million over {args.few}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
