"""`willow`, the command line. Parses arguments and hands each subcommand to its driver.

The only place that turns expected failures into one error line and an exit code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from p2pwillow import __version__

if TYPE_CHECKING:
    from p2pwillow.ledger.entry import Entry

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


def _cmd_simulate(args: argparse.Namespace) -> int:
    import os

    from p2pwillow.bots import BotError, parse_level
    from p2pwillow.table import Table, TableError

    try:
        level = parse_level(args.level)
    except BotError as exc:
        print(f"willow simulate: --level: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not 2 <= args.players <= 10:
        print(f"willow simulate: --players must be 2..10, not {args.players}", file=sys.stderr)
        return EXIT_USAGE
    if args.hands < 1:
        print(f"willow simulate: --hands must be at least 1, not {args.hands}", file=sys.stderr)
        return EXIT_USAGE
    try:
        # "x": never truncate an existing file, a finished game may be in it.
        out = open(args.out, "xb")  # noqa: SIM115 - closed below; written entry by entry
    except FileExistsError:
        print(
            f"willow simulate: {args.out} exists; give another --out or remove it first",
            file=sys.stderr,
        )
        return EXIT_USAGE
    except OSError as exc:
        print(f"willow simulate: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    with out:

        def append(entry: Entry) -> None:
            # DESIGN 5: the transcript is appended and flushed as entries are applied.
            out.write(entry.encode() + b"\n")
            out.flush()

        table = Table(args.players, seed=args.seed, rng=os.urandom, level=level, on_entry=append)
        try:
            played = table.play(args.hands)
        except TableError as exc:
            print(
                f"willow simulate: {exc}; the transcript so far is in {args.out}", file=sys.stderr
            )
            return 1
    print(f"{played} hand(s), {len(table.transcript)} entries written to {args.out}")
    if played < args.hands:
        print("the game ended early: fewer than two players have chips left")
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from p2pwillow.verify import (
        EXIT_UNREADABLE,
        TranscriptUnreadable,
        read_transcript,
        report_json,
        report_text,
        verify_transcript,
    )

    try:
        report = verify_transcript(read_transcript(args.file))
    except TranscriptUnreadable as exc:
        print(f"willow verify: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    print(report_json(report) if args.json else report_text(report))
    if report.error is not None and not args.json:
        e = report.error
        print(f"willow verify: line {e.line}: {e.reason}", file=sys.stderr)
    return report.exit_code


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

    simulate = commands.add_parser(
        "simulate", help="bots play whole hands through the protocol; write the transcript"
    )
    simulate.add_argument("--players", type=int, required=True, help="2 to 10 bots")
    simulate.add_argument("--hands", type=int, required=True, help="hands to play (at least 1)")
    simulate.add_argument("--seed", type=int, default=0, help="fixes the bots' choices")
    simulate.add_argument(
        "--level", default="normal", help="how well the bots play: easy, normal (default), hard"
    )
    simulate.add_argument("--out", required=True, help="transcript file to write (JSON Lines)")
    simulate.set_defaults(run=_cmd_simulate)

    verify = commands.add_parser("verify", help="check every signature, rule and proof of a game")
    verify.add_argument("file", help="a transcript (JSON Lines)")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.set_defaults(run=_cmd_verify)
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
