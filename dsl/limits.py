"""The sizes the language and its files are held to, in one place (README, "Robustness", lists them).

A game's numbers are whole numbers of at most `MAX_INT_DIGITS` digits, written in a file (a `.wish` literal, a
scenario's or a save's value) or reached while a game runs; larger ones are errors that name where they are.
"""
MAX_INT_DIGITS = 15
MAX_INT = 10 ** MAX_INT_DIGITS - 1  # 999,999,999,999,999
MAX_SIZE = 100_000  # items of a list, characters of a text, that an assignment may store
MAX_SOURCE = 500_000  # characters of a game file (bytes read: four times as many); Wish has about 70,000
MAX_CARDS = 10_000  # card instances in a game, all card tables together (Wish has 70)
MAX_WEIGHT = 10_000  # percent: a heuristic's estimate counts at most a hundred times its value, either way


def too_many_digits(text: str) -> int:
    """How many digits a written whole number has beyond the limit allows (0: it is within the limit)."""
    digits = len(text.lstrip("+-").replace("_", "").lstrip("0"))
    return digits if digits > MAX_INT_DIGITS else 0


def number_too_long(digits: int) -> str:
    return f"this number has {digits:,} digits; a game's numbers have at most {MAX_INT_DIGITS} ({MAX_INT:,})"


class TooLarge(Exception):
    """A file holds more than the bytes allowed for it."""


def read_text(path, limit: int) -> str:
    """A UTF-8 text file of at most `limit` bytes, with its line ends as Python's text mode reads them. At most
    `limit` + 1 bytes are ever read, so a device or a pipe that never ends (/dev/zero) cannot exhaust memory;
    raises TooLarge beyond the limit, OSError or UnicodeDecodeError (its `object` holds the bytes read)."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(f"more than {limit:,} bytes")
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
