"""Hidden information: a player's view never depends on cards that player does not know.

The property: take any state of any game, any player p, and give the cards p has never known other
identities (a permutation among them). p's view — zones, variables, the pending decision and its option
labels, the log as p reads it — must not change. Identities are changed by giving the state a game whose
instances map to other card definitions, so every reference to a physical card stays where it was.
"""
import random
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from interpreter import load_game
from interpreter.game import Identities

ROOT = Path(__file__).parent.parent
CASES = [
    (str(ROOT / "games" / "three_wishes.wish"), None, 3),
    (str(ROOT / "games" / "three_wishes.wish"), None, 5),
    (str(ROOT / "games" / "three_wishes.wish"), "Match", 4),
    (str(ROOT / "games" / "wunschmaschine.wish"), None, 4),
    (str(ROOT / "games" / "wunschmaschine.wish"), "Left-Right", 3),
    (str(Path(__file__).parent / "games" / "engine_test.wish"), "actions", 2),
    (str(ROOT / "games" / "wish.wish"), None, 3),
    (str(ROOT / "games" / "wish.wish"), "Solo", 1),
]
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


def played(case, seed: int, steps: int):
    path, variant, players = case
    state = load_game(path, variant).new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def with_identities(state, mapping: dict):
    """A copy of `state` in which card c has the identity card mapping[c] has in `state`."""
    of = list(state.ids.of)
    for c, d in mapping.items():
        of[c] = state.ids.of[d]
    other = state.clone()
    other.ids = Identities(of, len(state.game.card_defs))
    if other.decision is not None:
        other.decision.labels = None
    return other


def kind_of(state, c: int) -> str:
    return state.game.card_defs[state.ids.of[c]].kind


def shuffled_identities(state, cards: list, data) -> dict:
    """A permutation of these cards' identities, each card kind among itself (a Wish stays a Wish)."""
    mapping = {}
    for kind in sorted({kind_of(state, c) for c in cards}):
        group = [c for c in cards if kind_of(state, c) == kind]
        mapping.update(zip(group, data.draw(st.permutations(group), label=f"new identities of {kind}")))
    return mapping


def scene(case, seed: int, steps: int, data):
    """A state some random decisions into a game, and a player drawn by Hypothesis."""
    state = played(case, seed, steps)
    return state, data.draw(st.integers(0, state.n - 1), label="player")


def seen_by(state, p):
    fresh = with_identities(state, {})
    return fresh.view(p), [a.label for a in fresh.legal_actions(p)]


@SETTINGS
@given(st.sampled_from(CASES), st.integers(0, 10_000), st.integers(0, 40), st.data())
def test_a_view_does_not_depend_on_cards_its_player_never_saw(case, seed, steps, data):
    """Not the view, not the log, not the option labels: cards p never saw may be any of their kind. (Cards p
    saw once and lost track of: the test below.)"""
    state, p = scene(case, seed, steps, data)
    unknown = [c for c in range(len(state.seen)) if not (state.seen[c] >> p) & 1]
    other = with_identities(state, shuffled_identities(state, unknown, data))
    assert seen_by(other, p) == seen_by(state, p)


@SETTINGS
@given(st.sampled_from(CASES), st.integers(0, 10_000), st.integers(0, 40), st.data())
def test_the_property_has_teeth_changing_a_known_card_changes_the_view(case, seed, steps, data):
    state, p = scene(case, seed, steps, data)
    known = [c for c in range(len(state.known)) if (state.known[c] >> p) & 1
             and any(state.where[c] == slot for slot in range(len(state.zones)))]
    pairs = [(a, b) for a in known for b in range(len(state.known))
             if state.card_name(a) != state.card_name(b) and kind_of(state, a) == kind_of(state, b)]
    assume(pairs)  # a scene where p knows a card (Hypothesis says so when too few do)
    a, b = data.draw(st.sampled_from(pairs), label="known card, other identity")
    other = with_identities(state, {a: b})
    assert seen_by(other, p)[0] != seen_by(state, p)[0]


@SETTINGS
@given(st.sampled_from(CASES), st.integers(0, 10_000), st.integers(0, 40), st.data())
def test_forgotten_cards_vanish_from_everything_but_the_log(case, seed, steps, data):
    """Cards p knew once but not now (shuffled away) no longer show anywhere in p's view but in its history."""
    state, p = scene(case, seed, steps, data)
    unknown = [c for c in range(len(state.known)) if not (state.known[c] >> p) & 1]
    other = with_identities(state, shuffled_identities(state, unknown, data))
    (mine, labels), (theirs, other_labels) = seen_by(state, p), seen_by(other, p)
    my_log, their_log = mine.pop("log"), theirs.pop("log")
    assert (mine, labels) == (theirs, other_labels)
    # the log is p's history: a line may differ only where it names a card p saw then and has lost track of
    lost = [c for c in unknown if (state.seen[c] >> p) & 1]
    names = {state.card_name(c) for c in lost}, {other.card_name(c) for c in lost}
    assert len(my_log) == len(their_log)
    for line, other_line in zip(my_log, their_log):
        if line != other_line:
            assert any(n in line for n in names[0]) and any(n in other_line for n in names[1]), (line, other_line)


def test_option_keys_are_equal_exactly_when_labels_are():
    """Agents remember options by their keys where a person would remember labels: across every option of
    every decision of random games of every case, two options of one player have equal keys exactly when
    they have equal labels."""
    for path, variant, players in CASES:
        game = load_game(path, variant)
        for seed in range(3):
            state = game.new_state(players, seed=seed)
            rng = random.Random(seed)
            by_label: dict = {}
            by_key: dict = {}
            while not state.is_over:
                actions = state.legal_actions()
                for a in actions:
                    assert by_label.setdefault((a.player, a.label), a.key) == a.key, (path, a.label)
                    assert by_key.setdefault((a.player, a.key), a.label) == a.label, (path, a.key)
                state.apply(rng.choice(actions))
