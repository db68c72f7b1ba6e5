"""(source, expected) tables: small programs and the value a variable holds when they have run."""
import pytest

from interpreter import WishCheckError, WishRuntimeError, load_source
from interpreter import runtime
from interpreter.codegen_exprs import lasting_functions

PRELUDE = '''
game "T" { players 3..3 }
enum Crystal { ruby "Ruby", sapphire "Sapphire", emerald "Emerald" }
enum Area(crystals: bag of Crystal, adjacent: list of Area) {
  | member | display  | crystals               | adjacent        |
  | forest | "Forest" | {ruby: 1, sapphire: 1} | [dock, oasis]   |
  | dock   | "Dock"   | {sapphire: 2}          | [forest]        |
  | oasis  | "Oasis"  | {emerald: 1}           | [forest]        |
}
card Card { value: int = 0 }
zone deck: Card public
cards Card in deck {
  | name | count | value |
  | "A"  | 1     | 1     |
  | "B"  | 2     | 2     |
  | "C"  | 1     | 3     |
}
var people[a: Area]: int = count(a.crystals)
player var crystals: bag of Crystal = {}
'''

CASES = [
    ("int", "1 + 2 * 3 - 4 / 2", "5"),
    ("int", "-7 % 3", "2"),
    ("bool", "not (1 < 2) or 3 >= 3 and 2 != 2", "no"),
    ("int", "if 2 > 1 then 10 else 20", "10"),
    ("text", '"wish" + "dsl"', "wishdsl"),
    ("int", "sum(a * b for a in [1, 2, 3] for b in [10, 20] if b > a * 5)", "130"),
    ("int", "count(c for c in deck if c.value >= 2)", "3"),
    ("int", "max(c.value for c in deck)", "3"),
    ("int", "min(4, 9)", "4"),
    ("bool", "any(c.name == \"C\" for c in deck)", "yes"),
    ("bool", "all(c.value > 1 for c in deck)", "no"),
    ("list of int", "[c.value for c in top 2 of deck]", "1, 2"),
    ("list of int", "[c.value for c in bottom 1 of deck]", "3"),
    ("list of int", "[1, 2] + [3]", "1, 2, 3"),
    ("set of Crystal", "{emerald, ruby, emerald}", "Ruby, Emerald"),
    ("bag of Crystal", "forest.crystals + dock.crystals", "1 Ruby, 3 Sapphire"),
    ("bag of Crystal", "forest.crystals - {ruby: 1}", "1 Sapphire"),
    ("int", "count(forest.crystals + dock.crystals)", "4"),
    ("bool", "ruby in forest.crystals and not (ruby in dock.crystals)", "yes"),
    ("bool", "emerald not in forest.crystals", "yes"),
    ("Area", "first(forest.adjacent)", "Dock"),
    ("int", "count(a for a in Area if forest in a.adjacent)", "2"),
    ("int", "people[forest] + people[oasis]", "3"),
    ("player", "next(last(players))", "player 1"),
    ("list of player", "after(first(players))", "player 2, player 3"),
    ("text", "first(deck).name", "A"),
    ("int", "abs(3 - 10)", "7"),
]


def run(ty: str, expr: str) -> str:
    game = load_source(PRELUDE + f"var result: {ty}? = none\nplay {{ result = {expr} }}\nscoring p {{ score \"s\" 0 }}\n")
    st = game.new_state(3)
    v = game.gvars[game.gvar_index["result"]]
    return st.render(st.gvars[game.gvar_index["result"]], v.ty)


@pytest.mark.parametrize("ty,expr,expected", CASES, ids=[c[1] for c in CASES])
def test_expression_values(ty, expr, expected):
    assert run(ty, expr) == expected


EFFECTS = [
    ("p.crystals += forest.crystals\n p.crystals += {ruby: 2}", "3 Ruby, 1 Sapphire"),
    ("p.crystals = dock.crystals\n transfer {sapphire: 1} from p.crystals to q.crystals", "1 Sapphire"),
    ("p.crystals += {emerald: 1}\n p.crystals -= {emerald: 1}", "nothing"),
]


@pytest.mark.parametrize("body,expected", EFFECTS)
def test_bag_effects(body, expected):
    src = PRELUDE + f"play {{ let p = first(players)\n let q = last(players)\n {body} }}\nscoring p {{ score \"s\" 0 }}\n"
    game = load_source(src)
    st = game.new_state(3)
    i = game.pvar_index["crystals"]
    assert st.render(st.pvars[0][i], game.pvars[i].ty) == expected


def test_keyed_variable_changes_fire_their_trigger_with_the_key():
    src = PRELUDE + '''var log_text: text = ""
when changed people(a, old, new) { log_text = log_text + a.crystals_text }
play { people[dock] += 5 }
scoring p { score "s" 0 }
'''
    with pytest.raises(WishCheckError) as info:
        load_source(src)  # crystals_text is no field of Area: a check error, not a crash
    assert "unknown field of Area 'crystals_text'" in info.value.render()
    src = src.replace("a.crystals_text", '"x"')
    game = load_source(src)
    st = game.new_state(3)
    assert st.gvars[game.gvar_index["log_text"]] == "x"
    assert st.kvars[game.kvar_index["people"]] == [2, 7, 1]


def test_a_bag_never_goes_negative():
    src = PRELUDE + "play { first(players).crystals -= {ruby: 1} }\nscoring p { score \"s\" 0 }\n"
    with pytest.raises(WishRuntimeError) as info:
        load_source(src).new_state(3)
    assert "negative" in str(info.value)


MORE = [
    ("list of int", "rest([4, 5, 6])", "5, 6"),
    ("list of int", "remove([4, 5, 4], 4)", "5, 4"),
    ("bag of Crystal", "bag(emerald, 2) + bag(ruby, 1)", "1 Ruby, 2 Emerald"),
    ("int", "(forest.crystals + dock.crystals)[sapphire]", "3"),
    ("list of Crystal", "members(forest.crystals + bag(emerald, 0))", "Ruby, Sapphire"),
]


@pytest.mark.parametrize("ty,expr,expected", MORE, ids=[c[1] for c in MORE])
def test_list_and_bag_builtins(ty, expr, expected):
    assert run(ty, expr) == expected


LASTING = [
    ("function f(x: int): int = x + 1", True),
    ("function f(a: Area): int = count(a.crystals) + count(a.adjacent)", True),  # enum data does not change
    ("function f(x: int): int = if x > 0 then f(x - 1) else 0", True),  # calls itself only
    ("function f(xs: list of int): bool = count(xs) == 0 or any(x > 1 for x in rest(xs))", True),
    ("function f(p: player): int = count(p.crystals)", False),  # a player variable
    ("function f(): int = people[forest]", False),  # a keyed variable
    ("function f(): int = count(deck)", False),  # a zone's cards
    ("function f(c: Card): int = c.value", False),  # a card's identity changes between samples
    ("function f(p: player): player = next(p)", False),  # the number of players
    ("function g(p: player): int = count(p.crystals)\nfunction f(p: player): int = g(p) + 1", False),
    ("function g(x: int): int = if x > 0 then f(x - 1) else people[forest]\n"
     "function f(x: int): int = if x > 0 then g(x - 1) else 0", False),  # in a cycle with one that reads
]


@pytest.mark.parametrize("decls,lasting", LASTING, ids=[c[0] for c in LASTING])
def test_functions_that_read_only_their_arguments_keep_their_results(decls, lasting):
    game = load_source(PRELUDE + decls + "\nplay { }\nscoring p { score \"s\" 0 }\n")
    assert ("f" in lasting_functions(game.sym.functions)) == lasting


def test_kept_results_stay_right_when_the_full_cache_starts_again(monkeypatch):
    monkeypatch.setattr(runtime, "LASTING_LIMIT", 5)
    game = load_source(PRELUDE + "function f(x: int): int = if x > 0 then f(x - 1) + x else 0\n"
                       "var result: int = 0\nplay { for n in [3, 10, 4, 10] { result = result + f(n) } }\n"
                       "scoring p { score \"s\" 0 }\n")
    st = game.new_state(3)
    assert st.gvars[game.gvar_index["result"]] == 6 + 55 + 10 + 55
