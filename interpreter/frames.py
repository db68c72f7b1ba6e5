"""Frames of the effect stack: which compiled block runs, where it resumes, its locals, and what kind it is."""
from __future__ import annotations

import enum

MODULE_NAME = "<wishdsl rules>"  # the file name of the compiled rules in Python's frames and tracebacks


class FrameKind(enum.IntEnum):
    """What a frame runs, and so what its `data` holds."""

    BLOCK = 0  # a procedure, setup, play, an Instant ability; data: None
    ACTION = 1  # an action a player took; data: the action's name
    TRIGGER = 2  # a rule or Ongoing ability reacting to an event; data: the trigger's index


class Frame:
    """One entry of the effect stack: code block `code` resumes at segment `pc`, with the locals `env` (shared
    by the frames of one activation: a procedure call, an action, a trigger) and how deep in a chain of
    triggers it runs (`depth`)."""

    __slots__ = ("code", "pc", "env", "kind", "data", "depth")

    def __init__(self, code: int, env: dict, kind: FrameKind, data=None, depth: int = 0, pc: int = 0):
        self.code = code
        self.pc = pc
        self.env = env
        self.kind = kind
        self.data = data
        self.depth = depth
