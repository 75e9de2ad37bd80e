"""The referee: read a game record, replay it against a game's rules, give a verdict; or check moves
live at the table. ``record`` cuts text into tokens, ``replay`` judges, ``live`` runs a game."""
