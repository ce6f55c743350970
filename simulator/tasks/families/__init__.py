"""Task families: each module registers the generators (and oracles) of a few task types."""
