"""The pure toolkit every game is built on: the engine protocol, the game registry, and the
helpers shared by bots, renderers and benchmarks. Nothing here imports Django, DRF or Celery."""
