"""Run the command line interface with ``python -m generator``."""

try:  # Ctrl-C while the first modules load, before ``main`` sets its handlers, is one line too
    from generator.cli import main
except KeyboardInterrupt:
    import os

    os.write(2, b"pnp: error: interrupted\n")
    os._exit(130)

main()
