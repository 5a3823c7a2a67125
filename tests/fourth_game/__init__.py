"""A fourth game, Nim, that lives only here: the proof that adding a game to the server takes
one package and one ``register`` call, and nothing else."""
