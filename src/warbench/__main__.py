"""``python -m warbench``: the ``warbench`` command."""

import sys

from warbench.cli.main import main

sys.exit(main())
