"""Live updates: long-poll views, the Redis wake-up hub, and the ASGI wiring."""
