"""The languages pnp writes kits in: ``LANGUAGES``, the one table the CLI's help, the definition
loader (``[translations.<code>]``) and the booklet's cover words all read. A new language is a
line here (and its booklet templates and translations in the definitions)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """A language: its code (``--lang``), its name, the words of a rule booklet's cover, and the
    units a turn limit counts in (singular and plural by the referee's English name of the unit)."""

    code: str
    name: str
    cover: Mapping[str, str]
    units: Mapping[str, tuple[str, str]]


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
            {"turn": ("turn", "turns"), "throw": ("throw", "throws"), "round": ("round", "rounds")},
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
            {
                "turn": ("tour", "tours"),
                "throw": ("lancer", "lancers"),
                "round": ("tour de table", "tours de table"),
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
            {"turn": ("turno", "turni"), "throw": ("lancio", "lanci"), "round": ("giro", "giri")},
        ),
    )
}
DEFAULT_LANGUAGE = "en"


def unit_count(number: int, unit: str, lang: str) -> str:
    """Return a number with a turn limit's unit in a language, e.g. '200 turns', '200 lancers'
    (English for a language without the unit); raise KeyError for an unknown unit."""
    words = LANGUAGES[lang].units if lang in LANGUAGES else {}
    one, many = words[unit] if unit in words else LANGUAGES[DEFAULT_LANGUAGE].units[unit]
    return f"{number} {one if number == 1 else many}"


def language_codes() -> str:
    """Return the language codes as a reader sees them: 'en, fr, it'."""
    return ", ".join(LANGUAGES)
