"""Write the palette's CMYK table into docs/print-shop.md (between its two table markers): every
palette colour of every built-in game with the CMYK inks ``pnp build --cmyk`` writes for it.

Run: .venv/bin/python tools/cmyk_table.py   (tests/foundation/test_print_shop.py checks it is current)
"""

from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator.definitions.loader import load_all  # noqa: E402
from generator.model.colour import cmyk  # noqa: E402

DOC = os.path.join(ROOT, "docs", "print-shop.md")
START = "<!-- cmyk table: made by tools/cmyk_table.py -->"
END = "<!-- end of cmyk table -->"


def table() -> str:
    """Return the markdown table: game, colour name, RGB and C M Y K in percent."""
    rows = ["| game | colour | RGB | C | M | Y | K |", "|---|---|---|---:|---:|---:|---:|"]
    for definition in load_all(lang="en"):  # the built-in games (sorted by id), not a reader's own
        for name, value in sorted(definition.palette.items()):
            inks = " | ".join(f"{v * 100:.1f}" for v in cmyk(value))
            rows.append(f"| {definition.id} | {name} | `{value}` | {inks} |")
    return "\n".join(rows)


def main() -> None:
    """Rewrite the table in docs/print-shop.md."""
    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    before, _, rest = text.partition(START)
    _, _, after = rest.partition(END)
    with open(DOC, "w", encoding="utf-8") as handle:
        handle.write(f"{before}{START}\n{table()}\n{END}{after}")


if __name__ == "__main__":
    main()
