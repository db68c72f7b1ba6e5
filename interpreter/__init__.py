"""The wishdsl engine: compile a checked game and run it. Public API as in docs/design.md.

Names load on first use, so that `wishdsl check` does not pay for the engine.
"""
from importlib import import_module

from dsl.errors import IllegalAction, WishCheckError, WishError, WishRuntimeError, WishSyntaxError

from . import native

native.guard()  # before any engine module loads: none runs compiled from a source changed since (native.py)

_LAZY = {
    "Action": ".engine",
    "State": ".engine",
    "Game": ".game",
    "load_game": ".game",
    "load_source": ".game",
    "check_program": "dsl.front",
}

__all__ = [
    "Action", "Game", "IllegalAction", "State", "WishCheckError", "WishError", "WishRuntimeError",
    "WishSyntaxError", "check_program", "load_game", "load_source",
]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(import_module(module, __name__), name)
    globals()[name] = value
    return value
