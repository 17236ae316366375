"""``python -m variants``: the command lines of the follow-up exercises."""

import sys

from solution.unix import run
from variants.cli import main

if __name__ == "__main__":
    sys.exit(run(main, "python -m variants"))
