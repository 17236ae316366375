"""python -m kata: the kata's command line (`kata.cli`)."""

import sys

from kata.cli import main

sys.exit(main())
