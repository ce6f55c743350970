"""The generator's version and code fingerprint, which key cached orgs. Light on purpose: a run
on a cached org names its file with these, and importing `build` loads every generator module."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

GENERATOR_VERSION = "2.2"


@functools.cache
def source_fingerprint() -> str:
    """A digest of the code that decides an org's content (this package, the schema, Ids, the
    store): cached orgs are keyed by it as well as by GENERATOR_VERSION, so an edited generator
    never reuses an org built by other code, whether or not the version was bumped."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for path in sorted(here.glob("*.py")) + [here.parent / name for name in ("schema.py", "ids.py", "store.py")]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:10]
