"""The bare floors: the least the frameworks can do for a move and for a long-poll wake-up.

* ``settings``, ``urls``, ``views``, ``wsgi``: a Django project of its own (no project app,
  setting or middleware) with one DRF view that records a move in raw SQL, for
  ``bench_api --bare``;
* ``longpoll``: a plain ASGI app that keeps matches, feeds and their waiters in memory, for
  ``bench_longpoll --floor``.

Nothing here is served by the project; only the benchmarks start these apps.
"""
