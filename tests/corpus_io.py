"""Recorded-game corpora (``tests/<game>/corpus/*.jsonl.gz``): one canonical JSON record per line,
gzipped without a timestamp or a file name, so the same records give the same bytes."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def read_records(path: Path) -> tuple[dict[str, Any], ...]:
    """The records of the corpus at ``path``, in order."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return tuple(json.loads(line) for line in fh if line.strip())


def write_records(records: Iterable[dict[str, Any]], path: Path) -> None:
    """Write ``records`` to ``path`` (its folder made if needed), reproducibly."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records)
    with path.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                               mtime=0, compresslevel=9) as gz:
        gz.write(text.encode("utf-8"))
