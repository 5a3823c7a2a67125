"""The reference web client: static ES modules, one page template, and the view that serves it."""
