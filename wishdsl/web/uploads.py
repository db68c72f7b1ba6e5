"""House rules uploaded to a server started with `--allow-uploads`.

An upload is a `.wish` file's text (at most MAX_UPLOAD characters) and a name. It is written into the uploads
folder (by default `uploads/` in the first folder the server offers, so that `extends "../wish.wish"` reads as
in `games/house/`), checked as `wishdsl check` checks a file — the same parser, checker and limits, `extends`
confined to the game's project and the offered folders — and offered like the other games. A file that does not
check is removed again and its diagnostics are the answer. A file is never overwritten: its name carries the
first characters of its text's SHA-256."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from dsl.errors import WishError

MAX_UPLOAD = 64_000  # characters: Wish's largest house rule has about 2,000


def save_upload(catalog, folder: Path, name: str, text: str):
    """Write, check and offer an uploaded house rule; the catalog's entry for it. Raises WishError (with the
    checker's diagnostics) when it does not check; nothing is kept then."""
    from dsl.front import check_all

    if not isinstance(text, str) or not text.strip():
        raise WishError("the upload is empty: choose a .wish file")
    if len(text) > MAX_UPLOAD:
        raise WishError(f"the upload has {len(text):,} characters; a house rule here has at most {MAX_UPLOAD:,}")
    slug = re.sub(r"[^a-z0-9]+", "_", (name or "").lower().removesuffix(".wish")).strip("_")[:40] or "house_rule"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{slug}-{digest}.wish"
    known = catalog.entry_at(target)
    if known is not None:
        return known  # the same text uploaded again
    target.write_text(text, encoding="utf-8")
    try:
        check_all(str(target), catalog.allow)
        entry = catalog.add(target)
    except WishError as err:
        target.unlink()
        raise WishError(err.render().replace(str(target), target.name)) from None
    if entry.error is not None:
        target.unlink()
        catalog.remove(target)
        raise WishError(entry.error)
    return entry
