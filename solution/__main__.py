"""``python -m solution``: the demo, a log detector and the threshold calculator."""

import sys

from solution.cli import main
from solution.unix import run

if __name__ == "__main__":
    sys.exit(run(main, "python -m solution"))
