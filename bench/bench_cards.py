"""Benchmark: a designer's deck of N cards built into kit.pdf, the whole kit included (issue 31).

Run: .venv/bin/python bench/bench_cards.py [--cards 100,1000,2000] [--runs 5] [--deck art|starter|both]

Each case writes a definition folder in a temporary directory: the kit ``pnp new`` writes (a
board, a map, a hex map, a track, counters, standees, dice, a score pad, a quick reference and
the rule booklet), its deck made N cards long (a deck's CSV holds at most 1000 rows, so 2000
cards are 1000 rows of 2 copies). With ``--deck starter`` the deck is the starter's
own (a band, a title, a symbol and a text on each card); with ``--deck art`` (the target of issue
31) each card also shows a picture (one of three PNG photographs and three SVG drawings, by row),
and its text is long enough to wrap and shrink in its box and holds an icon inside the text (a
symbol such as ``:star:`` or an ``[icons]`` picture, PNG or SVG, by row). The kit is built with
``pnp build GAME --layouts DIR --format pdf --quiet`` in a fresh process, start-up included.

Prints, for each deck and card count, the median of the runs of the wall time, the CPU time
(user and system, of the process and its workers) and the peak resident memory (``ru_maxrss`` of
the process and its workers, the largest), and the size of kit.pdf.
Unset ``PYTHONDONTWRITEBYTECODE`` when timing: without cached bytecode every run compiles the
sources again (about 0.6 s).
"""

from __future__ import annotations

import argparse
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = "deckbench"
MAX_ROWS = 1000

PNG_COLOURS = [(200, 80, 60), (60, 140, 200), (90, 170, 90)]
SVG_ART = [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 70">'
    '<rect width="100" height="70" fill="#f4e3c1"/>'
    '<path d="M0 70 L30 25 L50 50 L70 15 L100 70 Z" fill="#6b8e23" stroke="#333" stroke-width="1.5"/>'
    '<circle cx="80" cy="18" r="9" fill="#e69f00"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 70">'
    '<rect width="100" height="70" fill="#d9ecf7"/>'
    '<g fill="#0072b2"><ellipse cx="50" cy="45" rx="35" ry="12"/>'
    '<rect x="45" y="10" width="10" height="30"/></g>'
    '<path d="M55 12 L80 25 L55 35 Z" fill="#ffffff" stroke="#0072b2"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 70">'
    '<rect width="100" height="70" fill="#2b2b2b"/>'
    '<polygon points="50,8 61,40 95,40 67,58 78,90 50,70 22,90 33,58 5,40 39,40" '
    'fill="#f1c40f" transform="scale(1 0.75)"/></svg>',
]
ICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20">'
    '<circle cx="10" cy="10" r="9" fill="currentColor"/>'
    '<circle cx="10" cy="10" r="5" fill="#ffffff"/></svg>'
)
TEXTS = [
    "Move one runner up to {n} squares forward; if it ends beside an enemy runner, gain 1 {icon} "
    "and draw a card. You may not move through a lake or over the board's edge this turn.",
    "Each player with a runner on rank {n} discards a card. You gain {icon} for every "
    "card discarded this way, then shuffle the discard pile into the deck.",
    "Swap two of your runners that stand at most {n} squares apart. Neither may be jumped until "
    "your next turn; put {icon} on each of them as a reminder and remove it when you play again.",
]
ICONS = [":star:", ":coin:", ":moon=blue:", ":token:", ":diamond=#cc0000:"]
PICTURES = ["art/p0.png", "art/p1.png", "art/p2.png", "art/s0.svg", "art/s1.svg", "art/s2.svg"]

ART_FIELDS = """
[[components.deck.fields]]
kind = "band"
h = "12mm"
fill = "{colour}"

[[components.deck.fields]]
text = "{name}"
x = "5mm"
y = "2mm"
h = "8mm"
size = 13
font = "sans-bold"
valign = "middle"

[[components.deck.fields]]
kind = "image"
image = "{picture}"
fit = "cover"
x = "5mm"
y = "14mm"
w = "53.5mm"
h = "32mm"

[[components.deck.fields]]
text = "{text}"
x = "6mm"
y = "49mm"
h = "26mm"
size = 11
min_size = 6
align = "centre"
valign = "middle"
"""


def png(width: int, height: int, colour: tuple[int, int, int], seed: int) -> bytes:
    """Return the bytes of an RGB PNG: stripes of a colour, a little different for each seed."""
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            k = ((x + seed * 7) // 8 + y // 8) % 2
            row += bytes(min(255, c + 40 * k) for c in colour)
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def csv_cell(text: str) -> str:
    """Return a CSV cell, quoted when it holds a comma or a quote."""
    if any(c in text for c in ',"\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_definition(folder: str, cards: int, deck: str) -> str:
    """Write the starter kit with a deck of ``cards`` cards into ``folder``; return its layouts folder."""
    subprocess.run(
        [sys.executable, "-m", "generator", "new", GAME, "--dir", folder],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    layouts = os.path.join(folder, "layouts")
    rows = min(cards, MAX_ROWS)  # a deck's CSV holds at most 1000 rows: 2000 cards are 2 of each
    copies = cards // rows
    assert rows * copies == cards, "a card count above 1000 must be a multiple of 1000"
    csv_path = os.path.join(layouts, f"{GAME}-cards.csv")
    if deck == "starter":
        with open(csv_path, encoding="utf-8") as f:
            header, *starter = f.read().splitlines()
        body = [header] + [
            ",".join(
                [str(copies) if i == 2 else c for i, c in enumerate(starter[n % len(starter)].split(",", 5))]
            )
            for n in range(rows)
        ]
        with open(csv_path, "w", encoding="utf-8") as f:
            f.write("\n".join(body) + "\n")
        return layouts
    art = os.path.join(layouts, "art")
    os.makedirs(art, exist_ok=True)  # the starter kit may have pictures of its own there
    for n, colour in enumerate(PNG_COLOURS):
        with open(os.path.join(art, f"p{n}.png"), "wb") as f:
            f.write(png(320, 200, colour, n))
    for n, svg in enumerate(SVG_ART):
        with open(os.path.join(art, f"s{n}.svg"), "w", encoding="utf-8") as f:
            f.write(svg)
    with open(os.path.join(art, "token.svg"), "w", encoding="utf-8") as f:
        f.write(ICON_SVG)
    with open(os.path.join(art, "coin.png"), "wb") as f:
        f.write(png(48, 48, (201, 162, 39), 5))
    toml_path = os.path.join(layouts, f"{GAME}.toml")
    with open(toml_path, encoding="utf-8") as f:
        toml = f.read()
    start = toml.index("[[components.deck.fields]]")
    end = toml.index("[components.deck.backs.move]")
    toml = toml[:start] + ART_FIELDS.lstrip() + "\n" + toml[end:]
    toml = toml.replace(
        "[palette]", '[icons]\ncoin = "art/coin.png"\ntoken = "art/token.svg"\n\n[palette]', 1
    )
    with open(toml_path, "w", encoding="utf-8") as f:
        f.write(toml)
    kinds = [("move", "gold"), ("event", "blue"), ("move", "pale"), ("event", "water")]
    lines = ["name,type,quantity,colour,picture,text"]
    for n in range(rows):
        kind, colour = kinds[n % len(kinds)]
        text = TEXTS[n % len(TEXTS)].format(n=n % 9 + 2, icon=ICONS[n % len(ICONS)])
        row = [f"Card {n + 1}", kind, str(copies), colour, PICTURES[n % len(PICTURES)], text]
        lines.append(",".join(csv_cell(c) for c in row))
    with open(csv_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return layouts


def run_once(layouts: str) -> tuple[float, float, float, int]:
    """Build the kit once in a fresh process; return wall s, CPU s, peak RSS MB and kit.pdf bytes."""
    with tempfile.TemporaryDirectory() as out:
        args = [sys.executable, "-m", "generator", "build", GAME, "--layouts", layouts]
        args += ["--format", "pdf", "--quiet", "--out", out]
        start = time.perf_counter()
        child = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise SystemExit(f"build failed with exit {child.returncode}")
        size = os.path.getsize(os.path.join(out, GAME, "kit.pdf"))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="100,1000,2000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--deck", choices=["art", "starter", "both"], default="art")
    options = parser.parse_args()
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: every run compiles the sources again")
    decks = ["starter", "art"] if options.deck == "both" else [options.deck]
    print(f"load average {os.getloadavg()[0]:.2f} at start")
    print(f"{'deck':8} {'cards':>6} {'wall s':>7} {'CPU s':>7} {'RSS MB':>7} {'kit.pdf MB':>10}")
    for deck in decks:
        for cards in (int(c) for c in options.cards.split(",")):
            with tempfile.TemporaryDirectory() as folder:
                layouts = write_definition(folder, cards, deck)
                run_once(layouts)  # warm: bytecode, disk cache
                results = [run_once(layouts) for _ in range(options.runs)]
            wall = statistics.median(r[0] for r in results)
            cpu = statistics.median(r[1] for r in results)
            rss = statistics.median(r[2] for r in results)
            size = results[0][3] / 1e6
            print(f"{deck:8} {cards:6} {wall:7.3f} {cpu:7.3f} {rss:7.1f} {size:10.2f}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
