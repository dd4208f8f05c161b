"""`python -m server` is the same as the `freecell-arena` console script."""

import sys

from server.cli import main

sys.exit(main())
