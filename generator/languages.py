"""The languages pnp writes kits in and their catalogue: ``LANGUAGES`` (name, a booklet cover's
words, the units a turn limit counts in) and ``TEXTS`` (every shared text a kit prints: footers,
the scale check, sheet notes, the HTML page's words), the one table the CLI's help, the definition
loader (``[translations.<code>]``), the booklets, sheets, guide and home page read. ``text()``
never falls back to English: a missing entry raises MissingText. ``set_text()`` sets a text in a
language's typography (French no-break spaces), applied wherever French text enters a kit: the
catalogue, the definitions' translations and every rendered template. A new language is an entry
in both tables (and its templates and translations in the definitions)."""

from __future__ import annotations

import re
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


def language(lang: str) -> Language:
    """Return a language by its code; raise MissingText for a language pnp does not write."""
    if lang not in LANGUAGES:
        raise MissingText(f"pnp writes no {lang!r} (languages: {language_codes()})")
    return LANGUAGES[lang]


def cover_words(lang: str) -> dict[str, str]:
    """Return the words of a booklet's cover in a language, set in its typography."""
    return {key: set_text(word, lang) for key, word in language(lang).cover.items()}


def unit_count(number: int, unit: str, lang: str) -> str:
    """Return a number with a turn limit's unit in a language, e.g. '200 turns', '200 lancers';
    raise MissingText for a language or unit the catalogue lacks (never English instead)."""
    words = language(lang).units
    if unit not in words:
        raise MissingText(f"no {lang!r} word for the unit {unit!r} (generator/languages.py)")
    one, many = words[unit]
    return f"{number} {one if number == 1 else many}"


def language_codes() -> str:
    """Return the language codes as a reader sees them: 'en, fr, it'."""
    return ", ".join(LANGUAGES)


class MissingText(KeyError):
    """A catalogue entry a language lacks: the build never falls back to English."""


# The catalogue: every shared text a kit prints (footers, scale check, sheet words, the HTML
# page's own words, the home page), per language. Keys are the same in every language; a text's
# ``{name}`` fields are filled by ``text()``. Game texts are the definitions' [translations.<code>].
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "scale.check": "This bar is {n} mm. If not, print at actual size (100%).",
        "footer.sheet": "{label}  sheet {number} of {total}  (cut along the grey lines)",
        "footer.backs": "{label}  sheet {number} backs: print on the reverse, flip on the long edge",
        "footer.scaled": "{label}  (scaled to {percent}% to fit; not true size)",
        "footer.tile": "{label}  tile row {row}/{rows}, column {column}/{columns}: glue the grey strip under the next tile",
        "footer.parts": "{label}: {stock} parts",
        "footer.parts.alone": "{stock} parts",
        "sheet.field": "{label}:",
        "stock.card": "card",
        "stock.paper": "paper",
        "sheet.continue": (
            "Out of rows? Go on {% if single_sided %}on the next page{% else %}on the back of this sheet{% endif %},"
            " numbering on from {{ row }}. The game is a draw after {{ count(limit, unit) }}."
        ),
        "html.contents": "Contents",
        "html.glance": "At a glance",
        "html.quick": "Quick reference",
        "html.figure": "Figure",
        "html.skip": "Skip to the rules",
        "language.own": "English",
    },
    "fr": {
        "scale.check": "Cette barre mesure {n} mm. Sinon, imprimez en taille réelle (100 %).",
        "footer.sheet": "{label}  feuille {number} sur {total}  (coupez le long des lignes grises)",
        "footer.backs": "{label}  feuille {number}, dos : imprimez au verso, retournement sur le bord long",
        "footer.scaled": "{label}  (réduit à {percent} % pour tenir sur la feuille ; pas en taille réelle)",
        "footer.tile": "{label}  morceau rangée {row}/{rows}, colonne {column}/{columns} : collez la bande grise sous le morceau suivant",
        "footer.parts": "{label} : pièces sur {stock}",
        "footer.parts.alone": "pièces sur {stock}",
        "sheet.field": "{label} :",
        "stock.card": "carton",
        "stock.paper": "papier",
        "sheet.continue": (
            "Plus de lignes ? Continuez {% if single_sided %}sur la page suivante{% else %}au dos de cette feuille{% endif %},"
            " à partir de la ligne {{ row }}. La partie est nulle après {{ count(limit, unit) }}."
        ),
        "html.contents": "Sommaire",
        "html.glance": "En bref",
        "html.quick": "Aide-mémoire",
        "html.figure": "Figure",
        "html.skip": "Aller aux règles",
        "language.own": "Français",
    },
    "it": {
        "scale.check": "Questa barra misura {n} mm. Altrimenti stampate al 100%.",
        "footer.sheet": "{label}  foglio {number} di {total}  (ritagliate lungo le linee grigie)",
        "footer.backs": "{label}  foglio {number}, retro: stampate sul retro, capovolgendo sul lato lungo",
        "footer.scaled": "{label}  (ridotto al {percent}% per stare nel foglio; non a dimensione reale)",
        "footer.tile": "{label}  pezzo riga {row}/{rows}, colonna {column}/{columns}: incollate la striscia grigia sotto il pezzo seguente",
        "footer.parts": "{label}: pezzi su {stock}",
        "footer.parts.alone": "pezzi su {stock}",
        "sheet.field": "{label}:",
        "stock.card": "cartoncino",
        "stock.paper": "carta",
        "sheet.continue": (
            "Righe finite? Continuate {% if single_sided %}sulla pagina seguente{% else %}sul retro di questo foglio{% endif %},"
            " numerando da {{ row }}. Dopo {{ count(limit, unit) }} la partita è patta."
        ),
        "html.contents": "Indice",
        "html.glance": "In breve",
        "html.quick": "Promemoria",
        "html.figure": "Figura",
        "html.skip": "Vai alle regole",
        "language.own": "Italiano",
    },
}


def text(key: str, lang: str, **values: object) -> str:
    """Return the catalogue's text for a key in a language, its ``{name}`` fields filled from
    ``values`` and set in that language's typography; raise MissingText when the language (or
    the key) has no entry: there is no fallback to English."""
    entries = TEXTS.get(lang)
    if entries is None or key not in entries:
        raise MissingText(f"no {lang!r} text for {key!r} in the catalogue (generator/languages.py)")
    raw = entries[key]
    return set_text(raw.format(**values) if values else raw, lang)


def texts_of(key: str) -> list[str]:
    """Return a catalogue key's raw text in every language (e.g. to measure the widest)."""
    return [entries[key] for entries in TEXTS.values()]


# French typography: a narrow no-break space (U+202F) before ; ! ? and a no-break space (U+00A0)
# before : and inside « ». A mark gets its space only after a word (a letter, digit or closing
# sign) and before a space or the end, so notation (a:b, !=, |:-:|, :::, http://) is left alone.
NNBSP = "\u202f"
NBSP = "\u00a0"
_FR_MARK = re.compile(r"(?<=[\w)\]»”’*_.%])[ \u00a0\u202f]*([;!?:])(?=[\s*_)\]»”’\"]|$)")
_FR_OPEN = re.compile(r"«[ \u00a0\u202f]*")
_FR_CLOSE = re.compile(r"[ \u00a0\u202f]*»")
_CODE = re.compile(r"(`[^`\n]*`)")
# proper names that hold a mark of their own
_NAMES = ("Push!",)


def french_spacing(line: str) -> str:
    """Return French text with the no-break spaces its punctuation needs (U+202F before ; ! ?,
    U+00A0 before : and inside « »), code spans (`...`) and names such as Push! left as they are."""
    out = []
    for n, part in enumerate(_CODE.split(line)):
        if n % 2:
            out.append(part)
            continue
        kept = {}
        for i, name in enumerate(_NAMES):
            token = f"\x00{i}\x00"
            kept[token] = name
            part = part.replace(name, token)
        part = _FR_MARK.sub(lambda m: (NBSP if m.group(1) == ":" else NNBSP) + m.group(1), part)
        part = _FR_OPEN.sub("«" + NBSP, part)
        part = _FR_CLOSE.sub(NBSP + "»", part)
        for token, name in kept.items():
            part = part.replace(token, name)
        out.append(part)
    return "".join(out)


def set_text(line: str, lang: str) -> str:
    """Return a text as it is set in a language: French gets its no-break spaces; others as given."""
    return french_spacing(line) if lang == "fr" else line
