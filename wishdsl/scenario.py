"""Rule scenarios: rules tests written in YAML, no Python. `run_paths`, `run_file`, `ScenarioResult`.

A file holds one scenario (a mapping) or several (`scenarios:` list; each inherits the file's top-level
`game`, `variant`, `players` and `seed`)::

    name: the rulebook example        # optional; defaults to the file name
    game: ../../wunschmaschine.wish   # relative to the scenario file
    variant: Left-Right               # optional
    players: 4                        # optional; defaults to the game's smallest player count
    seed: 1                           # optional; defaults to 0
    given:                            # fixtures applied right after set-up: no events, no log
      supply: 3                       # a shared variable
      player 2: {coins: 4, hand: ["X"]}   # a player's variables and zones ("player N", 1-based)
      deck: ["Heart", "Pig"]          # these cards (by name) on top of that zone, in this order
      waiting: {volcano: {red: 1}}    # a keyed variable: {key: value}
    do:                               # steps, in order
      - player 1: wish for "Heart"    # a decision: that player takes the option with this label
      - {player 2: wait, player 3: slap}  # several decisions, in order
      - arrange: {deck: ["Pig", "Moped"]} # the zone form of `given`, at this point
      - set: {player 3: {coins: 0}}   # the variable form of `given`, at this point
      - expect: {supply: 20}          # checks at this point (the keys of the final `expect`)
      - expect: {before_log: "Round 2", round: 1}   # …on the state just before (after_log: after) the first
                                      # log line with this text was written while the step before ran
      - illegal: {player 1: "guess pig", reason: "not an option"}  # must be refused; reason: a substring
      - illegal: {player 1: "travel forest, *"}  # with "*": some option matches, and every one that does is refused
    expect:                           # checks at the end
      supply: 19                      # a shared variable ({member: n} checks only those members of a bag)
      player 2: {coins: 1}            # a player's variables and zones
      table: ["Pig", "Moped"]         # the card names in a zone, top first; or {count, includes, excludes}
      announcements: ["Yes", "No"]    # every announcement so far, as rendered
      over: true
      winners: [player 2]
      scores: [0, 1, 0, 0]
      to_move: [player 3]
      options: {player 2: ["slap", "wait"]}   # labels offered now; or {count, includes, excludes} ("*": any text)
      log: ["guessed right"]          # each must appear in some line of the full log
      log_count: {"guessed": 1}       # how many log lines contain the text
      log_order: ["slaps", "guessed"] # each in a line after the line of the one before
      sees: {player 1: {centre: ["?", "Flight"], hand of player 2: ["?", "?", "?"]}}
                                      # a zone as that player's view shows it: names it knows, "?" for the others

Values follow the variable's type: "player N", enum member names, card names, lists, {member: n} for a bag
(replaced whole by a fixture, checked member by member by `expect`), null for none. The check names win over a
game variable of the same name. Arranged cards come from the target zone first, then from anywhere else. The
game's declared invariants must hold after `given` and after every step. A failure names the step, the key,
the expected and the actual value; a malformed file fails with a message, never a traceback.
See games/scenarios/README.md.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import attrs

from dsl.errors import IllegalAction, ScenarioError, WishError
from dsl.link import named_game
from interpreter.game import load_game
from interpreter.log import Entry
from interpreter.why import ExplainingState, explanation_lines
from interpreter.views import announcements

from . import scenario_moments as M
from . import scenario_values as V
from .scenario_files import check_keys, load_specs, scenario_files

STEP_KEYS = ("arrange", "set", "expect", "illegal")
CHECKS = ("announcements", "over", "winners", "scores", "to_move", "options", "log", "log_count", "log_order", "sees")
COLLECTION_KEYS = ("count", "includes", "excludes")
fail = V.fail


@attrs.define
class ScenarioResult:
    path: str
    name: str
    ok: bool
    message: str


# ---------------------------------------------------------------- files
def run_paths(paths: list) -> list:
    """Run every scenario in these files and directories (searched recursively for *.yaml, *.yml)."""
    out = []
    for p in paths:
        files = scenario_files(p)
        if not files:
            why = "no such file or directory" if not os.path.exists(p) else "no *.yaml or *.yml files here"
            out.append(ScenarioResult(str(p), Path(p).name, False, f"{p}: {why}"))
        for f in files:
            out.extend(run_file(f))
    return out


def run_file(path, index=None) -> list:
    """Run the scenarios of one file (only the `index`-th when given)."""
    path = str(path)
    try:
        specs = load_specs(path)
    except ScenarioError as err:
        return [ScenarioResult(path, Path(path).stem, False, f"{path}: {err}")]
    chosen = specs if index is None else specs[index:index + 1]
    return [run_spec(path, spec) for spec in chosen]


def scenario_names(path) -> list:
    """The names of a file's scenarios (the file name alone when it does not load)."""
    try:
        return [s["name"] for s in load_specs(str(path))]
    except ScenarioError:
        return [Path(path).stem]


# ---------------------------------------------------------------- running
def run_spec(path: str, spec: dict) -> ScenarioResult:
    """Run one scenario. A failed check is run again on a state that explains its log (`--why`): the same seed
    and steps give the same game, and the message then says which rules last changed what was checked."""
    name = spec["name"]
    try:
        Runner(path, spec).run()
    except ScenarioError as err:
        try:
            Runner(path, spec, explain=True).run()
        except ScenarioError as explained:
            err = explained
        except Exception:  # noqa: BLE001 - the first message stands
            pass
        return ScenarioResult(path, name, False, f"{name}: {err}")
    except WishError as err:
        return ScenarioResult(path, name, False, f"{name}: the game stopped with an error: {err}")
    except Exception as err:  # noqa: BLE001 - a scenario never ends in a traceback
        return ScenarioResult(path, name, False, f"{name}: internal error: {type(err).__name__}: {err}")
    return ScenarioResult(path, name, True, "ok")


class Runner:
    """One scenario: load the game, apply `given`, run the steps, check `expect`."""

    def __init__(self, path: str, spec: dict, explain: bool = False):
        self.path, self.spec, self.explain = path, spec, explain
        self.where = "after set-up"
        self.st = None

    def run(self) -> None:
        spec = self.spec
        self.st = self.start()
        if spec.get("given") is not None:
            V.apply_fixture(self.st, spec["given"], "given")
            self.st.repose()
            self.check_invariants("given")
        steps = spec.get("do") or []
        if not isinstance(steps, list):
            fail("`do:` must be a list of steps")
        self.moments, self.moment_step = {}, None
        final = spec.get("expect")
        ahead = steps + ([{"expect": final}] if isinstance(final, dict) else [])  # what `before_log` may name
        for i, step in enumerate(steps, 1):
            label = describe(step)
            if isinstance(step, dict) and list(step) == ["expect"]:
                self.step(step, f"step {i} ({label})")  # the moments of the step before stay readable
            else:
                self.moments = M.run_watching(self.st, M.watched(ahead, i - 1),
                                              lambda: self.step(step, f"step {i} ({label})"))
                self.moment_step = f"step {i} ({label})"
            self.check_invariants(f"step {i} ({label})")
            self.where = f"after step {i} ({label})"
        if isinstance(final, dict) and any(k in final for k in M.KEYS):
            self.check_moment(final, "at the end")
        elif final is not None:
            self.check(final, f"at the end, {self.where}")

    def start(self):
        spec = self.spec
        if "game" not in spec:
            fail("no game: add `game: path/to/game.wish` (relative to the scenario file)")
        try:
            game_path = named_game(self.path, V.text_of(spec["game"], "game"),
                                   "name a game file relative to the scenario file")
        except WishError as err:
            fail(str(err))
        variant = spec.get("variant")
        try:
            game = load_game(str(game_path), None if variant is None else V.text_of(variant, "variant"))
        except WishError as err:
            fail(f"the game {game_path} does not load: {error_text(err)}")
        players = V.int_of(spec.get("players", game.min_players), "players")
        seed = V.int_of(spec.get("seed", 0), "seed")
        try:
            if self.explain:
                return ExplainingState.start(game, players, seed)  # a failed check says why (`last_change`)
            return game.new_state(players, seed)
        except WishError as err:
            fail(f"the game cannot start: {err}")

    # ---------------------------------------------------------------- steps
    def step(self, step, where: str) -> None:
        st = self.st
        if not isinstance(step, dict) or not step:
            fail(f"{where}: a step is a mapping such as `player 1: wait` or `expect: {{…}}`")
        keys = list(step)
        if all(V.is_player_key(k) for k in keys):
            for key in keys:
                self.decide(key, step[key], where)
            return
        if len(keys) > 1:
            fail(f"{where}: one step does one thing; found keys {', '.join(map(str, keys))}")
        key, value = keys[0], step[keys[0]]
        if key not in STEP_KEYS:
            fail(V.hinted(f"{where}: unknown step {key!r}; steps: player N, {', '.join(STEP_KEYS)}", key, STEP_KEYS))
        if key == "arrange":
            V.apply_fixture(st, value, where, allow_vars=False)
            st.repose()
        elif key == "set":
            V.apply_fixture(st, value, where, allow_zones=False)
            st.repose()
        elif key == "expect":
            if isinstance(value, dict) and any(k in value for k in M.KEYS):
                self.check_moment(value, where)
            else:
                self.check(value, f"{where}, {self.where}")
        else:
            self.illegal(value, where)

    def decide(self, key, label, where: str) -> None:
        st = self.st
        seat = V.seat_of(st, key, where)
        label = V.text_of(label, where)
        if st.over:
            fail(f"{where}: the game is already over; no more decisions{self.tail()}")
        try:
            st.apply(label, player=seat)
        except IllegalAction as err:
            offered = "" if "options:" in err.reason else self.offered()
            fail(f"{where}: refused: {err.reason}{offered}{self.tail()}")
        except WishError as err:
            fail(f"{where}: the game stopped with an error: {err}{self.tail()}")

    def illegal(self, value, where: str) -> None:
        data = V.mapping_of(value, where)
        check_keys(data, ("reason",), where, players=True)
        players = [k for k in data if V.is_player_key(k)]
        if len(players) != 1:
            fail(f"{where}: name exactly one decision, e.g. {{player 1: \"guess pig\", reason: \"not an option\"}}")
        seat = V.seat_of(self.st, players[0], where)
        label = V.text_of(data[players[0]], where)
        reason = V.text_of(data["reason"], f"{where} reason") if "reason" in data else None
        if "*" in label:
            self.illegal_all(players[0], seat, label, reason, where)
            return
        try:
            self.st.apply(label, player=seat)
        except IllegalAction as err:
            if reason is not None and reason not in err.reason:
                fail(f"{where}: refused, but for another reason: expected a reason containing {reason!r}, "
                     f"got {err.reason!r}")
            return
        fail(f"{where}: {players[0]}: {label} was accepted, but it must be refused{self.tail()}")

    def illegal_all(self, key: str, seat: int, pattern: str, reason, where: str) -> None:
        """`illegal` with a `*` in the label: some option of the decision matches, and every one that does
        (actions their requirements refuse included) is refused, each for `reason` when one is given."""
        options = self.st.all_options(seat)
        found = matching(pattern, [lbl for lbl, _ in options], True)
        if not found:
            fail(f"{where}: {key}: no option matches {pattern!r}{self.offered()}")
        why = dict(options)
        for lbl in found:
            if why[lbl] is None:
                fail(f"{where}: {key}: {lbl} is offered, but everything matching {pattern!r} must be refused")
            if reason is not None and reason not in why[lbl]:
                fail(f"{where}: {lbl} is refused, but for another reason: expected a reason containing {reason!r}, "
                     f"got {why[lbl]!r}")

    def check_moment(self, expect: dict, where: str) -> None:
        """`expect` with `before_log` or `after_log`: the checks, on the state just before (after) the first log
        line containing that text was written while the step before ran."""
        keys = [k for k in M.KEYS if k in expect]
        if len(keys) > 1:
            fail(f"{where}: an expect names one moment: before_log or after_log, not both")
        key = keys[0]
        text = V.text_of(expect[key], f"{where} {key}")
        moment = self.moments.get((key, text))
        if moment is None:
            fail(f"{where}: {key}: no log line containing {text!r} was written during "
                 f"{self.moment_step or 'set-up'}{self.tail()}")
        st, self.st = self.st, moment
        try:
            self.check({k: v for k, v in expect.items() if k != key},
                       f"{where}, just {key.split('_')[0]} the log line {text!r}")
        finally:
            self.st = st

    def check_invariants(self, where: str) -> None:
        """The game's declared invariants (e.g. coins are conserved) must hold after every step."""
        broken = self.st.broken_invariants()
        if broken:
            fail(f"{where}: this breaks an invariant of the game: {'; '.join(broken)}{self.tail()}")

    def offered(self) -> str:
        st = self.st
        parts = [f"{st.player_name(p)}: {', '.join(a.label for a in st.legal_actions(p))}" for p in st.to_move]
        return "\n  waiting for " + "; ".join(parts) if parts else "\n  no decision is pending"

    def tail(self, n: int = 8) -> str:
        lines = self.st.log_lines()[-n:]
        return "\n  last log lines:\n    " + "\n    ".join(lines) if lines else ""

    # ---------------------------------------------------------------- checks
    def check(self, expect, where: str) -> None:
        problems = []
        for key, value in V.mapping_of(expect, f"{where}: expect").items():
            problems.extend(self.check_one(key, value))
        if problems:
            fail(f"{where}:\n  " + "\n  ".join(problems) + self.tail())

    def check_one(self, key, value) -> list:
        st = self.st
        if key in CHECKS:
            return getattr(self, f"check_{key}")(value)
        if V.is_player_key(key):
            seat = V.seat_of(st, key, "expect")
            out = []
            for name, v in V.mapping_of(value, f"expect {key}").items():
                out.extend(self.check_place(name, seat, v, f"{key} {name}"))
            return out
        g = st.game
        if (key not in g.gvar_index and key not in g.zone_base and key not in g.pvar_index
                and key not in g.pzone_index and key not in g.kvar_index):
            names = [*CHECKS, *g.gvar_index, *g.zone_base]
            fail(V.hinted(f"expect: unknown key {key!r}: not a check ({', '.join(CHECKS)}), "
                          "nor a shared variable or zone", key, names))
        return self.check_place(key, None, value, str(key))

    def check_place(self, name, seat, value, key: str) -> list:
        place = V.place_of(self.st, name, seat, f"expect {key}")
        problems = self.compare_place(place, seat, value, key)
        if problems:
            problems[-1] += last_change(self.st, place, seat)
        return problems

    def compare_place(self, place, seat, value, key: str) -> list:
        st = self.st
        if place[0] == "kvar":
            out = []
            info = place[2]
            for at, k, v in V.keyed_entries(st, place, value, f"expect {key}"):
                actual = st.kvars[place[1]][at]
                want = V.convert(st, v, info.ty, f"expect {key} {k}")
                if info.ty.kind == "bag" and isinstance(v, dict):
                    members = st.game.enum_members[info.ty.elem.name]
                    got = {m: actual[members.index(m)] for m in v}
                    if got != {m: want[members.index(m)] for m in v}:
                        out.append(f"{key}[{k}]: expected {st.render(want, info.ty)}, got {st.render(actual, info.ty)}")
                elif actual != want:
                    out.append(f"{key}[{k}]: expected {st.render(want, info.ty)}, got {st.render(actual, info.ty)}")
            return out
        if place[0] == "zone":
            names = [st.card_name(c) for c in st.zones[place[1]]]
            for n in expected_names(value):
                V.card_ids(st, n, f"expect {key}")
            return compare_collection(key, names, value)
        actual, ty = V.read_var(st, place, seat), place[2].ty
        if ty.kind == "bag" and isinstance(value, dict):
            want = V.bag_of(st.game, value, ty, key, partial=True)
            members = st.game.enum_members[ty.elem.name]
            got = {m: actual[members.index(m)] for m in want}
            return [] if got == want else [f"{key}: expected {want}, got {got}"]
        a, w = st.render(actual, ty), st.render(V.convert(st, value, ty, f"expect {key}"), ty)
        return [] if a == w else [f"{key}: expected {w}, got {a}"]

    def check_announcements(self, value) -> list:
        st = self.st
        got = [st.render(v, ty) for v, ty in announcements(st)]
        return compare_list("announcements", got, V.texts_of(value, "expect announcements"))

    def check_over(self, value) -> list:
        if not isinstance(value, bool):
            fail(f"expect over: expected true or false, got {value!r}")
        return [] if self.st.over == value else [f"over: expected {value}, got {self.st.over}"]

    def check_winners(self, value) -> list:
        return self.compare_players("winners", self.st.winners(), value)

    def check_to_move(self, value) -> list:
        return self.compare_players("to_move", self.st.to_move, value)

    def compare_players(self, key: str, actual, value) -> list:
        st = self.st
        if not isinstance(value, list):
            fail(f"expect {key}: expected a list such as [player 1], got {value!r}")
        want = sorted(V.seat_of(st, v, f"expect {key}") for v in value)
        return compare_list(key, [st.player_name(p) for p in sorted(actual)], [st.player_name(p) for p in want])

    def check_scores(self, value) -> list:
        if not isinstance(value, list):
            fail(f"expect scores: expected a list of numbers, got {value!r}")
        want = [V.int_of(v, "expect scores") for v in value]
        return compare_list("scores", self.st.scores(), want)

    def check_options(self, value) -> list:
        st = self.st
        out = []
        for key, v in V.mapping_of(value, "expect options").items():
            seat = V.seat_of(st, key, "expect options")
            labels = [a.label for a in st.legal_actions(seat)]
            out.extend(compare_collection(f"options of {key}", labels, v, patterns=True))
        return out

    def check_sees(self, value) -> list:
        """What a player's view shows of zones: the names of cards it knows, "?" for the others."""
        st = self.st
        out = []
        for key, zones in V.mapping_of(value, "expect sees").items():
            seat = V.seat_of(st, key, "expect sees")
            shown = {z["zone"]: [c.get("name", "?") for c in z["cards"]] for z in st.view(seat)["zones"]}
            for zone, want in V.mapping_of(zones, f"expect sees {key}").items():
                if zone not in shown:
                    fail(V.hinted(f"expect sees {key}: unknown zone {zone!r}", str(zone), list(shown)))
                out.extend(compare_list(f"{key} sees {zone}", shown[zone], V.texts_of(want, f"sees {zone}")))
        return out

    def check_log(self, value) -> list:
        lines = self.st.log_lines()
        return [f"log: no line contains {t!r}" for t in V.texts_of(value, "expect log")
                if not any(t in line for line in lines)]

    def check_log_order(self, value) -> list:
        return M.order_problems(self.st.log_lines(), V.texts_of(value, "expect log_order"))

    def check_log_count(self, value) -> list:
        lines = self.st.log_lines()
        out = []
        for text, n in V.mapping_of(value, "expect log_count").items():
            text, n = V.text_of(text, "expect log_count"), V.int_of(n, f"expect log_count {text}")
            got = sum(text in line for line in lines)
            if got != n:
                out.append(f"log_count {text!r}: expected {n} lines, got {got}")
        return out


# ---------------------------------------------------------------- helpers
def last_change(st, place, seat) -> str:
    """Why a variable or zone holds what it holds: the last log line that changed it, with the chain that wrote
    it (`--why`), as text to add to a failed check; "" when no line of the log changed it (set up so, or a
    variable whose changes are not logged)."""
    if not isinstance(st, ExplainingState):
        return ""
    k = next((k for k in range(len(st.log) - 1, -1, -1) if _changes(st.log[k], place, seat)), None)
    if k is None:
        return ""
    return "\n    the last change, and why (--why):\n" + "\n".join(
        "    " + line for line in explanation_lines(st, k))


def _changes(e: tuple, place, seat) -> bool:
    """Does log entry `e` change this place: a variable's value, or the cards of a zone?"""
    if place[0] == "zone":
        slot = place[1]
        return (e[0] == Entry.MOVE and slot in (e[3], e[4])) or (e[0] == Entry.SHUFFLE and e[1] == slot)
    if e[0] != Entry.VAR:
        return False
    group = {"var": 0 if seat is None else 1, "kvar": 2}[place[0]]
    return e[1] == group and e[2] == place[1] and (group != 1 or e[3] == seat)


def describe(step) -> str:
    if not isinstance(step, dict) or not step:
        return repr(step)
    if all(V.is_player_key(k) for k in step):
        return ", ".join(f"{k}: {v}" for k, v in step.items())
    key = next(iter(step))
    if key == "illegal" and isinstance(step[key], dict):
        return "illegal " + ", ".join(f"{k}: {v}" for k, v in step[key].items() if k != "reason")
    return str(key)


def expected_names(value) -> list:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return list(value.get("includes") or []) + list(value.get("excludes") or [])
    return []


def compare_list(key: str, got: list, want: list) -> list:
    return [] if got == want else [f"{key}: expected {show(want)}, got {show(got)}"]


def compare_collection(key: str, got: list, value, patterns: bool = False) -> list:
    """An exact list, or a mapping with `count`, `includes`, `excludes`. With `patterns` (option labels), an
    `includes` or `excludes` entry with a `*` matches any text in its place: `"travel forest, *"` is every way
    to travel to the Forest."""
    if isinstance(value, list):
        return compare_list(key, got, V.texts_of(value, f"expect {key}"))
    spec = V.mapping_of(value, f"expect {key}")
    check_keys(spec, COLLECTION_KEYS, f"expect {key}")
    out = []
    if "count" in spec and len(got) != V.int_of(spec["count"], f"expect {key} count"):
        out.append(f"{key}: expected {spec['count']} items, got {len(got)}: {show(got)}")
    for t in V.texts_of(spec.get("includes", []), f"expect {key} includes"):
        if not matching(t, got, patterns):
            out.append(f"{key}: expected to include {t!r}, got {show(got)}")
    for t in V.texts_of(spec.get("excludes", []), f"expect {key} excludes"):
        found = matching(t, got, patterns)
        if found:
            out.append(f"{key}: expected not to include {t!r}, got {show(found)}")
    return out


def matching(text: str, got: list, patterns: bool) -> list:
    """The items of `got` that are `text`, or (with `patterns`, a `text` holding `*`) that match it."""
    if patterns and "*" in text:
        pattern = re.compile(".*".join(map(re.escape, text.split("*"))), re.DOTALL)
        return [g for g in got if pattern.fullmatch(g)]
    return [text] if text in got else []


def show(items: list) -> str:
    return "[" + ", ".join(str(x) for x in items) + "]"


def error_text(err: WishError) -> str:
    """An error with its diagnostics rendered (file:line:col, the line, a caret, a hint)."""
    if not err.diagnostics:
        return str(err)
    shown = [d.render(err.sources.get(d.span.file) if d.span else None) for d in err.diagnostics[:5]]
    return str(err) + "\n" + "\n".join(shown)
