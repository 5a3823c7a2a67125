"""Print a new VAPID key pair for Web Push, as environment lines (or keep one in a file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from games.notify.push import generate_keys


class Command(BaseCommand):
    help = "Generate a VAPID key pair (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY) for Web Push."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--keep", metavar="FILE", help=(
            "Write the pair to FILE (JSON) unless FILE exists already; print nothing."))

    def handle(self, *args: Any, keep: str | None = None, **options: Any) -> None:
        if keep:
            path = Path(keep)
            if path.exists():
                return
            public, private = generate_keys()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"public": public, "private": private}))
            path.chmod(0o600)
            return
        public, private = generate_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}\n")
