"""`wishdsl new NAME --extends GAME`: a starter house rule that checks, with a scenario file beside it that
passes; nothing overwritten, bad names and unreachable folders refused with nothing written."""
import shutil
from pathlib import Path

import pytest

from dsl.errors import WishError
from dsl.fmt import format_source
from dsl.front import check_all
from wishdsl.cli import main
from wishdsl.scenario import run_paths
from wishdsl.starter import new_house_rule

WM = Path("games/wunschmaschine.wish")


@pytest.fixture
def game(tmp_path):
    """Wunschmaschine in a folder of its own, outside any project."""
    shutil.copy(WM, tmp_path / "wunschmaschine.wish")
    return tmp_path / "wunschmaschine.wish"


def test_a_starter_house_rule_checks_and_its_scenario_passes(game, capsys):
    assert main(["new", "quick_game", "--extends", str(game)]) == 0
    rule, scenario = game.parent / "house" / "quick_game.wish", game.parent / "house" / "quick_game.yaml"
    text = rule.read_text(encoding="utf-8")
    assert 'extends "../wunschmaschine.wish"' in text and 'game "Wunschmaschine — quick game"' in text
    assert "#   param coins_to_win: int = 5" in text and "Its procedures: round, lay_row" in text
    assert (game.parent / ".wishroot").exists()  # the game's folder made a project, so house/ may extend it
    assert check_all(str(rule)).sym.game.name == "Wunschmaschine — quick game"
    assert format_source(text, str(rule)) == text  # already in `wishdsl fmt`'s layout
    assert [r.ok for r in run_paths([str(scenario)])] == [True]
    assert "its scenario passes" in capsys.readouterr().out


def test_the_parameters_listed_are_those_of_the_game_extended(game):
    house = game.parent / "house"
    house.mkdir()
    (game.parent / ".wishroot").write_text("")
    shutil.copy("games/house/wunschmaschine_3_coins.wish", house / "three.wish")
    rule, _, marker = new_house_rule("shorter", str(house / "three.wish"), str(game.parent / "more"))
    assert marker is None and "#   param coins_to_win: int = 3" in Path(rule).read_text(encoding="utf-8")


def test_nothing_is_overwritten_and_a_bad_name_is_refused(game):
    new_house_rule("mine", str(game))
    before = (game.parent / "house" / "mine.wish").read_text(encoding="utf-8")
    with pytest.raises(WishError, match="exists already"):
        new_house_rule("mine", str(game))
    assert (game.parent / "house" / "mine.wish").read_text(encoding="utf-8") == before
    for bad in ("Mine", "my-rule", "1st", "../up", ""):
        with pytest.raises(WishError, match="lower-case letters"):
            new_house_rule(bad, str(game))


def test_a_folder_the_game_cannot_be_extended_from_leaves_nothing(game, tmp_path):
    elsewhere = tmp_path.parent / (tmp_path.name + "-elsewhere")
    with pytest.raises(WishError) as refused:
        new_house_rule("far", str(game), str(elsewhere))
    assert "lies outside the game's folder tree" in refused.value.render()
    assert not list(elsewhere.glob("*")) and not (game.parent / ".wishroot").exists()
