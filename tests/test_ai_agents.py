"""The searching agents (greedy, mcts) and the information sets they sample from."""
import random
import time
from collections import Counter

import pytest
from test_views import kind_of, with_identities

from interpreter import WishError, load_game, load_source
from interpreter.agents import GreedyAgent, MctsAgent, make_agent, make_agents, play
from interpreter.agents.mcts import MAX_INNER, MOST, SETTLE_SHARE, SPEND, Node, option_class, settled
from interpreter.agents.search import rewards
from interpreter.runtime import CHOSEN
from interpreter.infoset import InfoSet
from interpreter.views import Unseen

WISH, THREE, MACHINE = "games/wish.wish", "games/three_wishes.wish", "games/wunschmaschine.wish"
LOOK = ("look", ())  # the key of 3 Wishes' `look`: an action's name and its parameters' keys
CASES = [(WISH, None, 2), (WISH, "Solo", 1), (THREE, None, 3), (MACHINE, None, 3), (MACHINE, "Left-Right", 3)]
SMALL = ["mcts:iterations=6;rollout=2", "greedy:samples=1", "random"]
_GAMES: dict = {}


def game(path, variant=None):
    if (path, variant) not in _GAMES:
        _GAMES[path, variant] = load_game(path, variant)
    return _GAMES[path, variant]


def random_states(path, variant, players, seed, every=1, limit=200):
    """States along a random game, one every `every` decisions, while a decision is pending."""
    st = game(path, variant).new_state(players, seed=seed)
    rng = random.Random(seed)
    out = []
    for i in range(limit):
        if st.is_over:
            break
        if i % every == 0:
            out.append(st.clone())
        st.apply(rng.choice(st.legal_actions()))
    return out


def unknown(st, seat):
    """The cards the seat does not know now (also those it saw once, before they were shuffled away)."""
    return [c for c in range(len(st.known)) if not (st.known[c] >> seat) & 1]


def permuted(st, cards, seed):
    """`st` with the identities of these cards permuted at random, each kind among itself."""
    rng = random.Random(seed)
    mapping = {}
    for kind in sorted({kind_of(st, c) for c in cards}):
        group = [c for c in cards if kind_of(st, c) == kind]
        mapping.update(zip(group, rng.sample(group, len(group))))
    return with_identities(st, mapping)


def is_action(key) -> bool:
    """Is this option key (or class) one of an action — (name, parameter keys) — rather than of a choice?"""
    return type(key) is tuple and len(key) == 2 and isinstance(key[0], str) and type(key[1]) is tuple


def choose(spec, st, seat, info_class=InfoSet):
    agent = make_agent(spec, seat, 7)
    return agent.act(None, st.legal_actions(seat), info=info_class(st, seat))


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("path,variant,players", CASES)
def test_every_agent_plays_every_game_to_the_end(path, variant, players):
    for seed in (1, 2):
        specs = [SMALL[(seed + seat) % 3] for seat in range(players)]
        st = game(path, variant).new_state(players, seed=seed)
        taken = play(st, make_agents(specs, players, seed))
        assert st.is_over and taken and not st.broken_invariants()


@pytest.mark.parametrize("path,variant,players", [(MACHINE, None, 3), (THREE, None, 3)])
def test_same_seed_same_actions(path, variant, players):
    runs = []
    for _ in range(2):
        st = game(path, variant).new_state(players, seed=4)
        runs.append(play(st, make_agents(["mcts:iterations=10;rollout=3", "greedy:samples=2",
                                          "mcts:iterations=5;rollout=0;probe=1"], players, 4)))
        runs[-1].append(st.to_json())
    assert runs[0] == runs[1]


def test_the_command_line_runs_the_searching_agents(capsys):
    from wishdsl.cli import main
    code = main(["run", MACHINE, "--players", "3", "--seed", "2", "--quiet",
                 "--agents", "mcts:iterations=5;rollout=2,greedy,random"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert "Winner: " in out or "Nobody wins" in out


# ---------------------------------------------------------------- the information property
def scenes():
    """(state, seat) pairs along random games of every game, the seat being one that must decide."""
    out = []
    for path, variant, players in CASES:
        for st in random_states(path, variant, players, seed=11, every=9, limit=60)[:4]:
            out.append((st, st.to_move[-1]))
    guesses = [st for st in random_states(MACHINE, None, 3, seed=5, limit=400)
               if st.to_move and st.legal_actions(st.to_move[0])[0].label.startswith("guess")]
    assert guesses, "a random Wunschmaschine game reaches a guess"
    out += [(st, st.to_move[0]) for st in guesses[:3]]
    return out


SCENES = scenes()


@pytest.mark.parametrize("spec", ["greedy:samples=3", "mcts:iterations=24;rollout=4",
                                  "mcts:iterations=24;rollout=0;probe=1"])
def test_decisions_do_not_depend_on_cards_the_seat_does_not_know(spec):
    for i, (st, seat) in enumerate(SCENES):
        hidden = unknown(st, seat)
        other = permuted(st, hidden, seed=i)
        assert choose(spec, other, seat) == choose(spec, st, seat), (i, spec)


class Peeking(InfoSet):
    """An information set that cheats: its samples are the true state."""

    def sample(self, rng):
        return self._state.clone()


def test_the_information_property_has_teeth():
    """An agent that samples the true state guesses the Machine's wish, so hiding it otherwise changes its guess."""
    changed = 0
    for i, (st, seat) in enumerate(SCENES):
        if not st.legal_actions(seat)[0].label.startswith("guess"):
            continue
        other = permuted(st, unknown(st, seat), seed=100 + i)
        changed += choose("greedy:samples=1", other, seat, Peeking) != choose("greedy:samples=1", st, seat, Peeking)
    assert changed > 0


def test_samples_are_the_same_whatever_the_hidden_identities_are():
    for i, (st, seat) in enumerate(SCENES):
        other = permuted(st, unknown(st, seat), seed=i)
        a, b = InfoSet(st, seat), InfoSet(other, seat)
        ra, rb = random.Random(i), random.Random(i)
        for _ in range(3):
            assert a.sample(ra).ids.of == b.sample(rb).ids.of


# ---------------------------------------------------------------- samples
def test_samples_keep_every_card_the_seat_knows_and_redraw_the_others():
    for st, seat in SCENES:
        info, rng = InfoSet(st, seat), random.Random(3)
        true = st.ids.of
        unknown = [c for c in range(len(true)) if not (st.known[c] >> seat) & 1]
        varied = set()
        for _ in range(5):
            s = info.sample(rng)
            defs = s.ids.of
            assert all(defs[c] == true[c] for c in range(len(true)) if (st.known[c] >> seat) & 1)
            assert Counter(defs[c] for c in unknown) == Counter(true[c] for c in unknown)
            assert all(kind_of(s, c) == kind_of(st, c) for c in unknown)
            assert [a.label for a in s.legal_actions(seat)] == [a.label for a in st.legal_actions(seat)]
            varied.add(tuple(defs[c] for c in unknown))
        assert len(unknown) < 2 or len(varied) > 1


def machine_states():
    """Wunschmaschine states of agents to decide, after at least two announcements in the round."""
    out = []
    for seed in range(30):
        for st in random_states(MACHINE, None, 4, seed=seed, limit=300):
            machine = st.gvars[[v.name for v in st.game.gvars].index("machine")]
            rows = st.gvars[[v.name for v in st.game.gvars].index("rows")]
            seat = st.to_move[0]
            if rows >= 2 and seat != machine and st.legal_actions(seat)[0].label in ("slap", "wait"):
                out.append((st, seat, rows))
        if len(out) >= 6:
            return out
    return out


def wished_item(st):
    wish = st.zones[st.lay.slot_names.index("wish")][0]
    return st.game.card_defs[st.ids.of[wish]].fields["items"][0]


def answers_hold(st, rows):
    """Every row laid this round is answered as the sample's wish says (checked straight from the cards)."""
    table = st.zones[st.lay.slot_names.index("table")]
    item = wished_item(st)
    for j in range(rows):
        row = table[4 * j: 4 * j + 4]
        yes = any(item in st.game.card_defs[st.ids.of[c]].fields["items"] for c in row)
        if st.observations[-(j + 1)][2] != ("Yes" if yes else "No"):
            return False
    return True


def test_samples_never_contradict_the_announcements():
    scenes = machine_states()
    assert len(scenes) >= 4
    rejected = 0
    for st, seat, rows in scenes:
        assert answers_hold(st, rows)
        info, rng = InfoSet(st, seat), random.Random(1)
        wishes = set()
        for _ in range(40):
            s = info.sample(rng)
            assert answers_hold(s, rows)
            wishes.add(wished_item(s))
        rejected += info.rejected
        assert info.failures == 0
    assert rejected > 0  # draws that broke an announcement were drawn and thrown away


def test_without_the_checks_samples_would_contradict_them():
    st, seat, rows = machine_states()[0]
    info = InfoSet(st, seat)
    info._checks = []
    rng = random.Random(2)
    assert not all(answers_hold(info.sample(rng), rows) for _ in range(60))


def single_item_wish(st):
    wish = st.zones[st.lay.slot_names.index("wish")][0]
    return len(st.game.card_defs[st.ids.of[wish]].fields["items"]) == 1


def test_samples_keep_what_the_machines_choice_told():
    """The Machine chose its wish among single-item cards: no sample wishes for a combo card, though the wish
    card's identity is redrawn among all the cards the agent cannot place."""
    for st, seat, rows in machine_states():
        info, rng = InfoSet(st, seat), random.Random(3)
        assert all(single_item_wish(info.sample(rng)) for _ in range(40))
    st, seat, _ = machine_states()[0]
    info, rng = InfoSet(st, seat), random.Random(3)
    info._checks = [ch for ch in info._checks if ch[1] != True]  # noqa: E712 (the choice's observed value)
    assert not all(single_item_wish(info.sample(rng)) for _ in range(60))


def test_when_every_draw_contradicts_the_best_one_is_used_and_counted():
    st, seat, rows = machine_states()[0]
    info, rng = InfoSet(st, seat, tries=1), random.Random(4)
    samples = [info.sample(rng) for _ in range(30)]
    assert 0 < info.failures == info.rejected < 30
    assert sum(answers_hold(s, rows) and single_item_wish(s) for s in samples) == 30 - info.failures


def test_observations_of_cards_shuffled_away_are_not_checked():
    """The answers of earlier rounds read wish cards shuffled back into the deck since: tying them to where
    those cards are now would leak. The wish chosen this round left the deck before it was shuffled, so what
    its choice told still holds whichever deck card is which, and it stays checked; earlier wishes were
    shuffled back, so their choices are checked only for a card the agent sees again (which cannot leak)."""
    later_rounds = 0
    for st, seat, rows in machine_states():
        info = InfoSet(st, seat)
        announced = [ch for ch in info._checks if ch[1] != True]  # noqa: E712
        chosen = [dict(ch[2])[CHOSEN] for ch in info._checks if ch[1] is True]
        wish = st.zones[st.lay.slot_names.index("wish")][0]
        assert 0 < len(announced) <= rows and wish in chosen
        assert all(c == wish or (st.known[c] >> seat) & 1 for c in chosen)  # others: cards it sees again now
        later_rounds += len(st.observations) > rows + 1
    assert later_rounds > 0


def test_answers_of_others_to_a_simultaneous_decision_are_not_in_samples():
    for st, seat, _ in machine_states():
        others = [p for p in st.to_move if p != seat]
        if not others:
            continue
        st = st.clone()
        st.apply(st.legal_actions(seat)[0])  # the first agent answers; the next one is asked
        nxt = st.to_move[0]
        s = InfoSet(st, nxt).sample(random.Random(0))
        assert st.decision.answers and not s.decision.answers
        assert nxt in s.to_move and seat in s.to_move
        return
    pytest.fail("no slap decision with several agents found")


def test_samples_come_from_the_agents_generator_not_the_games():
    st, seat = SCENES[0]
    info = InfoSet(st, seat)
    a, b = info.sample(random.Random(1)), info.sample(random.Random(2))
    assert a.rng.s != st.rng.s and a.rng.s != b.rng.s


def test_observations_survive_a_save_and_a_load():
    st, seat, _ = machine_states()[0]
    loaded = st.game.state_from_json(st.to_json())
    assert loaded.to_json() == st.to_json() and loaded.observations == st.observations
    x, y = InfoSet(st, seat).sample(random.Random(5)), InfoSet(loaded, seat).sample(random.Random(5))
    assert x.ids.of == y.ids.of


# ---------------------------------------------------------------- options
@pytest.mark.parametrize("spec,message", [
    ("mcts:iterations=0", "must be at least 1"),
    ("mcts:iterations=many", "expected int"),
    ("mcts:c=-1", "must be at least 0"),
    ("mcts:rollout=-2", "must be at least 0"),
    ("mcts:depth=3", "has no option 'depth'"),
    ("greedy:samples=0", "must be at least 1"),
    ("greedy:iterations=5", "has no option 'iterations'"),
])
def test_bad_options_are_refused(spec, message):
    with pytest.raises(WishError, match=message):
        make_agent(spec, 0, 1)


def test_options_reach_the_agents():
    agent = make_agent("mcts:iterations=33;c=1.5;rollout=7;seed=9", 1, 0)
    assert isinstance(agent, MctsAgent)
    assert (agent.iterations, agent.c, agent.rollout, agent.seed, agent.seat) == (33, 1.5, 7, 9, 1)
    assert isinstance(make_agent("greedy:samples=2", 0, 0), GreedyAgent)


def test_searching_agents_refuse_to_act_without_an_information_set():
    st = game(MACHINE).new_state(3, seed=1)
    for spec in ("mcts", "greedy"):
        with pytest.raises(WishError, match="information set"):
            make_agent(spec, 0, 1).act(st.view(0), st.legal_actions(0) * 2)


def test_a_choice_is_observed_but_not_announced():
    st, seat, rows = machine_states()[0]
    kinds = [st.game.points[point].announces for _, point, *_ in st.observations]
    assert kinds.count(False) > 0 and len(st.view(seat)["announcements"]) == kinds.count(True)
    assert st.view(seat)["announcements"][-rows:] == [o[2] for o in st.observations[-rows:]]


def test_shuffles_record_the_cards_and_who_kept_track():
    st, seat, _ = machine_states()[0]
    deck = st.lay.slot_names.index("deck")
    at, keep, cards = st.shuffles[-1]
    assert st.log_lines()[at] == "deck is shuffled" and keep == 0
    assert set(cards) <= set(st.zones[deck]) | set(st.zones[st.lay.slot_names.index("table")])


@pytest.mark.parametrize("spec, message", [("mcts:epsilon=1.5", "at most 1"), ("mcts:epsilon=-0.1", "at least 0"),
                                           ("mcts:merge=2", "must be 0 or 1"), ("mcts:merge=-1", "at least 0"),
                                           ("mcts:probe=2", "must be 0 or 1"), ("mcts:probe=-1", "at least 0"),
                                           ("mcts:groups=2", "must be 0 or 1"), ("mcts:reuse=2", "must be 0 or 1"),
                                           ("mcts:clock=2", "must be 0 or 1"),
                                           ("mcts:backprobe=2", "must be 0 or 1"),
                                           ("mcts:pool=-1", "at least 0"), ("mcts:pool=9", "at most 8"),
                                           ("mcts:widen=-1", "at least 0")])
def test_epsilon_merge_and_probe_outside_their_range_are_refused(spec, message):
    with pytest.raises(WishError, match=message):
        make_agent(spec, 0, 0)


def test_mast_rollouts_prefer_the_options_that_earned_most():
    """With epsilon 0 a rollout takes, for each player, the option whose key earned it most so far."""
    st = load_game(MACHINE).new_state(3, seed=2)
    agent = MctsAgent(seat=0, seed=1, rollout=1, epsilon=0.0)
    seat = st.to_move[0]
    keys = [a.key for a in st.legal_actions(seat)]
    assert len(keys) > 2
    agent.mast = {(seat, keys[-1]): [3, 2.7], (seat, keys[0]): [5, 0.5]}
    played: list = []
    agent._rollout(st, played)
    assert (seat, keys[-1]) in played


def test_a_probe_gives_a_new_option_the_reward_one_step_after_it():
    """With `probe=1` an option class the search has not met starts at the reward its player gets once it is
    taken in the sample; with one iteration the root then takes the class with the best such reward."""
    taken = 0
    for st in [s for seed in range(6) for s in random_states(THREE, None, 3, seed=seed, every=2, limit=30)]:
        seat = st.to_move[0]
        if len({option_class(a.key) for a in st.legal_actions(seat)}) < 3:
            continue
        agent = MctsAgent(seat, seed=2, iterations=1, probe=1)
        action = agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
        root_probes = {k: v for (p, k), v in agent.probes.items() if p == seat and k in agent.last_root.stats[seat]}
        assert len(root_probes) >= 3
        assert root_probes[option_class(action.key)] == max(root_probes.values())
        taken += 1
    assert taken >= 3


def test_a_probe_is_the_reward_after_the_option_on_that_sample():
    st = game(THREE).new_state(3, seed=8)
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=1, probe=1)
    agent.probes, agent.scale = {}, 5.0
    for action in st.legal_actions(seat):
        key = action.key
        after = st.clone()
        after.apply(action)
        assert agent._probe(st, seat, key, action) == rewards(after, 5.0)[seat]
    assert st.to_move == [seat] and not st.over  # the sample itself is left as it was


def test_when_the_wish_is_certain_mcts_names_it():
    """Deduction through the samples: where every sample of the information set agrees on the wish, the
    searching agent names it (a random name would be right 1 time in 9)."""
    named = 0
    for st, seat, rows in machine_states():
        if st.decision.answers:
            continue
        st = st.clone()
        rows_var = [v.name for v in st.game.gvars].index("rows")
        while st.gvars[rows_var] < 4:  # every Agent waits for the fourth row
            for p in list(st.to_move):
                st.apply("wait", p)
        for p in list(st.to_move):
            st.apply("slap" if p == seat else "wait", p)
        info = InfoSet(st, seat)
        wishes = {wished_item(info.sample(random.Random(i))) for i in range(60)}
        if len(wishes) != 1:
            continue
        action = MctsAgent(seat=seat, seed=3, iterations=60).act(None, st.legal_actions(seat), info=info)
        assert action.label == f"guess {wishes.pop()}"
        named += 1
    assert named >= 1


def test_rewards_put_an_outright_loser_last():
    """3 Wishes: a player holding Time Travel would lose whatever the points, so the reward is the least."""
    game = load_game(THREE)
    for seed in range(40):
        st = game.new_state(3, seed=seed)
        lost = [r.player for r in game.standings(st) if r.lost]
        if lost:
            r = rewards(st, 4.0)
            assert all(r[p] == 0.05 for p in lost)
            assert all(r[p] > 0.05 for p in st.seats if p not in lost)
            return
    pytest.fail("no deal with Time Travel in a hand")


def test_backups_mix_in_the_best_next_option_of_the_same_player():
    child = Node()
    child.stats[0] = {"guess pig": [2, 2.0, 2], "guess heart": [6, 5.4, 6]}
    offered = ["guess pig", "guess heart"]
    assert MctsAgent._backed_up(0.2, child, 0, offered) == pytest.approx((0.2 + 0.9) / 2)
    assert MctsAgent._backed_up(0.2, child, 0, None) == pytest.approx((0.2 + 0.9) / 2)  # it chose nothing there
    assert MctsAgent._backed_up(0.2, child, 1, None) == 0.2  # not that player's decision
    assert MctsAgent._backed_up(0.2, None, 0, None) == 0.2  # no next decision (inner, or the game ended)
    child.stats[0]["guess heart"] = [2, 1.8, 2]
    assert MctsAgent._backed_up(0.2, child, 0, offered) == 0.2  # the best is not tried enough yet


def test_backups_take_the_best_of_the_options_this_sample_offered():
    """After a peek at "Flight", the peek is worth what swapping for "Flight" earned, even when the swap tried
    most often (after peeks at other cards) was another one."""
    child = Node()
    child.stats[0] = {'swap "Flight"': [4, 3.2, 4], 'swap "Time Travel"': [9, 0.0, 9], "shuffle": [3, 1.2, 20]}
    assert MctsAgent._backed_up(0.2, child, 0, ['swap "Flight"', "shuffle"]) == pytest.approx((0.2 + 0.8) / 2)
    assert MctsAgent._backed_up(0.2, child, 0, ['swap "Time Travel"', "shuffle"]) == pytest.approx(0.1)


def test_with_probes_a_backup_takes_the_best_offered_option_probed_or_tried():
    child = Node()
    child.stats[0] = {'swap "Flight"': [1, 0.9, 1], 'swap "Time Travel"': [0, 0.0, 1], "shuffle": [5, 2.5, 6]}
    offered = ['swap "Flight"', 'swap "Time Travel"', "shuffle"]
    probes = {(0, 'swap "Flight"'): 0.7, (0, 'swap "Time Travel"'): 0.05, (0, "shuffle"): 0.9}
    assert MctsAgent._backed_up(0.2, child, 0, offered, probes) == pytest.approx((0.2 + 0.7) / 2)
    assert MctsAgent._backed_up(0.2, child, 0, offered, {}) == pytest.approx((0.2 + 0.5) / 2)  # none probed
    assert MctsAgent._backed_up(0.2, child, 0, ['swap "Time Travel"'], {}) == 0.2  # nothing known yet
    assert MctsAgent._backed_up(0.2, child, 0, offered, None) == pytest.approx((0.2 + 0.5) / 2)  # most visited


def test_the_options_a_player_was_offered_are_noted_per_node():
    """Per node and player, the search notes the option classes of the last choice made there in this
    iteration: in the node of `look`, the second action of the turn, not the peeks made before it."""
    st = game(THREE).new_state(3, seed=5)
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=1, iterations=40)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    root, info = agent.last_root, InfoSet(st, seat)
    look = root.children[((seat, LOOK),)]
    for _ in range(200):
        agent._iterate(root, info.sample(agent.rng))
        if (look, seat) in agent.offers:
            break
    assert set(agent.offers[root, seat]) == set(root.stats[seat])
    second = agent.offers[look, seat]
    assert ("shuffle_hand", ()) in second and all(is_action(k) for k in second)


def test_an_untried_option_starts_from_what_its_label_earned():
    st = load_game(MACHINE).new_state(3, seed=2)
    seat = st.to_move[0]
    keys = [a.key for a in st.legal_actions(seat)]
    agent = MctsAgent(seat=seat, seed=1)
    agent.mast = {(seat, key): [4, 0.4] for key in keys}
    agent.mast[(seat, keys[3])] = [4, 3.6]
    cls, action = agent._select(Node(), seat, st)
    assert cls == keys[3] and action.key == keys[3]


@pytest.mark.parametrize("key, expected", [
    (("exchange", (Unseen((4, 1)), Unseen((0, 2)))), ("exchange", (Unseen((4, None)), Unseen((0, None))))),
    (("exchange", (Unseen((4, 0)), "Flight")), ("exchange", (Unseen((4, None)), "Flight"))),
    ("card 2 of spades", "card 2 of spades"),  # a card's name is kept whole
    ("pig", "pig"),
    ((Unseen((0, 11)), "#", 2), (Unseen((0, None)), "#", 2)),
])
def test_option_classes_leave_out_where_unseen_cards_lie(key, expected):
    assert option_class(key) == expected


def test_options_on_unseen_cards_of_one_zone_are_one_arm():
    """3 Wishes, first decision: nine swaps with another hand are one arm; `merge=0` keeps them apart."""
    st = game(THREE).new_state(3, seed=5)
    seat = st.to_move[0]
    merged, apart = MctsAgent(seat, seed=1, iterations=30), MctsAgent(seat, seed=1, iterations=30, merge=0)
    for agent in (merged, apart):
        agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    arms = set(merged.last_root.stats[seat])
    slot = st.lay.slot_names.index
    mine = Unseen((slot(f"hand of player {seat + 1}"), None))
    assert arms <= {LOOK, ("shuffle_hand", ())} | {("exchange", (mine, Unseen((slot(z), None))))
                                                   for z in ("centre", "hand of player 2", "hand of player 3")}
    assert len(apart.last_root.stats[seat]) == len(st.legal_actions(seat)) > len(arms)


def test_choices_inside_an_own_action_stay_in_the_actions_node():
    """After `look`, which cards to peek at is chosen in the node of `look` itself (no node per peek), so the
    swap that follows is found one level below the root, whatever was peeked at."""
    st = game(THREE).new_state(3, seed=5)
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=1, iterations=200)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    look = agent.last_root.children[((seat, LOOK),)]
    mine = look.stats[seat]
    assert any(not is_action(k) for k in mine) and any(is_action(k) and k[0] == "exchange" for k in mine)
    assert all(is_action(cls) for key in look.children for _, cls in key)


def test_with_pool_0_every_choice_inside_an_own_action_opens_a_node():
    """`pool=0`: which cards to peek at after `look` is a node of its own below `look`, as any decision is."""
    st = game(THREE).new_state(3, seed=5)
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=1, iterations=200, pool=0)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    look = agent.last_root.children[((seat, LOOK),)]
    assert look.stats[seat] and not any(is_action(k) for k in look.stats[seat])
    assert look.children and not any(is_action(cls) for key in look.children for _, cls in key)


def test_the_acting_player_is_known_while_an_action_resolves():
    st = game(THREE).new_state(3, seed=5)
    seat = st.to_move[0]
    assert st.acting_player() is None
    st.apply("look", seat)
    assert st.decision.prompt == "Peek at a card" and st.acting_player() == seat


WALK = """game "Walk" { players 2..2 }
enum Step { left, right }
player var n: int = 0
var go: Step? = left
action walk() {
  go = left
  while go != none {
    choose go from Step optional "stop" by you prompt "Walk on?"
    you.n += 1
  }
}
play { for p in players { act one of walk by p prompt "Go" } }
scoring p { score "steps" p.n }
"""


def test_a_choice_repeated_without_end_inside_an_action_branches_again():
    """Walking on always scores more, so the search would pick it for ever inside one node; after MAX_INNER
    choices in a row the tree branches again and the search ends."""
    st = load_source(WALK).new_state(2, seed=1)
    st.apply("walk", 0)
    agent = MctsAgent(0, seed=1, iterations=50, rollout=3)
    chosen = agent.act(None, st.legal_actions(0), info=InfoSet(st, 0)).label
    assert chosen in ("go left", "go right")  # walking on scores more than stopping, and the search ends

    def depth(node):
        return 1 + max((depth(c) for c in node.children.values()), default=0)
    assert depth(agent.last_root) > 2 and MAX_INNER >= 2


def test_with_pool_0_an_iteration_opens_nodes_through_the_choices_of_an_action():
    """`pool=0`: one iteration does not stop at the first node it opens while the player is still choosing inside
    its own action (a position halfway through an action is not judged), and still stops after MAX_INNER more."""
    def depth(node):
        return 1 + max((depth(c) for c in node.children.values()), default=0)
    for pool, deepest in [(MAX_INNER, 2), (0, MAX_INNER + 2)]:
        st = load_source(WALK).new_state(2, seed=1)
        st.apply("walk", 0)
        agent = MctsAgent(0, seed=1, rollout=0, pool=pool)
        root, done = agent.grow(InfoSet(st, 0), 1)
        assert done == 1 and 2 <= depth(root) <= deepest
        assert (depth(root) > 2) == (pool == 0)


PICK = """game "Pick" { players 2..2 }
enum Num { n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, n11, n12 }
player var n: int = 0
action pick(x: Num) {
  you.n += 1
}
play { for p in players { act one of pick by p prompt "Pick" } }
scoring p { score "n" p.n }
"""


@pytest.mark.parametrize("widen, most", [(1.0, 4), (0.5, 2), (0.0, 12)])
def test_widen_lets_the_search_try_at_most_widen_times_root_n_options(widen, most):
    """Twelve options that earn alike: without `widen` the search tries all of them in 16 iterations; with it, at
    most widen × √15 (the visits before the last iteration), the best first."""
    st = load_source(PICK).new_state(2, seed=1)
    agent = MctsAgent(0, seed=1, iterations=16, rollout=0, widen=widen)
    agent.act(None, st.legal_actions(0), info=InfoSet(st, 0))
    tried = [cls for cls, row in agent.last_root.stats[0].items() if row[0]]
    assert len(tried) == most


def test_widen_keeps_the_options_tried_and_lets_in_the_best_untried_first():
    agent = MctsAgent(0, widen=1.0)
    table = {"a": [4, 2.0, 4], "e": [0, 0.0, 3]}
    first = {"b": 0.1, "c": 0.9, "d": 0.5, "e": 0.95}.get
    assert agent._widened(table, ["a", "b", "c", "d", "e"], first) == ["a", "e"]  # room for √4 = 2
    assert agent._widened(table, ["b", "c", "d"], first) == ["c", "d"]  # "a" not offered in this sample
    table["c"] = [5, 1.0, 5]
    assert agent._widened(table, ["a", "b", "c", "d"], first) == ["a", "c", "d"]  # √9 = 3


STOP = """game "Stop" { players 2..2 }
player var n: int = 0
action stop() {
  you.n += 1
  end game
}
play { act one of stop by first(players) prompt "Stop?" }
scoring p { score "n" p.n }
"""


STOP_KEY = ("stop", ())


def test_a_pick_that_ends_the_game_backs_up_its_final_reward_unmixed():
    """When a pick ends the game, there is no next option to mix in, even if the same pick led on, in other
    samples, to a node where the player has statistics (a swap that completes a set only sometimes)."""
    st = load_source(STOP).new_state(2, seed=1)
    agent = MctsAgent(0, seed=1)
    agent.scale, agent.mast = 2.0, {}
    root, child = Node(), Node()
    child.stats[0] = {"go on": [10, 0.0, 10]}
    root.children[((0, STOP_KEY),)] = child
    agent._iterate(root, st)
    assert st.is_over and st.winners() == [0]
    assert root.stats[0][STOP_KEY][:2] == [1, 1.0]


def wish_turn_start(seed=3):
    """A 2-player Wish state where the player to move chooses among several kinds of action."""
    st = game(WISH).new_state(2, seed=seed)
    rng = random.Random(seed)
    while len({a.key[0] for a in st.legal_actions(st.to_move[0]) if type(a.key) is tuple}) < 3:
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_move_groups_pick_an_action_first_then_its_parameters():
    """With `groups=1` the root counts how often each action name was offered (every iteration: a group is
    picked first), while an option is weighed only when its group was picked: the search chose a group, then an
    option in it. A group's visits are those of its options."""
    st = wish_turn_start()
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=1, iterations=120, rollout=0, groups=1)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    root = agent.last_root
    groups, options = root.groups[seat], root.stats[seat]
    names = {cls[0] for cls in options}
    assert set(groups) == names and len(names) >= 3
    assert all(offered == 120 for offered in groups.values())
    assert sum(v[0] for v in options.values()) == 120
    # an option is weighed (its availability counted) only when its group was chosen, not at every iteration
    for name in groups:
        visits = sum(v[0] for cls, v in options.items() if cls[0] == name)
        assert all(v[2] <= visits for cls, v in options.items() if cls[0] == name)
    assert min(v[2] for v in options.values()) < 120


def backups_seen(monkeypatch, **options) -> list:
    """The `probes` every backup of one search was given (a Wish turn with several kinds of action)."""
    seen = []
    plain = MctsAgent._backed_up

    def spy(reward, child, player, offered, probes=None):
        seen.append(probes)
        return plain(reward, child, player, offered, probes)
    monkeypatch.setattr(MctsAgent, "_backed_up", staticmethod(spy))
    st = wish_turn_start()
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=5, iterations=60, rollout=0, probe=1, **options)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    return seen, agent


def test_backprobe_0_backs_up_only_options_tried_three_times(monkeypatch):
    """With `backprobe=0` a backup mixes in the best of the player's next options tried at least 3 times, never a
    probe (probes still give untried options their first value); by default the probes count too."""
    seen, agent = backups_seen(monkeypatch, backprobe=0)
    assert seen and all(p == {} for p in seen) and agent.probes
    seen, agent = backups_seen(monkeypatch)
    assert seen and all(p is agent.probes for p in seen) and agent.probes


def test_without_move_groups_the_search_is_unchanged():
    """`groups=0` (the default) keeps no group statistics and makes the same choice as before they existed:
    the option statistics of the root are those of an agent built without the option."""
    st = wish_turn_start()
    seat = st.to_move[0]
    plain, off = MctsAgent(seat, seed=4, iterations=60, rollout=2), MctsAgent(seat, seed=4, iterations=60,
                                                                               rollout=2, groups=0)
    for agent in (plain, off):
        agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    assert not off.last_root.groups and off.last_root.stats == plain.last_root.stats


def own_next_decision(st, seat, agent) -> bool:
    """Let `agent` take the seat's decision in `st`; whether the next decision is the seat's again, right after."""
    st.apply(agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat)))
    return not st.is_over and st.to_move == [seat]


def test_reuse_grows_the_subtree_of_the_option_taken_within_a_turn():
    """With `reuse=1` the seat's next decision of the same turn starts from the subtree below the option it
    took: the new root holds that subtree's visits plus this search's iterations, and the move averages of the
    search before are kept."""
    st = wish_turn_start()
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=2, iterations=80, rollout=0, probe=1, reuse=1)
    assert own_next_decision(st, seat, agent)
    kept = agent.kept[2]
    before = sum(v[0] for v in kept.stats.get(seat, {}).values())
    assert before > 0
    mast = agent.mast
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    assert agent.last_root is kept and agent.mast is mast
    assert sum(v[0] for v in agent.last_root.stats[seat].values()) == before + 80


def test_reuse_starts_afresh_when_another_decision_came_between():
    """A kept subtree is used only for the very next decision, by the count of decisions taken: after anyone
    else decided, or at another game's decision with another count, the search starts from an empty root."""
    st = wish_turn_start()
    seat = st.to_move[0]
    agent = MctsAgent(seat, seed=2, iterations=40, rollout=0, probe=1, reuse=1)
    assert own_next_decision(st, seat, agent) and agent.kept is not None
    other = game(WISH).new_state(2, seed=8)
    while other.to_move != [seat]:
        other.apply(other.legal_actions()[0])
    agent.act(None, other.legal_actions(seat), info=InfoSet(other, seat))
    assert sum(v[0] for v in agent.last_root.stats[seat].values()) == 40
    st.decisions += 1  # as if another decision had been taken in between
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    assert sum(v[0] for v in agent.last_root.stats[seat].values()) == 40


def test_without_reuse_every_decision_is_searched_from_an_empty_root():
    """`reuse=0` (the default) keeps nothing between decisions, and its choices are those of an agent built
    without the option."""
    plain_st, off_st = wish_turn_start(), wish_turn_start()
    seat = plain_st.to_move[0]
    plain, off = MctsAgent(seat, seed=4, iterations=30, rollout=2), MctsAgent(seat, seed=4, iterations=30,
                                                                               rollout=2, reuse=0)
    for _ in range(3):
        if plain_st.to_move != [seat]:
            break
        a = plain.act(None, plain_st.legal_actions(seat), info=InfoSet(plain_st, seat))
        b = off.act(None, off_st.legal_actions(seat), info=InfoSet(off_st, seat))
        assert a.key == b.key and off.kept is None
        plain_st.apply(a)
        off_st.apply(b)


def test_reuse_is_repeatable():
    """The same seed and state give the same choices with `reuse=1`, decision after decision."""
    runs = []
    for _ in range(2):
        st = wish_turn_start()
        seat = st.to_move[0]
        agent = MctsAgent(seat, seed=6, iterations=30, rollout=0, probe=1, reuse=1)
        keys = []
        while st.to_move == [seat] and len(keys) < 4:
            a = agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
            keys.append(a.key)
            st.apply(a)
        runs.append(keys)
    assert runs[0] == runs[1] and len(runs[0]) >= 2


@pytest.mark.parametrize("visits, done, limit, expected", [
    ([50, 10, 5], 65, 100, True),     # 40 ahead; the runner-up could get at most half of the 35 left
    ([40, 22, 3], 65, 100, True),     # 18 ahead > 17.5
    ([40, 23, 2], 65, 100, False),    # 17 ahead < 17.5
    ([30, 25, 10], 65, 100, False),
    ([80], 80, 100, False),           # one option: nothing to settle
    ([10, 10], 20, 20, False),        # a tie is never settled, even with nothing left
])
def test_a_search_is_settled_when_the_runner_up_cannot_catch_up(visits, done, limit, expected):
    assert SETTLE_SHARE == 0.5
    table = {k: [v, 0.0, done] for k, v in enumerate(visits)}
    assert settled(table, done, limit, 0.0, None) is expected


def test_a_settled_search_by_time_counts_the_time_left_at_its_rate():
    """By time, the iterations left are those the rate so far fits in the time left: with the deadline passed
    none are left, and any lead settles the search; with a day left, none does."""
    table = {"a": [30, 0.0, 40], "b": [10, 0.0, 40]}
    now = time.perf_counter()
    assert settled(table, 40, 10**7, now - 1.0, now - 0.001)
    assert not settled(table, 40, 10**7, now - 1.0, now + 86400.0)


def clocked_turn(seed: int, spec: str) -> list:
    """(iterations run, savings after, option taken) for one seat's first eight decisions with a choice in Wish
    (the other seat takes its first option)."""
    st = wish_turn_start()
    seat = st.to_move[0]
    agent = make_agent(spec, seat, seed)
    out = []
    while not st.is_over and len(out) < 8:
        if st.to_move != [seat]:
            st.apply(st.legal_actions()[0])
            continue
        actions = st.legal_actions(seat)
        a = agent.act(None, actions, info=InfoSet(st, seat))
        if len(actions) > 1:
            out.append((agent.last_iterations, agent.saved, a.key))
        st.apply(a)
    return out


def test_a_clock_saves_what_a_settled_decision_leaves_and_spends_half_of_it_later():
    """With `clock=1` a decision stops once settled; the iterations it leaves are saved, and the next decision
    may run its own budget plus half of the savings (at most four budgets more): the budget is an average."""
    runs = clocked_turn(5, "mcts:iterations=200;rollout=0;probe=1;clock=1")
    saved = 0.0
    for done, after, _ in runs:
        budget = 200 + int(min(SPEND * saved, MOST * 200))
        assert done <= budget
        saved = max(saved + 200 - done, 0.0)
        assert after == saved
    assert any(done < 200 for done, _, _ in runs), "no decision of the turn settled early"
    assert any(done > 200 for done, _, _ in runs), "no decision spent savings"


def test_a_clock_by_iterations_is_repeatable_and_off_by_default():
    assert clocked_turn(5, "mcts:iterations=120;rollout=0;probe=1;clock=1") == \
        clocked_turn(5, "mcts:iterations=120;rollout=0;probe=1;clock=1")
    plain = clocked_turn(5, "mcts:iterations=120;rollout=0;probe=1")
    assert all(done == 120 and after == 0.0 for done, after, _ in plain)
    off = clocked_turn(5, "mcts:iterations=120;rollout=0;probe=1;clock=0")
    assert [k for _, _, k in plain] == [k for _, _, k in off]


def test_a_clocked_agent_resumed_from_its_snapshot_goes_on_with_its_savings():
    """A web table's AI seat is a new agent at every decision, restored from the last one's snapshot: with
    `clock=1` the savings come along, so it decides as the agent that never stopped would."""
    spec = "mcts:iterations=150;rollout=0;probe=1;clock=1"
    st = wish_turn_start()
    seat = st.to_move[0]
    going = make_agent(spec, seat, 5)
    st.apply(going.act(None, st.legal_actions(seat), info=InfoSet(st, seat)))
    assert going.saved > 0 and st.to_move == [seat]
    resumed = make_agent(spec, seat, 99)
    resumed.restore(going.snapshot())
    assert resumed.saved == going.saved
    a = going.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    b = resumed.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    assert (a.key, going.last_iterations, going.saved) == (b.key, resumed.last_iterations, resumed.saved)
    with pytest.raises(WishError, match="savings"):
        resumed.restore(dict(going.snapshot(), saved="lots"))
    plain = make_agent("mcts:iterations=150", seat, 5)
    assert "saved" not in plain.snapshot()
