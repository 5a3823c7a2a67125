"""Correspondence time as pure arithmetic: time controls, pauses, seat clocks, vacation banks.

One place computes time: the deadline sweep, the match view, reminders and auto-vacation all
turn a match's clock state and its seats' calendars into time left and deadlines here. Nothing
here reads the clock of the machine: every function is given ``now``. Standard library only
(``datetime``, ``zoneinfo``, ``dataclasses``); see README.md for the model.

- ``control``: the time control of a match (per move or a bank, weekend pause, vacations).
- ``calendar``: running time between two instants given weekends and vacations.
- ``clock``: each seat's clock, its transitions and the questions asked of it.
- ``vacation``: a player's vacation bank.
- ``errors``: the coded errors; ``instants``: whole-second instants.
"""
