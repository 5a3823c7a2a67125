"""The HTTP API of the games app: thin DRF views and the response shapes."""
