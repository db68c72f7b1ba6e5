"""Scenario files: YAML read safely (a size limit, whole numbers held to the game's limit, aliases counted), one
scenario or a `scenarios:` list with the file's inherited keys, and unknown keys refused with a did-you-mean.
The format is described in wishdsl/scenario.py and games/scenarios/README.md."""
from __future__ import annotations

from pathlib import Path

import yaml

from dsl.limits import TooLarge, number_too_long, read_text, too_many_digits

from . import scenario_values as V

MAX_BYTES = 1_000_000
MAX_NODES = 100_000
SCENARIO_KEYS = ("name", "game", "variant", "players", "seed", "given", "do", "expect")
FILE_KEYS = ("game", "variant", "players", "seed", "scenarios")
INHERITED = ("game", "variant", "players", "seed")
fail = V.fail


def scenario_files(path) -> list:
    p = Path(path)
    if p.is_dir():
        return sorted(str(f) for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
    return [str(p)] if p.is_file() else []


def load_specs(path: str) -> list:
    """The scenarios of a file as mappings, with inherited keys and names filled in."""
    doc = load_yaml(path)
    stem = Path(path).stem
    if not isinstance(doc, dict):
        fail("a scenario file holds a mapping (game:, players:, do:, expect: …)")
    if "scenarios" not in doc:
        check_keys(doc, SCENARIO_KEYS, "the scenario")
        return [dict(doc, name=str(doc.get("name", stem)))]
    check_keys(doc, FILE_KEYS, "the file (with `scenarios:`)")
    items = doc["scenarios"]
    if not isinstance(items, list) or not items:
        fail("`scenarios:` must be a non-empty list of scenarios")
    specs = []
    for i, item in enumerate(items, 1):
        if not isinstance(item, dict):
            fail(f"scenario {i}: expected a mapping, got {item!r}")
        check_keys(item, SCENARIO_KEYS, f"scenario {i}")
        spec = {k: doc[k] for k in INHERITED if k in doc}
        spec.update(item)
        spec["name"] = str(item.get("name", f"{stem} #{i}"))
        specs.append(spec)
    return specs


def load_yaml(path: str):
    try:
        text = read_text(path, MAX_BYTES)
    except TooLarge:
        fail(f"the file is larger than {MAX_BYTES // 1_000_000} MB; scenarios are small")
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read the file: {err}")
    try:
        doc = _load(text)
    except yaml.constructor.ConstructorError as err:
        fail(f"a value{yaml_where(err)}")
    except yaml.YAMLError as err:
        fail(f"this is not valid YAML{yaml_where(err)}")
    except RecursionError:
        fail("the YAML is nested too deeply")
    if count_nodes(doc) > MAX_NODES:
        fail(f"the document has more than {MAX_NODES} values (are aliases repeating a large part?)")
    return doc


class Loader(yaml.SafeLoader):
    """YAML's safe loader, with whole numbers held to the game's limit (a 5,000-digit `seed` is an error at its
    place, not Python's conversion limit)."""


def _construct_int(loader, node):
    digits = too_many_digits(str(node.value))
    if digits:
        raise yaml.constructor.ConstructorError(None, None, number_too_long(digits), node.start_mark)
    return yaml.SafeLoader.construct_yaml_int(loader, node)


Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


if getattr(yaml, "CSafeLoader", None) is not None:  # PyYAML built with libyaml (its wheels are)
    class FastLoader(yaml.CSafeLoader):
        """The same safe loader on libyaml's parser (several times faster; nesting capped at 1,000 levels)."""

    FastLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
else:
    FastLoader = None


def _load(text: str):
    """The document, read by libyaml where PyYAML has it; a text it refuses is read again by the pure-Python
    loader, whose messages (and places) are the ones the user sees."""
    if FastLoader is not None:
        try:
            return yaml.load(text, Loader=FastLoader)
        except (yaml.YAMLError, RecursionError):
            pass
    return yaml.load(text, Loader=Loader)


def yaml_where(err) -> str:
    mark = getattr(err, "problem_mark", None)
    at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    what = " ".join(filter(None, [getattr(err, "context", None), getattr(err, "problem", None)]))
    return f"{at}: {what or err}"


def count_nodes(doc, limit: int = MAX_NODES) -> int:
    """Values in the loaded structure, counting shared (aliased) parts each time; stops past `limit`."""
    stack, n = [doc], 0
    while stack and n <= limit:
        x = stack.pop()
        n += 1
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return n


def check_keys(data: dict, allowed, what: str, players: bool = False) -> None:
    """Refuse unknown keys, with a did-you-mean; `players` also allows "player N" keys."""
    for key in data:
        if key not in allowed and not (players and V.is_player_key(key)):
            known = ", ".join(list(allowed) + (["player N"] if players else []))
            fail(V.hinted(f"{what}: unknown key {key!r}; known keys: {known}", key, allowed))
