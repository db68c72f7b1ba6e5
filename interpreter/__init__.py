"""The wishdsl engine: compile a checked game and run it. Public API as in DESIGN.md."""
from dsl.errors import IllegalAction, WishCheckError, WishError, WishRuntimeError, WishSyntaxError

from .engine import Action, State
from .game import Game, check_program, load_game, load_source

__all__ = [
    "Action", "Game", "IllegalAction", "State", "WishCheckError", "WishError", "WishRuntimeError",
    "WishSyntaxError", "check_program", "load_game", "load_source",
]
