"""Components: generic kinds of kit parts (boards, counters, sheets, booklets) that turn a
component definition (plus game data) into pages of the page model.

``base`` holds what kinds share (``Context``, ``Output``, ``Options``, ``Kind``); ``kinds`` is the
table of kinds; ``look``, ``symbols`` and ``silhouettes`` are drawing helpers the kinds use.
Kind modules never import reportlab or svgwrite, and never import game rules directly: game data
comes through ``ctx.layout_data(name)``.
"""
