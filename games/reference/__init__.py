"""Reference opponents for measuring the bots: independent players that share no code with the
engines or the bots (an import-linter contract keeps it so)."""
