"""The command line interface: parses options, calls the library, prints results and picks exit codes."""
