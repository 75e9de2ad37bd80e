"""Rule booklets: jinja2 rule texts (``templates/booklets/<game>.<lang>.md.j2``) rendered with values
from the game's definition and rules, parsed from a small Markdown-like markup (``markup``), and
typeset into numbered half-sheet pages with a cover (``layout``). ``README.md`` documents the syntax."""
