"""`willow`, the command line. Parses arguments and hands each subcommand to its driver.

The only place that turns expected failures into one error line and an exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from p2pwillow import __version__

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem, then exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _cmd_rank(args: argparse.Namespace) -> int:
    from p2pwillow.cards import format_cards, parse_cards
    from p2pwillow.hands import best_hand, showing_value

    try:
        cards = parse_cards(" ".join(args.cards))
        if 5 <= len(cards) <= 7:
            value = best_hand(cards)
            print(f"{value.text}: {format_cards(value.cards, unicode=True)}")
        elif 1 <= len(cards) <= 4:
            print(f"showing {showing_value(cards).text}")
        else:
            raise ValueError(f"give 1 to 7 cards, not {len(cards)}")
    except ValueError as exc:
        print(f"willow rank: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="willow",
        description="Weeping Willow poker, peer to peer: fair dealing without a trusted dealer.",
    )
    parser.add_argument("--version", action="version", version=f"willow {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    rank = commands.add_parser("rank", help="rank a poker hand: willow rank As Kd 10h Th 2c")
    rank.add_argument("cards", nargs="+", help="1 to 7 cards, e.g. As 10h T♥ 2♣")
    rank.set_defaults(run=_cmd_rank)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        result: int = args.run(args)
    except KeyboardInterrupt:
        print("willow: interrupted", file=sys.stderr)
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
