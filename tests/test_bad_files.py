"""Broken .wish files, each with the errors it must produce written inside it (jlox's `// expect error:`).

    # expect error: LINE:COL: message (the diagnostic's message starts with this)
    # expect hint: text            (the hint of the error just above)

Every file must produce exactly the errors it lists, no more.
"""
import re
from pathlib import Path

import pytest

from dsl.errors import WishError
from dsl.front import check_all

BAD = sorted((Path(__file__).parent / "bad").glob("*.wish"))
EXPECT = re.compile(r"#\s*expect (error|hint):\s*(.*)$")


def expectations(path: Path):
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = EXPECT.search(line)
        if not m:
            continue
        if m.group(1) == "error":
            pos, msg = m.group(2).split(": ", 1)
            ln, col = (int(x) for x in pos.split(":"))
            out.append({"line": ln, "col": col, "message": msg.strip(), "hint": None})
        else:
            out[-1]["hint"] = m.group(2).strip()
    return out


def diagnostics(path: Path):
    try:
        check_all(path)
    except WishError as err:
        return err.diagnostics, err.render()
    return [], ""


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_file_reports_exactly_its_errors(path):
    expected = expectations(path)
    assert expected, f"{path.name} lists no expected error"
    diags, rendered = diagnostics(path)
    got = [(d.span.line, d.span.col, d.message, d.hint) for d in diags]
    for e in expected:
        match = [g for g in got if g[0] == e["line"] and g[1] == e["col"] and g[2].startswith(e["message"])]
        assert match, f"expected {e['line']}:{e['col']}: {e['message']!r}; got:\n" + "\n".join(map(str, got))
        if e["hint"] is not None:
            assert any(g[3] == e["hint"] for g in match), f"hint {e['hint']!r} not in {match}"
    assert len(got) == len(expected), "unexpected extra errors:\n" + "\n".join(map(str, got))
    assert "Traceback" not in rendered
    first = expected[0]
    assert f"{path}:{first['line']}:{first['col']}: error: " in rendered
    assert "^" in rendered


def test_every_game_file_checks_clean():
    paths = sorted(Path("games").glob("*.wish")) + sorted(Path("games/house").glob("*.wish"))
    assert len(paths) >= 9
    for path in paths:
        check_all(path)
