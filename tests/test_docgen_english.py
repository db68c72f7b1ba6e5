"""Rule cheat-sheets (issue 5): the English of single constructs, `@reads` phrases, and the rulebook facts of Wish.

The phrase book below is a table of (source, expected English): each row is one statement or expression in a
small game; a good phrase must stay good.
"""
import re

import pytest

from docgen.english import English, describe_decl
from docgen.render import render_sheet
from dsl import ast as A
from dsl.errors import WishCheckError
from dsl.front import front_end
from dsl.parser import parse

HEAD = '''
game "Phrases" { players 2..4 }
enum Crystal { ruby "Ruby", sapphire "Sapphire" }
enum Act { travel "Travel", trade "Trade" }
card Gem {
  points: int
  color: Crystal
  active in kept
}
zone deck: Gem hidden
@reads("discard pile")
zone pile: Gem public
@reads("kept Gems")
player zone kept: Gem public
player zone hand: Gem owner
player var crystals: bag of Crystal = {}
player var coins: int = 0 min 0
player var home: Crystal? = none
player var ready: bool = false
var supply: bag of Crystal = {ruby: 5, sapphire: 5}
var over: bool = false
@reads("{player's} turn is over")
player var done: bool = false
@reads("{player} have used a Potion")
player var drunk: bool = false
var leader: player? = none
var first_player: player = first(players)
@reads("the Crystals stored for {c}")
var store[c: Crystal]: int = 0
param bonus: int = 0
cards Gem in deck {
  | name    | points | color    |
  | "Big"   | 5      | ruby     |
  | "Small" | 1      | sapphire |
}
@reads("{p} find {g}")
event found(p: player, g: Gem)
@reads("{p} hold a Ruby")
function has_ruby(p: player): bool = p.crystals[ruby] > 0
@reads("{p} may take the {a} action now")
function may(p: player, a: Act): bool = not p.ready
@reads("the number of {p's} kept Gems of colour {c}")
function kept_of(p: player, c: Crystal): int = count(g for g in p.kept if g.color == c)
@reads("{p} gain {n} Crystal[s] of any colour[s]")
procedure gain_any(p: player, n: int) {
  repeat n {
    choose x from Crystal by p prompt "Gain a Crystal"
    transfer bag(x, 1) from supply to p.crystals
  }
}
@reads("{p} gain one {x}")
procedure gain(p: player, x: Crystal) {
  transfer bag(x, 1) from supply to p.crystals
}
play { }
action shine() {
  log you, "finds a gem"
}
abilities "Big" {
  when found(p, g) if p == you and g != self after action {
    gain(you, ruby)
  }
  static bonus += if has_ruby(you) then 3 else 0
}
abilities "Small" {
  when found(p, g) if p != you {
    gain(p, sapphire)
  }
}
'''

# (statement in a procedure `probe(p: player, q: player, g: Gem)`, its English)
PHRASES = [
    ("p.coins = p.coins - (q.coins - 1)", "Set the player's coins to the player's coins minus (the other player's "
                                           "coins minus 1)."),
    ("p.coins = p.coins - q.coins - 1", "Set the player's coins to the player's coins minus the other player's coins "
                                         "minus 1."),
    ("p.coins = (p.coins + 1) * 2", "Set the player's coins to (the player's coins plus 1) times 2."),
    ("p.coins = 2 * (p.coins + q.coins)", "Set the player's coins to 2 × (the player's coins plus the other "
                                           "player's coins)."),
    ("p.coins = q.coins * 2 + (p.coins - 1) % 3", "Set the player's coins to the other player's coins times 2 plus "
                                                   "(the player's coins minus 1) modulo 3."),
    ("gain_any(p, 2)", "The player gains 2 Crystals of any colours."),
    ("gain_any(p, 1)", "The player gains 1 Crystal of any colour."),
    ("for r in after(p) { gain_any(r, 1) }", "Each other player (in turn order after the player) gains 1 Crystal of "
                                              "any colour."),
    ("for r in after(p) { gain_any(r, 1)\n gain_any(p, 1) }", "For each other player, in turn order after the "
     "player:\n  That player gains 1 Crystal of any colour.\n  The player gains 1 Crystal of any colour."),
    ("gain(p, g.color)", "The player gains one color of the Gem."),
    ("if has_ruby(p) { over = true }", "If the player holds a Ruby:\n  Set the over to true."),
    ("if not has_ruby(q) { over = true }", "If that player does not hold a Ruby:\n  Set the over to true."),
    ("if not may(p, travel) { over = true }", "If the player may not take the Travel action now:\n"
                                               "  Set the over to true."),
    ("p.coins += kept_of(p, ruby)", "The player gains as many coins as the number of the player's kept Gems of "
                                    "colour Ruby."),
    ("p.coins += 2", "The player gains 2 coins."),
    ("p.coins -= 1", "The player loses 1 coin."),
    ("store[ruby] += 1", "Add 1 to the Crystals stored for Ruby."),
    ("transfer p.crystals from p.crystals to supply", "Move everything in the player's crystals to the supply."),
    ("move g to pile face up", "Move the Gem to the discard pile face up."),
    ("move top 1 of deck to p.hand", "Move the top card of the deck to the player's hand."),
    ("leader = none", "Set the leader to nobody."),
    ("p.ready = count(p.kept) > 2", "Set the player's ready to whether the number of the player's kept Gems is "
                                    "more than 2."),
    ("leader = random(players)", "Set the leader to a player chosen at random."),
    ("if count(p.crystals) > 0 { over = true }", "If the player's crystals are not empty:\n  Set the over to true."),
    ("if count(after(p)) > 0 { over = true }", "If there are other players:\n  Set the over to true."),
    ("if p.home != none { over = true }", "If the player has a home Crystal:\n  Set the over to true."),
    ("for r in [first_player] + after(first_player) { r.ready = true }",
     "For each player, in turn order from the first player:\n  Set that player's ready to true."),
    ("choose pick from [\"yes\", \"no\"] by p prompt \"Sure?\"\nif pick == \"yes\" { over = true }",
     "The player chooses “yes” or “no” (“Sure?”).\nIf the player chose “yes”:\n"
     "  Set the over to true."),
    ("if count(c for c in p.kept if c.points > 3) == 0 { over = true }",
     "If there are no the player's kept Gems whose points is more than 3:\n  Set the over to true."),
    ("emit found(p, g)", "(Event: the player finds the Gem.)"),
    ("log p, \"finds a gem\"", "(Note: The player finds a gem.)"),
    ("p.done = true", "From now on, the player's turn is over."),
    ("if not p.done { p.drunk = true }",
     "If the player's turn is not over:\n  From now on, the player has used a Potion."),
    ("if not q.drunk and p.drunk { p.done = false }", "If the other player has not used a Potion and the player has used a "
                                                       "Potion:\n  From now on, the player's turn is not over."),
    ("if not (p.coins < 3) { over = true }", "If the player's coins are at least 3:\n  Set the over to true."),
    ("if not (p.coins > 3) { over = true }", "If the player's coins are at most 3:\n  Set the over to true."),
    ("repeat count(p.kept) { over = true }", "Repeat as many times as the number of the player's kept Gems:\n"
                                            "  Set the over to true."),
]


@pytest.fixture(scope="module")
def phrasebook():
    """One game holding every row of PHRASES as its own procedure (parsed and checked once)."""
    procs = "".join(f"procedure probe_{i}(p: player, q: player, g: Gem) {{\n{src}\n}}\n"
                    for i, (src, _) in enumerate(PHRASES))
    text = HEAD + procs
    c = front_end(parse(text, "<phrases>"))
    return c.decls, c.sym


@pytest.mark.parametrize("i", range(len(PHRASES)), ids=[src.split("\n")[0][:40] for src, _ in PHRASES])
def test_phrase_book(phrasebook, i):
    decls, sym = phrasebook
    proc = next(d for d in decls if isinstance(d, A.Procedure) and d.name == f"probe_{i}")
    en = English(sym)
    assert "\n".join(en.describe(st) for st in proc.body.stmts) == PHRASES[i][1]


def test_triggers_fold_their_tests_on_binders_into_the_head(phrasebook):
    decls, sym = phrasebook
    en = English(sym)
    big, small = [d for d in decls if isinstance(d, A.Abilities)]
    assert en.describe(big.triggers[0]).splitlines() == [
        "Whenever you find another Gem, after the current action has fully resolved:",
        "  You gain one Ruby."]
    assert en.describe(small.triggers[0]).splitlines() == [
        "Whenever another player finds the Gem:",
        "  That player gains one Sapphire."]
    assert en.describe(big.statics[0]) == "Ongoing: If you hold a Ruby, add 3 to the bonus."


def test_a_log_line_agrees_with_you(phrasebook):
    decls, sym = phrasebook
    shine = next(d for d in decls if isinstance(d, A.Action) and d.name == "shine")
    assert English(sym).describe(shine.body.stmts[0]) == "(Note: You find a gem.)"


def test_describe_decl_renders_one_declaration(phrasebook):
    decls, sym = phrasebook
    gain_any = next(d for d in decls if isinstance(d, A.Procedure) and d.name == "gain_any")
    assert describe_decl(gain_any, sym).splitlines() == [
        "Gain any:",
        "  Repeat N times:",
        "    The player chooses a Crystal (“Gain a Crystal”).",
        "    Move the Crystal from the supply to the player's crystals."]


@pytest.mark.parametrize("annot, decl, message", [
    ('@reads("{p} finds {nobody}")', "event seen(p: player)", "unknown parameter in @reads 'nobody'"),
    ('@reads("x")', "enum Shout { loud }", "@reads belongs on a function, procedure, event, action, variable or zone"),
    ('@reads("shout at {who}")', "action shout() { }", "unknown parameter in @reads 'who'"),
    ('@reads("{p} is over")', "var gone: bool = false", "unknown parameter in @reads 'p'"),
    ('@reads("x")', "when found(p, g) { }",
     "@reads belongs on a function, procedure, event, action, variable or zone"),
    ("@reads", "event seen(p: player)", "@reads needs a phrase"),
])
def test_reads_is_checked(annot, decl, message):
    with pytest.raises(WishCheckError) as err:
        check_text(HEAD + annot + "\n" + decl + "\n")
    assert message in "\n".join(d.message for d in err.value.diagnostics)


def check_text(text):
    return front_end(parse(text, "<t>")).sym


# ---------------------------------------------------------------- Wish: the rulebook's facts are on the sheet

WISH_AREAS = {  # rulebook, "Map Areas and Manifest Abilities"
    "Dark Temple": "Draw a Wish card from the discard pile. Discard a Wish card.",
    "Cataracts": "Gain 2 Crystals of any color(s). Each other player gains 1 Crystal of any color.",
    "Palace Gardens": "Draw a Wish card. Discard a Wish card.",
    "Palace": "Look at an opponent's hand. You may swap a Wish card from your hand with one of theirs.",
    "Forest": "Gain 1 Crystal of any color.",
    "Ruins": "Teleport anywhere on the map.",
    "Oasis": "Trade with the Caravan. As if you were in the same Area as the Caravan meeple.",
    "Sandhills": "Discard all cards in the Offer and replace them with 3 cards from the top of the Wish deck. "
                 "Draw a Wish card. Discard a Wish card.",
    "Mountain Caves": "Gain 1 Potion token.",
    "Volcano": "Gain 1 Victory Point.",
    "Trade Market": "Spend 1 Crystal. Gain 2 Crystals of any other color(s).",
    "Dock": "Gain 1 Trickery token.",
}
WISH_DJINNS = {  # rulebook, "Djinn Asymmetrical Abilities": (passive, active)
    "Water Djinn": ("Ocean's Plenty", "Ice Dibs"), "Fire Djinn": ("Omnipotent", "Fiery Clone"),
    "Air Djinn": ("Sky's Blessing", "Cloudbearer"), "Earth Djinn": ("Providence", "Harvest"),
}
WISH_CARDS_PRINTED = [  # names the rulebook prints (clarifications, examples, solo mode)
    "A Child", "Abundance", "Inner Peace", "Immortality", "Sultan", "True Love", "Efreeti", "Authority", "Beauty",
    "Broken Heart", "Charm", "Connections", "Friendship", "Sharing", "Cure Me", "Steady Income", "Eye for an Eye",
    "Fall in Love", "Happily Ever After", "Make me Younger", "More Gold", "Wreak Havoc", "Glory", "Forgiveness",
    "Fresh Start", "Heal Them", "Hatred", "Hurt", "Kingdom", "To see the world", "Richest Merchant", "Soulmates",
    "Jewelry"]
WISH_DESTINIES = ["Arcanist", "Dark Side", "Djinning the Moment", "Light Side", "Long Term Plans", "Open Sesame",
                  "Overpowered", "Royalty", "Shaman", "Stolen Goods", "Underdjinn", "Wishmaster"]
WISH_ACTIONS = ["Travel", "Empower", "Manifest", "Caravan trade", "Fulfill", "Build", "Ice dibs", "Harvest",
                "Fiery clone", "Cloudbearer", "Trade", "End turn"]
WISH_SCORING = ["1. Victory Points of your fulfilled Wishes", "2. Victory Point tokens", "3. Ongoing Wishes",
                "4. Monument Badges", "5. Destiny"]
WISH_TIES = ["Monument Badges", "Crystals", "Wishes fulfilled"]


@pytest.fixture(scope="module")
def wish_md():
    return render_sheet("games/wish.wish", None, "md")


def test_wish_sheet_has_every_area_with_its_manifest_ability(wish_md):
    for area, ability in WISH_AREAS.items():
        assert re.search(rf"^\| {re.escape(area)} †\d+ \|.*\| {re.escape(ability)} \|$", wish_md, re.M), area


def test_wish_sheet_has_each_djinn_with_both_powers(wish_md):
    for djinn, (passive, active) in WISH_DJINNS.items():
        row = next(line for line in wish_md.splitlines() if line.startswith(f"| {djinn} "))
        assert f"| {passive}: " in row and f"| {active}: " in row, djinn


def test_wish_sheet_has_every_card_action_and_scoring_step(wish_md):
    cards = re.findall(r"^\| ([^|†]+?)(?: †\d+)? \| 1 \| (?:red|blue|purple|white|green|yellow) \|", wish_md, re.M)
    assert len(cards) == 42 and len(set(cards)) == 42
    assert set(WISH_CARDS_PRINTED) <= set(cards)
    for name in WISH_DESTINIES:
        assert re.search(rf"^\| {re.escape(name)} \| 1 \| Gain \d VP ", wish_md, re.M), name
        assert f"### {name}\n" in wish_md  # its ability, in words
    for name in WISH_ACTIONS:
        assert f"### {name}\n" in wish_md, name
    for label in WISH_SCORING:
        assert f"- **{label}**: " in wish_md, label
    ties = wish_md.split("Ties are broken by, in this order:")[1]
    for i, label in enumerate(WISH_TIES, 1):
        assert f"{i}. **{label}**: " in ties, label
    assert "The highest score wins. Players still tied share the win." in wish_md


def test_wish_sheet_reads_as_a_rulebook(wish_md):
    """Phrases a player reads on the Wish sheet (each was once mechanical)."""
    for phrase in [
        "- The player gains 2 Crystals of any colours.\n  - Each other player (in turn order after the player) gains 1 "
        "Crystal of any colour.",
        "**Ongoing.** Whenever you fulfill another Wish from the site, after the current action has fully resolved",
        "Whenever another player fulfills the Wish from the site",
        "- You gain one crystal of this card's color.",
        "Only if you may take the Travel action now; otherwise: “no free action column shows Travel”.",
        "*Choose:* the destination from the neighbours of your Area; the column: column 1, column 2, column 3, the "
        "middle column or a Potion.",
        "**Ongoing.** If Magic Tower is in your badges and the number of your fulfilled Wishes of colour white is "
        "more than 0 and the number of your fulfilled Wishes of colour yellow is more than 0, add 6 to your "
        "destiny VP.",
        "- Play goes on as long as this is not the last round, checked before each pass of “Play a round”: a "
        "pass already begun is played to its end by everyone, then the game ends once the play sequence is "
        "over.\n  - “This is the last round” is set in:\n    - Caravan moves, if the Caravan deck is "
        "empty.",
        "- From now on, this is the last round.",
        "- Only if your turn is not over; otherwise: “your turn is over”.",
        "- (Event: you fulfill the Wish from the site.)",
        "Whenever a card leaves the Offer:",
        "- You choose a Crystal to take from the colours you can take in a trade",
        "  - You choose a Crystal to give from the kinds of Crystals in your crystals other than the Crystal to take",
        "- For each other player, in turn order from you:\n  - You take one of that player's Crystals.",
        "Following next: Sandhills → Oasis → Palace Gardens",
    ]:
        assert phrase in wish_md, phrase
    for bad in ["Whenever “", "happens (", "your Area's adjacent", "You gain any", "color's crystal", "the your",
                "**1. 1."]:
        assert bad not in wish_md, bad
