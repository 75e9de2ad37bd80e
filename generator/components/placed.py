"""A drawing placed on the kit's paper, as every board and track kind prints its one drawing."""

from __future__ import annotations

from generator.components.base import Context
from generator.components.inline import icons_of
from generator.model.page import Drawing, Page
from generator.printing.imposition import place


def placed(art: Drawing, ctx: Context, title: str, bleed: float | None = None) -> tuple[Page, ...]:
    """Return the pages holding ``art`` on the kit's paper as ``printing.imposition.place`` lays
    it out (true size, tiled, or scaled with --fit), the footer naming the game and ``title`` with
    the definition's icons; ``bleed`` defaults to the kit's."""
    return tuple(
        place(
            art,
            ctx.paper,
            ctx.options.fit,
            f"{ctx.definition.title}: {title}",
            ctx.options.bleed if bleed is None else bleed,
            ctx.options.lang,
            icons_of(ctx.definition),
        )
    )
