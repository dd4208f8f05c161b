"""FreeCell Arena's Alembic scripts, shipped inside the package as `freecell_arena.migrations`.

The folder stays at the top of the repository (pyproject maps it into the package), so `alembic` in a checkout
and `freecell-arena migrate` from any install read the same scripts.
"""
