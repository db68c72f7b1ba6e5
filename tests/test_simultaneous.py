"""A simultaneous decision: options that read the deciding player are worked out for each player; options that
read neither the player nor the dice once for all of them (runtime.Simultaneous.shared), with the same result."""
from interpreter import load_source
from interpreter.runtime import Simultaneous

SRC = '''game "Pick" { players 3..3 }
player var pick: player = first(players)
player var vote: text = "none"
player var lucky: int = 0
play {
  simultaneously p in players choose p.pick from [q for q in players if q != p] prompt "Pick another"
  simultaneously p in players choose p.vote from ["yes", "no"] prompt "Vote"
  simultaneously p in players choose p.lucky from [random([1, 2, 3]), 4] prompt "Lucky number"
}
scoring p { score "picked" count([q for q in players if q.pick == p]) }
'''


def test_only_options_that_read_neither_the_player_nor_the_dice_are_shared():
    game = load_source(SRC)
    assert [pt.shared for pt in game.points if isinstance(pt, Simultaneous)] == [False, True, False]


def test_each_player_has_its_own_options_or_the_shared_ones():
    st = load_source(SRC).new_state(3, seed=1)
    assert [[a.label for a in st.legal_actions(p)] for p in range(3)] == [
        ["pick player 2", "pick player 3"], ["pick player 1", "pick player 3"], ["pick player 1", "pick player 2"]]
    for p in range(3):
        st.apply(st.legal_actions(p)[0])
    assert [[a.label for a in st.legal_actions(p)] for p in range(3)] == [["yes", "no"]] * 3
    for p in range(3):
        st.apply(st.legal_actions(p)[1])
    lucky = [[a.label for a in st.legal_actions(p)] for p in range(3)]
    assert all(len(options) == 2 and options[1] == "lucky 4" for options in lucky)
