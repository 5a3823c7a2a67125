"""Benchmark commands (``make bench``, ``bench-api``, ``bench-sweep``, ``bench-longpoll``):
tooling kept apart from the server's request path."""
