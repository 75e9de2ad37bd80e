"""A drawing placed on the kit's paper, as every board and track kind prints its one drawing."""

from __future__ import annotations

from collections.abc import Callable

from generator.components.base import Context
from generator.components.inline import icons_of
from generator.model.page import Drawing, Page
from generator.printing.imposition import fit_scale, place


def placed(
    art: Drawing,
    ctx: Context,
    title: str,
    picture_bleed: Callable[[float], Drawing] | None = None,
) -> tuple[Page, ...]:
    """Return the pages holding ``art`` on the kit's paper as ``printing.imposition.place`` lays
    it out (true size, tiled, or scaled with --fit), the footer naming the game and ``title`` with
    the definition's icons, under the kit's bleed.

    ``picture_bleed(b)``, for a drawing whose picture carries its own bleed, draws it again with
    the picture ``b`` mm past its edges: --fit scales a drawing down but not the shop's bleed, so
    when it does, the picture is drawn the bleed over the scale past them and comes out at true
    size."""
    bleed = ctx.options.bleed
    shown = art
    if picture_bleed is not None and ctx.options.fit and bleed:
        scale = fit_scale(art, ctx.paper, bleed)
        if scale < 1.0:
            shown = picture_bleed(bleed / scale)
    return tuple(
        place(
            shown,
            ctx.paper,
            ctx.options.fit,
            f"{ctx.definition.title}: {title}",
            bleed,
            ctx.options.lang,
            icons_of(ctx.definition),
        )
    )
