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


def test_a_tree_built_by_other_code_is_parsed_again(tmp_path, monkeypatch):
    """An entry stored by another version of the modules that build the tree is a miss (a changed builder would
    otherwise hand back the old tree for an unchanged file)."""
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = 'game "A" { players 1..2 }\nplay { }\n'
    parse(text, "a.wish")
    monkeypatch.setattr(cache, "builders_digest", lambda: "another builder")
    parse(text, "a.wish")
    assert len(list((tmp_path / "wishdsl" / "ast").glob("*.json"))) == 2


def test_the_builders_digest_covers_every_module_that_builds_the_tree():
    """Every module of the package that the parser reaches (its imports, and theirs) is in the digest, but for
    the cache itself and the error messages (a file with errors is never stored)."""
    import re

    here = Path(cache.__file__).parent
    seen, todo = set(), ["parser.py"]
    while todo:
        name = todo.pop()
        if name in seen or name in ("cache.py", "errors.py"):
            continue
        seen.add(name)
        text = (here / name).read_text(encoding="utf-8")
        todo += [f"{m}.py" for m in re.findall(r"^\s*from \.(\w+) import", text, re.M)]
        todo += [f"{m}.py" for m in re.findall(r"^\s*from \. import (\w+)", text, re.M)]
    assert seen == set(cache.BUILDERS)


def test_a_damaged_cache_file_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = 'game "A" { players 1..2 }\nplay { }\n'
    parse(text, "a.wish")
    (f,) = (tmp_path / "wishdsl" / "ast").glob("*.json")
    f.write_text('{"_": "os.system", "x": 1}', encoding="utf-8")
    assert parse(text, "a.wish").decls[0].name == "A"


def _bad_entries(key, other_file):
    """Entries that are valid JSON (or nearly) but not this file's tree (issue 20, 10)."""
    import json

    good_head = lambda body: json.dumps({"format": cache.FORMAT, "key": key, "digest": cache._digest(key, body)})  # noqa: E731
    yield "junk", "not json at all"
    yield "a list", "[]"
    yield "a number", "5"
    yield "an old entry", '{"_": "Program", "decls": []}'
    wrong = '{"_":"Program","decls":[5],"span":null}'
    yield "a wrongly typed tree under a valid header", good_head('{"_":"Literal","value":1}') + "\n" + \
        '{"_":"Literal","value":1}'
    yield "an edited body", good_head(wrong) + "\n" + wrong.replace("5", "6")
    yield "deep JSON", good_head("[" * 100_000) + "\n" + "[" * 100_000 + "]" * 100_000
    yield "another file's tree", other_file.read_text(encoding="utf-8")


def test_an_entry_that_is_not_this_files_tree_is_a_miss_and_is_written_again(tmp_path, monkeypatch):
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "wishdsl" / "ast"
    parse('game "B" { players 1..2 }\nplay { }\n', "b.wish")
    (other,) = folder.glob("*.json")
    text = 'game "A" { players 1..2 }\nplay { }\n'
    first = parse(text, "a.wish")
    (mine,) = set(folder.glob("*.json")) - {other}
    good = mine.read_text(encoding="utf-8")
    for name, content in list(_bad_entries(mine.stem, other)):
        mine.write_text(content, encoding="utf-8")
        again = parse(text, "a.wish")
        assert again.decls[0].name == "A", name
        assert as_data(again) == as_data(first), name
        assert mine.read_text(encoding="utf-8") == good, name  # rewritten
