"""`python -m freecell_arena` is the same as the `freecell-arena` console script."""

import sys

from freecell_arena.cli import main

sys.exit(main())
