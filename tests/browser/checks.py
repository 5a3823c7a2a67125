"""Checks the browser tests make on a page: how much wider than the screen it is, and what
axe-core finds."""

from __future__ import annotations

from typing import Any

# The phone widths the pages are checked at.
PHONE = {"width": 360, "height": 780}
PHONE_390 = {"width": 390, "height": 844}


def overflow(page, width: int) -> int:
    """How much wider than the screen the page is. Against the viewport's own width: a phone
    (is_mobile) zooms a too-wide page out, and its innerWidth then grows with the page."""
    return page.evaluate("""width => Math.max(document.documentElement.scrollWidth,
        window.innerWidth) - width""", width)


def axe_violations(page, axe_source: str, options: dict[str, Any] | None = None) -> list[dict]:
    """axe-core's violations on the page (its rule, impact and first three nodes), injected
    once."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(content=axe_source)
    return page.evaluate("""async (options) => {
        const result = await window.axe.run(document, options);
        return result.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
    }""", {"resultTypes": ["violations"], **(options or {})})
