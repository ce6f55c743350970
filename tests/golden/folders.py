"""The stored golden run folders (made by tests/golden/make.py), unpacked for reading: imports no
project code, so a benchmark can time any tree's scoring on them."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent
RUNS = ("all", "pressure", "judged", "levels")


def unpacked(name: str, into: Path) -> Path:
    """A copy of the stored run folder `name` in `into`, its .gz files unpacked."""
    folder = into / name
    folder.mkdir()
    for path in (GOLDEN / name).iterdir():
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as src, (folder / path.stem).open("wb") as out:
                shutil.copyfileobj(src, out)
        else:
            shutil.copy(path, folder / path.name)
    return folder
