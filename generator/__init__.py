"""pnp: print-and-play kits and a referee for tabletop games."""

__version__ = "0.1.0"
