"""Nimble for newcomers: presets, the options in players' words, rules-page pictures and a short
scripted first match (see ``games.kit.learn``)."""

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

SEED = "tutorial-9"

PRESETS = (
    Preset("first_game", gettext_noop("First game"),
           gettext_noop("Take turns, with four hand actions a turn: more room to dig for the "
                        "card you need."), {"mode": "turns", "budget": 4}, players=2),
    Preset("standard", gettext_noop("Standard"),
           gettext_noop("Take turns with three hand actions each (flip, return or recycle); "
                        "placing cards is free."), {"mode": "turns"}),
    Preset("race", gettext_noop("Race"),
           gettext_noop("The original real-time game: everyone acts at once. For players who "
                        "are all online together."), {"mode": "race"}),
)

OPTION_WORDS = {
    "mode": OptionWords(
        gettext_noop("How to play"),
        gettext_noop("Take turns (good for playing at your own pace) or race, everyone at "
                     "once, as the card game is played at a table."),
        {'"turns"': gettext_noop("Take turns"),
         '"race"': gettext_noop("Race: everyone at once")}),
    "budget": OptionWords(
        gettext_noop("Hand actions per turn"),
        gettext_noop("In turns: how many times you may flip, return or recycle in one turn. "
                     "Placing a card on a stack is always free.")),
    "ramp": OptionWords(
        gettext_noop("Shorter first turns (3-4 players)"),
        gettext_noop("In the first round, players later in the turn order get more hand "
                     "actions, to make up for moving later. Leave it empty: on with 3 or 4 "
                     "players."),
        {"true": gettext_noop("On"), "false": gettext_noop("Off")}),
    "two_player_finish_at": OptionWords(
        gettext_noop("Two players: win at"),
        gettext_noop("With two players you win as soon as you are down to this many cards "
                     "(Set and discard together)."),
        {"1": gettext_noop("1 card left (the printed rule)"),
         "0": gettext_noop("No cards left")}),
}


def _narrow(legal: Any, move: JSON) -> Any:
    """Only the suggested action stays legal."""
    if not isinstance(legal, list):
        return legal
    return [m for m in legal if m == move]


TUTORIAL = Tutorial(
    seed=SEED, players=2, names=(gettext_noop("You"), gettext_noop("Tutor")),
    intro=gettext_noop(
        "In Nimble every player has a Set of 30 cards, face down, and a discard pile, face up. "
        "Three stacks in the middle are shared. A card has a frame colour and a circle colour. "
        "You may put the top card of your discard on a stack when its frame colour is the "
        "circle colour of the stack's top card. Whoever gets rid of their cards first wins; "
        "with two players, you win when one card is left."),
    steps=(
        TutorialStep(
            gettext_noop("It is your turn, and you have three hand actions. Flip the top card "
                         "of your Set onto your discard pile (the Flip button, or the key F)."),
            {"action": "flip"},
            gettext_noop("You flipped a card with a red frame and a light blue circle.")),
        TutorialStep(
            gettext_noop("Look at the stacks: the top card of stack 2 has a red circle, and "
                         "your card has a red frame. Place it on stack 2 (click the stack, or "
                         "press 2). Placing is free: it costs no hand action."),
            {"action": "place", "stack": 1},
            gettext_noop("Placed! One card fewer. Stack 2 now shows a light blue circle.")),
        TutorialStep(gettext_noop("Flip again."), {"action": "flip"},
                     gettext_noop("An orange frame: no stack shows an orange circle, so it "
                                  "cannot go anywhere now.")),
        TutorialStep(
            gettext_noop("You may put the top card of your discard back on your Set, face down "
                         "(Return, or the key R). It will be the next card you flip. That was "
                         "your third hand action, so your turn ends."),
            {"action": "return"},
            gettext_noop("Your opponent played their turn: three flips and two placements. The "
                         "stacks have changed."),
            ((1, {"action": "flip"}), (1, {"action": "flip"}), (1, {"action": "place",
                                                                   "stack": 2}),
             (1, {"action": "flip"}), (1, {"action": "place", "stack": 0}))),
        TutorialStep(
            gettext_noop("Your turn again. Flip: you get back the card you returned."),
            {"action": "flip"},
            gettext_noop("Still no orange circle on top of a stack.")),
        TutorialStep(
            gettext_noop("You do not have to use every hand action: end your turn (End turn, "
                         "or the key E). The actions you did not use are lost."),
            {"action": "end_turn"},
            gettext_noop("Your turn is over.")),
    ),
    end=gettext_noop(
        "That is Nimble. Remember which cards you buried in your discard: returning the cards "
        "above one lets you reach it again. If nobody can ever place again, the player with "
        "the fewest cards left wins. Try a match against a level-1 bot next."),
    narrow=_narrow,
)

LEARNING = Learning(
    presets=PRESETS,
    option_words=OPTION_WORDS,
    example_seed=SEED,
    example_players=2,
    examples=(
        Example("start", gettext_noop("The start of a two-player match: three start cards on "
                                      "the stacks; each player's Set face down, the discards "
                                      "still empty.")),
        Example("placed", gettext_noop("After a flip and a placement: the red-framed card went "
                                       "on the stack whose top circle was red."),
                moves=((0, {"action": "flip"}), (0, {"action": "place", "stack": 1}))),
    ),
    tutorial=TUTORIAL,
)
