"""Subcommands of `freecell-arena`; `freecell_arena.cli` registers every module here that defines `register`."""
