"""``python -m variants``: the command lines of the follow-up exercises."""

import sys

from variants.cli import main

if __name__ == "__main__":
    sys.exit(main())
