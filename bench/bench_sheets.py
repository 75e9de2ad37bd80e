"""Sheets of paper and card per kit: builds every kit (PDF only) on A4 and Letter and prints, from
each kit's manifest, how many sheets kit.pdf takes: the print guide, the packed card and paper
parts (with the area bound: total area over the printable area), whole pages and the booklet.

Run from the repository root: ``.venv/bin/python bench/bench_sheets.py``."""

from __future__ import annotations

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from generator.kits.plan import BuildRequest
from generator.kits.run import run_build


def main() -> None:
    """Print a table of sheets per kit for A4 and Letter."""
    for paper in ("a4", "letter"):
        with tempfile.TemporaryDirectory() as out:
            run_build(BuildRequest(all_games=True, paper=paper, formats=("pdf",), out=out))
            print(
                f"{paper}: kit | guide | card parts | paper parts | whole pages | booklet | total | without guide and aid-only sheets"
            )
            for kit in sorted(os.listdir(out)):
                path = os.path.join(out, kit, "manifest.json")
                if not os.path.isfile(path):
                    continue
                with open(path, encoding="utf-8") as handle:
                    sheets = json.load(handle)["kit"]["sheets"]
                guide = sum(s["parts"] == ["print-guide"] for s in sheets)
                booklet = sum(s["parts"] == ["booklet"] for s in sheets)
                card = sum(s["packed"] and s["stock"] == "card" for s in sheets)
                paper_parts = sum(s["packed"] and s["stock"] == "paper" for s in sheets)
                whole = len(sheets) - guide - booklet - card - paper_parts
                aid_only = sum(s["parts"] == ["aid"] for s in sheets)
                same = len(sheets) - guide - aid_only
                print(
                    f"{kit} | {guide} | {card} | {paper_parts} | {whole} | {booklet} | {len(sheets)} | {same}"
                )


if __name__ == "__main__":
    main()
