"""Compile the message catalogues: every ``locale/<lang>/LC_MESSAGES/*.po`` to its ``.mo``.

``python -m config.catalogues`` (``make messages``; ``make run``, ``make test`` and the docker
image run it) compiles each catalogue whose ``.mo`` is missing or older than its ``.po``. It uses
GNU gettext's ``msgfmt --check-format`` (what Django's ``compilemessages`` runs; it refuses a
translation whose placeholders differ from the original's) where it is installed, and polib
otherwise, so a machine with only Python still gets every language. The ``.mo`` files are built
products and never committed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every ``.po`` file under ``locale_dir``, sorted."""
    return sorted(locale_dir.glob("*/LC_MESSAGES/*.po"))


def compile_catalogue(po: Path, *, use_msgfmt: bool | None = None) -> Path:
    """Write ``po``'s ``.mo`` next to it and return its path."""
    mo = po.with_suffix(".mo")
    msgfmt = shutil.which("msgfmt") if use_msgfmt is not False else None
    if msgfmt:
        subprocess.run([msgfmt, "--check-format", "-o", str(mo), str(po)], check=True)
    else:
        import polib  # a dependency of the project, for machines without GNU gettext

        polib.pofile(str(po)).save_as_mofile(str(mo))
    return mo


def compile_all(locale_dir: Path = LOCALE_DIR, *, force: bool = False) -> list[Path]:
    """Compile the catalogues that changed since their ``.mo`` was made (all with ``force``);
    returns the ``.mo`` files written."""
    written = []
    for po in catalogues(locale_dir):
        mo = po.with_suffix(".mo")
        if force or not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            written.append(compile_catalogue(po))
    return written


def main(argv: list[str]) -> int:
    written = compile_all(force="--force" in argv)
    print(f"compiled {len(written)} message catalogue(s)" if written
          else "message catalogues up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
