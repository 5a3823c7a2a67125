"""The web app's icons (the manifest's PNGs), drawn here in pure Python: a board of nine discs
in the client's palette on the header's dark blue.

``python -m games.web.icons`` writes them to ``static/boardpost/icons/``. Two kinds:

- ``icon-<size>.png`` ("any"): a rounded square with transparent corners;
- ``maskable-<size>.png`` ("maskable"): the dark blue to every edge, the discs inside the
  central circle of 80 % of the size that every launcher's mask keeps (the safe zone of the
  W3C manifest specification).

Edges are anti-aliased from each shape's distance to the pixel's centre, so no image library is
needed and the output is the same on every machine.
"""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

ICONS_DIR = Path(__file__).resolve().parent / "static" / "boardpost" / "icons"
SIZES = (192, 512)

# The client's palette (style.css): the header's blue behind, the accent, go and warn colours
# and the page's light grey for the discs.
BACKGROUND = (0x18, 0x20, 0x2F)
DISCS = (
    (0x8F, 0xB3, 0xFF), (0xF4, 0xF5, 0xF8), (0x1A, 0x56, 0xDB),
    (0xF4, 0xF5, 0xF8), (0x4C, 0xC3, 0x80), (0xF4, 0xF5, 0xF8),
    (0x1A, 0x56, 0xDB), (0xF4, 0xF5, 0xF8), (0xE8, 0xB3, 0x39),
)

Colour = tuple[int, int, int]


def _coverage(distance: float) -> float:
    """How much of a pixel a shape covers, from the signed distance of the pixel's centre to
    the shape's edge (negative inside)."""
    return min(1.0, max(0.0, 0.5 - distance))


def _rounded_square(x: float, y: float, size: float, radius: float) -> float:
    """Signed distance from (x, y) to a square of side ``size`` at the origin with corners of
    ``radius``."""
    half = size / 2
    qx = abs(x - half) - (half - radius)
    qy = abs(y - half) - (half - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def _discs(size: int, maskable: bool) -> list[tuple[float, float, float, Colour]]:
    """The nine discs: (centre x, centre y, radius, colour)."""
    # The board spans 70 % of an "any" icon, 54 % of a maskable one (inside the safe circle).
    span = size * (0.54 if maskable else 0.70)
    step = span / 3
    start = (size - span) / 2 + step / 2
    radius = step * 0.4
    return [(start + step * (index % 3), start + step * (index // 3), radius, colour)
            for index, colour in enumerate(DISCS)]


def pixels(size: int, *, maskable: bool) -> Iterator[bytes]:
    """The icon's rows, RGBA, each with PNG's filter byte (0: none) first."""
    discs = _discs(size, maskable)
    for row in range(size):
        line = bytearray(b"\x00")
        y = row + 0.5
        for column in range(size):
            x = column + 0.5
            alpha = 1.0 if maskable else _coverage(
                _rounded_square(x, y, size, size * 0.22))
            red, green, blue = BACKGROUND
            for cx, cy, radius, colour in discs:
                if abs(x - cx) > radius + 1 or abs(y - cy) > radius + 1:
                    continue
                cover = _coverage(math.hypot(x - cx, y - cy) - radius)
                red = round(red + (colour[0] - red) * cover)
                green = round(green + (colour[1] - green) * cover)
                blue = round(blue + (colour[2] - blue) * cover)
            line += bytes((red, green, blue, round(alpha * 255)))
        yield bytes(line)


def png(size: int, *, maskable: bool) -> bytes:
    """The icon as a PNG file (8-bit RGBA, not interlaced)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    data = zlib.compress(b"".join(pixels(size, maskable=maskable)), 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data)
            + chunk(b"IEND", b""))


def icon_files() -> dict[str, tuple[int, str]]:
    """``{file name: (size, purpose)}`` of every icon, as the manifest lists them."""
    files = {}
    for size in SIZES:
        files[f"icon-{size}.png"] = (size, "any")
        files[f"maskable-{size}.png"] = (size, "maskable")
    return files


def write_icons(directory: Path = ICONS_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, purpose) in icon_files().items():
        path = directory / name
        path.write_bytes(png(size, maskable=purpose == "maskable"))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_icons():
        print(path)
