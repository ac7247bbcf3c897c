"""`python -m gradsh`: the same as the `gradsh` command."""

import sys

from gradsh.cli import main

sys.exit(main())
