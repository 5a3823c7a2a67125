"""What the page tests check on a page: how far it is wider than its viewport, and what
axe-core finds."""

from __future__ import annotations


def overflow(page, viewport: dict) -> int:
    """How many pixels the page is wider than ``viewport``."""
    return page.evaluate("""width => Math.max(document.documentElement.scrollWidth,
        window.innerWidth) - width""", viewport["width"])


def axe_violations(page, axe_source: str) -> list[dict]:
    """axe-core's violations on the page: each rule's id, impact and first three nodes."""
    page.add_script_tag(content=axe_source)
    return page.evaluate("""async () => {
        const result = await window.axe.run(document, {resultTypes: ['violations']});
        return result.violations.map((v) => ({id: v.id, impact: v.impact,
            nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
    }""")
