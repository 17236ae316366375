"""``python -m solution``: the demo, a log detector and the threshold calculator."""

import sys

from solution.cli import main

if __name__ == "__main__":
    sys.exit(main())
