"""The parse cache gives back exactly the tree a parse gives, and follows every change of the text."""
from pathlib import Path

import attrs

from dsl import cache
from dsl.parser import parse

WISH = Path(__file__).parent.parent / "games" / "wish.wish"


def as_data(node):
    return cache._encode(node)


def test_a_cached_parse_is_the_same_tree(tmp_path, monkeypatch):
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = WISH.read_text(encoding="utf-8")
    first = parse(text, str(WISH))
    files = list((tmp_path / "wishdsl" / "ast").glob("*.json"))
    assert len(files) == 1
    second = parse(text, str(WISH))
    assert second is not first
    assert as_data(second) == as_data(first)
    assert all(attrs.has(type(d)) for d in second.decls)


def test_a_changed_text_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    a = parse('game "A" { players 1..2 }\nplay { }\n', "a.wish")
    b = parse('game "B" { players 1..2 }\nplay { }\n', "a.wish")
    assert a.decls[0].name == "A" and b.decls[0].name == "B"
    assert len(list((tmp_path / "wishdsl" / "ast").glob("*.json"))) == 2


def test_a_damaged_cache_file_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = 'game "A" { players 1..2 }\nplay { }\n'
    parse(text, "a.wish")
    (f,) = (tmp_path / "wishdsl" / "ast").glob("*.json")
    f.write_text('{"_": "os.system", "x": 1}', encoding="utf-8")
    assert parse(text, "a.wish").decls[0].name == "A"
