"""A tiny SVG writer: escaped text and attributes, a few shapes, and the document wrapper.

Everything a renderer draws goes through these functions, so every piece of text that reaches
the picture (usernames, objective names) is escaped once, here. Output is deterministic: the
same view always gives the same bytes, which keeps ETags and tests honest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#1a1a1a"  # the default text colour

# Characters XML 1.0 does not allow at all, even escaped.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def esc(value: object) -> str:
    """``value`` as XML text or attribute content: escaped, and without characters XML forbids."""
    text = _NOT_XML.sub("\ufffd", str(value))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def num(value: float) -> str:
    """A coordinate without float noise: ``12`` rather than ``12.0``, at most 2 decimals."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attrs(**values: object) -> str:
    """Attributes from keywords: ``font_size`` is written ``font-size``, ``class_`` ``class``;
    ``None`` leaves the attribute out."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = num(value) if isinstance(value, int | float) and not isinstance(value, bool) \
            else esc(value)
        parts.append(f' {name}="{text}"')
    return "".join(parts)


def el(tag: str, content: str | Iterable[str] | None = None, /, **values: object) -> str:
    """An element; ``content`` is markup already (use :func:`esc` or :func:`text` for text)."""
    if content is None:
        return f"<{tag}{attrs(**values)}/>"
    if not isinstance(content, str):
        content = "".join(content)
    return f"<{tag}{attrs(**values)}>{content}</{tag}>"


def group(children: Iterable[str], *, label: str | None = None, **values: object) -> str:
    """A ``<g>``; ``label`` becomes its ``<title>``, which screen readers and tooltips show."""
    inner = ([el("title", esc(label))] if label else []) + list(children)
    return el("g", inner, **values)


def rect(x: float, y: float, width: float, height: float, **values: object) -> str:
    return el("rect", x=x, y=y, width=width, height=height, **values)


def circle(cx: float, cy: float, r: float, **values: object) -> str:
    return el("circle", cx=cx, cy=cy, r=r, **values)


def line(x1: float, y1: float, x2: float, y2: float, **values: object) -> str:
    return el("line", x1=x1, y1=y1, x2=x2, y2=y2, **values)


def text(x: float, y: float, content: object, /, *, size: float = 14, anchor: str = "start",
         weight: str | None = None, fill: str = INK, **values: object) -> str:
    """Text whose baseline is at ``y``; ``content`` is plain text and is escaped here."""
    return el("text", esc(content), x=x, y=y, font_size=size, text_anchor=anchor,
              font_weight=weight, fill=fill, **values)


def centred(x: float, y: float, content: object, /, *, size: float = 14,
            weight: str | None = None, fill: str = INK, **values: object) -> str:
    """Text centred on the point (x, y), horizontally and vertically."""
    return text(x, y, content, size=size, anchor="middle", weight=weight, fill=fill,
                dominant_baseline="central", **values)


def document(*, width: float, height: float, title: str, desc: str, body: Iterable[str],
             defs: Iterable[str] = (), background: str = "#fbfaf7") -> str:
    """The whole SVG: an accessible ``<title>`` and ``<desc>``, the shared ``<defs>``, a
    background, then ``body``."""
    defs = list(defs)
    head = (f'<svg xmlns="{SVG_NS}" version="1.1" width="{num(width)}" height="{num(height)}"'
            f' viewBox="0 0 {num(width)} {num(height)}" role="img"'
            f' aria-labelledby="board-title board-desc" font-family="{esc(FONT)}">')
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        head,
        el("title", esc(title), id="board-title"),
        el("desc", esc(desc), id="board-desc"),
    ]
    if defs:
        parts.append(el("defs", defs))
    parts.append(rect(0, 0, width, height, fill=background))
    parts.extend(body)
    parts.append("</svg>\n")
    return "".join(parts)
