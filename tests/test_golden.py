"""Every game plays exactly as its fingerprints in tests/golden/games.json say (see tests/golden.py)."""
import json

import pytest

import golden

WANT = json.loads(golden.GOLDEN.read_text())


@pytest.mark.parametrize("key,fingerprint", list(golden.cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_game_plays_as_its_fingerprint(key, fingerprint):
    assert key in WANT, f"no fingerprint for {key}: run `python tests/golden.py --write` if the case is new"
    assert fingerprint() == WANT[key], (f"{key} plays differently: if its rules, log lines or labels were meant "
                                        "to change, run `python tests/golden.py --write`")


def test_every_fingerprint_has_a_case():
    keys = {key for key, _ in golden.cases()}
    assert set(WANT) <= keys, f"fingerprints without a case: {sorted(set(WANT) - keys)[:5]}"
