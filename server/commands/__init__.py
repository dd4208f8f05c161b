"""Subcommands of `freecell-arena`; `server.cli` registers every module here that defines `register`."""
