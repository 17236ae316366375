"""The variants' command line: one subcommand per exercise.

Bad input exits 2 with one line naming the problem; never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from solution.logfile import InputError
from solution.unix import Parser
from variants.batcher import cli as batcher_cli
from variants.credits import cli as credits_cli
from variants.jobs import cli as jobs_cli
from variants.jobs.store import StoreError
from variants.memory import cli as memory_cli
from variants.quotas import cli as quotas_cli
from variants.retry import cli as retry_cli
from variants.sweep import cli as sweep_cli

EXIT_BAD_INPUT = 2
EXIT_STORE = 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; return the exit status."""
    parser = Parser(prog="python -m variants", description="The interview's follow-up exercises.")
    commands = parser.add_subparsers(dest="command", required=True)
    sweep_cli.add_parser(commands)
    retry_cli.add_parser(commands)
    batcher_cli.add_parser(commands)
    credits_cli.add_parser(commands)
    quotas_cli.add_parser(commands)
    jobs_cli.add_parser(commands)
    memory_cli.add_parser(commands)
    args = parser.parse_args(argv)  # exits 2 with a usage line on a bad flag
    try:
        status: int = args.run(args)
    except InputError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except StoreError as error:  # not the input's fault: the store's (a full disk)
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return EXIT_STORE
    return status
