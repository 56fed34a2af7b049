"""Compare two ``kgqa evaluate`` runs item by item (their ``items.jsonl``): every field but
the latency must be equal for a change that should not change answers (a pure move).

    python scripts/compare_items.py out/before/items.jsonl out/after/items.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

IGNORED = frozenset({"latency_ms"})
"""Fields that differ from run to run by nature."""


def read(path: Path) -> dict[tuple[str, str], dict[str, object]]:
    """Items by (id, language string)."""
    items = {}
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if line.strip():
                item = json.loads(line)
                items[(item["id"], item["lang"])] = {k: v for k, v in item.items() if k not in IGNORED}
    return items


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    before, after = read(args.before), read(args.after)
    differ = [key for key in sorted(before.keys() & after.keys()) if before[key] != after[key]]
    for key in differ[:20]:
        fields = sorted(f for f in before[key].keys() | after[key].keys() if before[key].get(f) != after[key].get(f))
        print(f"{key[0]} [{key[1]}]: {', '.join(fields)}")
    only = sorted(before.keys() ^ after.keys())
    print(f"items: {len(before)} before, {len(after)} after, {len(only)} in one run only; "
          f"{len(differ)} differ (every field but {', '.join(sorted(IGNORED))})")
    return 1 if differ or only else 0


if __name__ == "__main__":
    sys.exit(main())
