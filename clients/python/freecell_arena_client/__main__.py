import sys

from freecell_arena_client.cli import main

sys.exit(main())
