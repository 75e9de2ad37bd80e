"""Run the command line interface with ``python -m generator``."""

from generator.cli import main

main()
