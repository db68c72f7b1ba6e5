"""`python -m docgen [OUT_DIR]`: regenerate the cheat-sheets of every game in games/ and what each house rule in
games/house/ changes (OUT_DIR/house/), default OUT_DIR: docs/."""
import sys
from pathlib import Path

from .diff import write_house_diffs
from .render import write_all

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = argv[0] if argv else str(ROOT / "docs")
    games = sorted((ROOT / "games").glob("*.wish"))
    for path in write_all([str(g.relative_to(ROOT)) for g in games], out):
        print("wrote", path)
    for path in write_house_diffs(ROOT / "games" / "house", Path(out) / "house", ROOT):
        print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
