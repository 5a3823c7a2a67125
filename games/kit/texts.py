"""A game's player-facing texts, as pure data: its name, the rule each illegal move's code
stands for, its fixed engine messages and what its bot levels are measured to do.

A game package declares them in ``games/<game>/texts.py`` and hands them to its
:class:`games.kit.registry.GameSpec`; the server reads them from the registry and puts them in
the caller's language where it answers (``games.rules_text``, ``games.services.bots``).

Every text is English and marked with :func:`games.kit.learn.gettext_noop`, so the server's
message catalogues hold its translations while the game package stays free of Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Texts:
    """What players read of one game, in English.

    ``name``: the game's name as players read it (empty: the engine's ``name`` as it is).
    ``rules``: by rule code (``<slug>.<rule>``, the ``rule`` of an ``IllegalMove``), what the
    player is told. ``messages``: the engine's fixed messages (an error's English message with
    no value in it), looked up in the catalogues as they are; a message the kit itself raises
    (``games.kit.protocol``) need not be listed. ``strength``: by bot level, a sentence on what
    the level was measured to do, added to its bot account's description."""

    name: str = ""
    rules: Mapping[str, str] = field(default_factory=dict)
    messages: tuple[str, ...] = ()
    strength: Mapping[int, str] = field(default_factory=dict)
