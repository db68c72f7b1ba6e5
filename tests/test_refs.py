"""The checker's resolutions (dsl.refs): the checker writes every kind, and the compiler compiles every kind."""
from dsl import ast as A
from dsl.refs import Ref, RefKind, kind_of
from interpreter import load_source

EVERY_KIND = '''
game "Refs" { players 2..2 }
enum Gem(worth: int) {
  | member | worth |
  | ruby   | 2     |
  | pearl  | 1     |
}
card Card {
  power: int = 1
  active in table
}
zone deck: Card public
player zone table: Card public
cards Card in deck {
  | name  | count | power |
  | "Orb" | 2     | 3     |
}
var total: int = 0
var seen[g: Gem]: int = 0
param goal: int = 3
player var gems: bag of Gem = {}
player param reach: int = 1
function double(x: int): int = 2 * x
procedure deal(p: player) {
  move top 1 of deck to p.table
}
abilities "Orb" {
  instant {
    you.gems += bag(ruby, self.power)
  }
}
action take() {
  total += count(you.table) + you.reach
}
play {
  for p in players {
    deal(p)
    let c = first(p.table)
    resolve c
    seen[ruby] = p.gems[ruby] + ruby.worth + len_of(c.name) + count(Gem) + double(goal)
  }
  act one of take by first(players)
}
function len_of(t: text): int = if t == "Orb" then 3 else 0
scoring p {
  score "gems" count(p.gems)
}
'''


def kinds_in(decls) -> set:
    return {kind_of(node) for d in decls for node, _ in A.walk(d)} - {None}


def test_the_checker_writes_every_kind_and_the_compiler_compiles_them():
    game = load_source(EVERY_KIND, "refs.wish")  # compiling raises on a kind the compiler does not know
    missing = set(RefKind) - kinds_in(game.decls)
    assert not missing, f"extend EVERY_KIND so that the checker writes {sorted(k.name for k in missing)}"
    st = game.new_state(2, seed=1)
    assert [a.label for a in st.legal_actions()] == ["take"]
    assert st.gvars[game.gvar_index["total"]] == 0


def test_a_ref_says_what_it_is():
    ref = Ref(RefKind.MEMBER, "ruby", enum="Gem")
    assert ref.is_(RefKind.MEMBER, RefKind.ENUM) and not ref.is_(RefKind.ENUM)
    assert kind_of(A.Name("ruby", ref=ref)) is RefKind.MEMBER
    assert kind_of(A.Name("ruby")) is None and kind_of(A.Block([])) is None
