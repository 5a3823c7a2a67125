"""Nimble for newcomers: presets, the options in players' words, rules-page pictures and a short
scripted first match (see ``games.kit.learn``)."""

from __future__ import annotations

from typing import Any

from games.kit.learn import Example, Learning, OptionWords, Preset, Tutorial, TutorialStep
from games.kit.protocol import JSON

SEED = "tutorial-9"

PRESETS = (
    Preset("first_game", "First game",
           "Take turns, with four hand actions a turn: more room to dig for the card you "
           "need.", {"mode": "turns", "budget": 4}, players=2),
    Preset("standard", "Standard",
           "Take turns with three hand actions each (flip, return or recycle); placing cards "
           "is free.", {"mode": "turns"}),
    Preset("race", "Race",
           "The original real-time game: everyone acts at once. For players who are all "
           "online together.", {"mode": "race"}),
)

OPTION_WORDS = {
    "mode": OptionWords(
        "How to play",
        "Take turns (good for playing at your own pace) or race, everyone at once, as the "
        "card game is played at a table.",
        {'"turns"': "Take turns", '"race"': "Race: everyone at once"}),
    "budget": OptionWords(
        "Hand actions per turn",
        "In turns: how many times you may flip, return or recycle in one turn. Placing a card "
        "on a stack is always free."),
    "ramp": OptionWords(
        "Shorter first turns (3-4 players)",
        "In the first round, players later in the turn order get more hand actions, to make "
        "up for moving later. Leave it empty: on with 3 or 4 players.",
        {"true": "On", "false": "Off"}),
    "two_player_finish_at": OptionWords(
        "Two players: win at",
        "With two players you win as soon as you are down to this many cards (Set and "
        "discard together).",
        {"1": "1 card left (the printed rule)", "0": "No cards left"}),
}


def _narrow(legal: Any, move: JSON) -> Any:
    """Only the suggested action stays legal."""
    if not isinstance(legal, list):
        return legal
    return [m for m in legal if m == move]


TUTORIAL = Tutorial(
    seed=SEED, players=2, names=("You", "Tutor"),
    intro=(
        "In Nimble every player has a Set of 30 cards, face down, and a discard pile, face up. "
        "Three stacks in the middle are shared. A card has a frame colour and a circle colour. "
        "You may put the top card of your discard on a stack when its frame colour is the "
        "circle colour of the stack's top card. Whoever gets rid of their cards first wins; "
        "with two players, you win when one card is left."),
    steps=(
        TutorialStep(
            "It is your turn, and you have three hand actions. Flip the top card of your Set "
            "onto your discard pile (the Flip button, or the key F).",
            {"action": "flip"},
            "You flipped a card with a red frame and a light blue circle."),
        TutorialStep(
            "Look at the stacks: the top card of stack 2 has a red circle, and your card has a "
            "red frame. Place it on stack 2 (click the stack, or press 2). Placing is free: it "
            "costs no hand action.",
            {"action": "place", "stack": 1},
            "Placed! One card fewer. Stack 2 now shows a light blue circle."),
        TutorialStep("Flip again.", {"action": "flip"},
                     "An orange frame: no stack shows an orange circle, so it cannot go "
                     "anywhere now."),
        TutorialStep(
            "You may put the top card of your discard back on your Set, face down (Return, or "
            "the key R). It will be the next card you flip. That was your third hand action, "
            "so your turn ends.",
            {"action": "return"},
            "Your opponent played their turn: three flips and two placements. The stacks have "
            "changed.",
            ((1, {"action": "flip"}), (1, {"action": "flip"}), (1, {"action": "place",
                                                                   "stack": 2}),
             (1, {"action": "flip"}), (1, {"action": "place", "stack": 0}))),
        TutorialStep(
            "Your turn again. Flip: you get back the card you returned.",
            {"action": "flip"},
            "Still no orange circle on top of a stack."),
        TutorialStep(
            "You do not have to use every hand action: end your turn (End turn, or the key E). "
            "The actions you did not use are lost.",
            {"action": "end_turn"},
            "Your turn is over."),
    ),
    end=(
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
        Example("start", "The start of a two-player match: three start cards on the stacks; "
                         "each player's Set face down, the discards still empty."),
        Example("placed", "After a flip and a placement: the red-framed card went on the "
                          "stack whose top circle was red.",
                moves=((0, {"action": "flip"}), (0, {"action": "place", "stack": 1}))),
    ),
    tutorial=TUTORIAL,
)
