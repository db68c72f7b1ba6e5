"""Rule cheat-sheets generated from a game's source (see issue 5)."""
