"""``pnp check``: everything a build checks, without leaving files behind.

A definition is loaded and validated (schema, bounds, colours), then built in full into a
temporary folder that is thrown away: the same drawing, template rendering, figure and symbol
lookups and writers as ``pnp build``. So whatever ``check`` accepts, ``build`` builds (with the
default paper, seed and language; other options are checked when they are given to build)."""

from __future__ import annotations

import os

from generator.definitions.loader import load_definition
from generator.definitions.values import GameDefinition, templates_for
from generator.foundation.errors import UsageError
from generator.foundation.files import path_problem, scratch_folder
from generator.workers.parallel import memory_cap


def check_definition(path: str) -> GameDefinition:
    """Return the definition in ``path`` after a full trial build; raise a PnpError on any problem."""
    from generator.booklet.template import languages
    from generator.components.base import Options
    from generator.kits.kit import build_kit
    from generator.kits.plan import kit_plan

    problem = path_problem(path)
    if problem is not None:
        raise UsageError(f"the definition file name {path[:80]!r} {problem}")
    folder = os.path.dirname(os.path.abspath(path))
    definition = load_definition(path, templates_for(folder))
    have = languages(definition)
    lang = "en" if "en" in have or not have else have[0]
    with scratch_folder("check") as out, memory_cap(path):  # a killed check's folder goes at the next check
        build_kit(kit_plan(definition, out, options=Options(lang=lang)))
    return definition
