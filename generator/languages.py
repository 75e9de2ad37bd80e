"""The languages pnp writes kits in: ``LANGUAGES``, the one table the CLI's help, the definition
loader (``[translations.<code>]``) and the booklet's cover words all read. A new language is a
line here (and its booklet templates and translations in the definitions)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """A language: its code (``--lang``), its name, and the words of a rule booklet's cover."""

    code: str
    name: str
    cover: Mapping[str, str]


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language(
            "en",
            "English",
            {
                "players": "Players",
                "time": "Playing time",
                "ages": "Ages",
                "kit": "In this kit",
                "rules": "Rules of play",
                "booklet": "this rule booklet",
                "notes": "Notes",
            },
        ),
        Language(
            "fr",
            "French",
            {
                "players": "Joueurs",
                "time": "Durée",
                "ages": "Âge",
                "kit": "Contenu du kit",
                "rules": "Règles du jeu",
                "booklet": "ce livret de règles",
                "notes": "Notes",
            },
        ),
        Language(
            "it",
            "Italian",
            {
                "players": "Giocatori",
                "time": "Durata",
                "ages": "Età",
                "kit": "Nel kit",
                "rules": "Regole del gioco",
                "booklet": "questo libretto di regole",
                "notes": "Appunti",
            },
        ),
    )
}
DEFAULT_LANGUAGE = "en"


def language_codes() -> str:
    """Return the language codes as a reader sees them: 'en, fr, it'."""
    return ", ".join(LANGUAGES)
