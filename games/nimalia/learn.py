"""Nimalia for newcomers: presets, the options in players' words, rules-page pictures and a
short scripted first match (see ``games.kit.learn``)."""

from __future__ import annotations

from typing import Any

from games.kit.learn import (
    Example,
    Learning,
    OptionWords,
    Preset,
    Tutorial,
    TutorialStep,
    gettext_noop,
)
from games.kit.protocol import JSON

SEED = "tutorial"
CONFIG = {"objectives": "first_game"}

PRESETS = (
    Preset("first_game", gettext_noop("First game"),
           gettext_noop("The four objectives the game suggests for a first game, over 5 "
                        "rounds."),
           {"objectives": "first_game"}),
    Preset("quick", gettext_noop("Quick"), gettext_noop("4 rounds with easier objectives."),
           {"rounds": 4, "objectives": "easy"}),
    Preset("standard", gettext_noop("Standard"),
           gettext_noop("5 rounds, four objectives drawn at random."), {}),
    Preset("challenge", gettext_noop("Challenge"),
           gettext_noop("5 rounds with harder objectives."),
           {"objectives": "hard"}),
)

OPTION_WORDS = {
    "rounds": OptionWords(
        gettext_noop("Length"),
        gettext_noop("The published game has 5 rounds; 4 rounds is a shorter game."),
        {"5": gettext_noop("5 rounds (full game)"), "4": gettext_noop("4 rounds (shorter)")}),
    "objectives": OptionWords(
        gettext_noop("Objectives"),
        gettext_noop("Which four objectives score points: one of each colour. Advanced: a list "
                     "of four objective numbers, such as [4, 5, 19, 16]."),
        {'"random"': gettext_noop("Drawn at random"), '"easy"': gettext_noop("Easier ones"),
         '"hard"': gettext_noop("Harder ones"),
         '"first_game"': gettext_noop("The first-game set")}),
    "tie_break": OptionWords(
        gettext_noop("Tie-break"),
        gettext_noop("Who wins when the totals are equal. Still tied: the place is shared."),
        {'"most_of_one_species"': gettext_noop("Most animals of one kind"),
         '"fewest_covered_squares"': gettext_noop("Fewest squares covered by later cards")}),
}


def _narrow(legal: Any, move: JSON) -> Any:
    """Only the suggested card, rotation and top-left square stay legal."""
    if not isinstance(legal, dict) or "card" not in move:
        return legal
    return {"undo": False, "cards": [move["card"]], "rotations": [move["rotation"]],
            "anchors": [[move["row"], move["col"]]]}


TUTORIAL = Tutorial(
    seed=SEED, players=2, config=CONFIG, names=(gettext_noop("You"), gettext_noop("Tutor")),
    intro=gettext_noop(
        "In Nimalia everyone builds an animal reserve from cards of 2 by 2 squares. Each "
        "round you get three cards; every turn everyone places one card at the same time, "
        "then passes the rest of their hand on. At the end of each round some of the four "
        "objectives score points (the round card tells which). After 5 rounds the highest "
        "total wins. In round 1 the blue and the green objective score: 'largest savannah' "
        "(2 points per square of your biggest savannah) and 'lone penguins' (3 points for "
        "each column with exactly one penguin)."),
    steps=(
        TutorialStep(
            gettext_noop("Your first card may go anywhere. Pick card #28 in your hand (a lion "
                         "and an otter on savannah, a penguin on ice, a crocodile on a lake), "
                         "then click the marked square of your reserve."),
            {"card": 28, "row": 0, "col": 0, "rotation": 0},
            gettext_noop("Both of you placed, so the cards were revealed together. Then the "
                         "hands were passed: you now hold your opponent's two other cards."),
            ((1, {"card": 17, "row": 0, "col": 0, "rotation": 0}),)),
        TutorialStep(
            gettext_noop("Every later card must cover at least one square of your reserve, and "
                         "the reserve may never grow beyond 6 by 6. Pick card #34 and put its "
                         "top-left square on the marked square, above and to the right of your "
                         "first card: its savannah squares join your savannah."),
            {"card": 34, "row": -1, "col": 1, "rotation": 0},
            gettext_noop("Covered squares no longer count: only what you see scores. Hands "
                         "passed again."),
            ((1, {"card": 27, "row": -1, "col": -1, "rotation": 0}),)),
        TutorialStep(
            gettext_noop("Last card of the round: pick card #48 and place it on the marked "
                         "square. After this third turn, the round is scored."),
            {"card": 48, "row": -2, "col": 2, "rotation": 0},
            gettext_noop("Round 1 is scored: the blue and the green objective counted your "
                         "visible squares. You lead 10 to 5."),
            ((1, {"card": 31, "row": -2, "col": -2, "rotation": 0}), (None, None))),
    ),
    end=gettext_noop(
        "That is a round of Nimalia. Four more rounds follow, each with other objectives "
        "(rounds 2 and 4 pass hands the other way). You can turn a card before placing it "
        "(the R key), and take your card back until everyone has placed. Try a match against "
        "a level-1 bot next."),
    narrow=_narrow,
)

LEARNING = Learning(
    presets=PRESETS,
    option_words=OPTION_WORDS,
    example_seed=SEED,
    example_players=2,
    example_config=CONFIG,
    examples=(
        Example("round1", gettext_noop("After round 1, seen by seat 1: two reserves of three "
                                       "cards each, the four objectives and the first round's "
                                       "scores."),
                moves=((0, {"card": 28, "row": 0, "col": 0, "rotation": 0}),
                       (1, {"card": 17, "row": 0, "col": 0, "rotation": 0}),
                       (0, {"card": 34, "row": -1, "col": 1, "rotation": 0}),
                       (1, {"card": 27, "row": -1, "col": -1, "rotation": 0}),
                       (0, {"card": 48, "row": -2, "col": 2, "rotation": 0}),
                       (1, {"card": 31, "row": -2, "col": -2, "rotation": 0}),
                       (None, None))),
    ),
    tutorial=TUTORIAL,
)
