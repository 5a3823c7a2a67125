"""Golden playthroughs: recorded matches of every game, replayed step by step by
``tests/engines/test_playthroughs.py`` as a regression net for the pure engines.

One JSON file per match, under ``<game slug>/<name>.json``; :mod:`.replay` describes the format
and :mod:`.make` writes the files (``python -m tests.engines.playthroughs.make``).
"""
