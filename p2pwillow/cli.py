"""`willow`, the command line. Parses arguments and hands each subcommand to its driver.

The only place that turns expected failures into one error line and an exit code. A closed
pipe ends any command quietly; Ctrl-C ends it with one line; anything else that escapes a
command is a bug in willow and is shown as one, with its traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import faulthandler
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable, Coroutine, Sequence
from contextlib import closing, suppress
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, BinaryIO, NoReturn

from p2pwillow import __version__

if TYPE_CHECKING:
    from p2pwillow.ledger.entry import Entry
    from p2pwillow.live import SeatOptions
    from p2pwillow.net.lobby import TablePlan
    from p2pwillow.rules import BettingStructure
    from p2pwillow.verify import Outcome

LEVELS = ("easy", "normal", "hard")
"""The bots' levels (those of `p2pwillow.bots`, a test holds them the same), named here so that
the command line is built without importing the bots and the node, which a command that plays
no table (`willow verify`) would load for nothing."""

EXIT_USAGE = 2
EXIT_BUG = 70
"""A bug in willow (sysexits' EX_SOFTWARE), never a verdict on the input."""
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
"""The reader of the output went away (as a shell shows a process ended by SIGPIPE)."""

MAX_HANDS = 10_000
GAMES = (
    "weeping-willow",
    "roll-your-own",
    "seven-card-stud",
    "five-card-stud",
    "holdem",
    "omaha",
    "five-card-draw",
    "omaha-high-low",
    "holdem-high-low",
    "chicago",
    "spit",
    "seattle-six",
    "go-for-broke",
    "hawaii-five-low",
    "five-by-two",
    "double-spit",
    "car-wash",
    "pass-the-card",
)
"""The catalogue's games by name, for the help text (a test holds them equal to
`p2pwillow.games.CATALOGUE`: the command line is built without importing it). With neither
--game nor --games a table deals every one of them its size allows (as `--games all`)."""
MAX_STACK = 10**12
"""The largest starting stack a table allows (SPEC 3.1)."""
MAX_JOBS = 256
ENV_VAR = "WILLOW_HOME"

VERIFY_EPILOG = """\
exit status:
  0  valid and complete: every entry checks, every hand ended and was signed
     by all its players, and so was the game's end
  1  invalid: an entry does not check (its line, author and reason are shown)
  3  valid so far but not closed: the game was interrupted, the file was cut
     off or its end is not signed (the report says through which hand, and
     what is missing)
  4  unreadable: no such file, a read error, an empty file, or not a transcript
  2  usage error, or the --html page could not be written
  70 a bug in willow (not in the transcript); 130 Ctrl-C
With several files the status is the worst verdict's: invalid, unreadable,
not closed, valid (a bug in willow comes before all of them).
--html OUT writes the game as one web page, whatever the verdict, for one
FILE: it needs no network to be read. The report still goes to standard
output (add --brief for one line); an existing OUT is replaced whole."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line naming the problem, then exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _usage(command: str, message: str) -> int:
    print(f"willow {command}: {message}", file=sys.stderr)
    return EXIT_USAGE


def _suits_print() -> bool:
    """Whether standard output can show the suit symbols."""
    try:
        "♠♥♦♣".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _cmd_rank(args: argparse.Namespace) -> int:
    from p2pwillow.cards import format_cards, parse_cards
    from p2pwillow.hands import best_hand, showing_value

    unicode = _suits_print()
    try:
        cards = parse_cards(" ".join(args.cards))
        if 5 <= len(cards) <= 7:
            value = best_hand(cards)
            print(f"{value.text}: {format_cards(value.cards, unicode=unicode)}")
        elif 1 <= len(cards) <= 4:
            print(f"showing {showing_value(cards).text}")
        else:
            raise ValueError(f"give 1 to 7 cards, not {len(cards)}")
    except ValueError as exc:
        return _usage("rank", str(exc))
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from p2pwillow.bots import BotError, parse_level
    from p2pwillow.progress import ProgressBar
    from p2pwillow.rules import TableConfig
    from p2pwillow.table import Table, TableError

    try:
        level = parse_level(args.level)
    except BotError as exc:
        print(f"willow simulate: --level: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not 2 <= args.players <= 10:
        return _usage("simulate", f"--players must be 2 to 10, not {args.players}")
    if not 1 <= args.hands <= MAX_HANDS:
        return _usage("simulate", f"--hands must be 1 to {MAX_HANDS}, not {args.hands}")
    if not 1 <= args.stack <= MAX_STACK:
        return _usage("simulate", f"--stack must be 1 to {MAX_STACK} chips, not {args.stack}")
    games = _games(args, args.players)
    if isinstance(games, str):
        return _usage("simulate", games)
    config = TableConfig(seats=args.players, starting_stack=args.stack, games=games)
    to_stdout = args.out == "-"
    where = "standard output" if to_stdout else args.out
    out: BinaryIO
    if to_stdout:
        out = sys.stdout.buffer
    else:
        try:
            # "x": never truncate an existing file, a finished game may be in it.
            out = open(args.out, "xb")  # noqa: SIM115 - closed below; written entry by entry
        except FileExistsError:
            return _usage("simulate", f"{args.out} exists; give another --out or remove it first")
        except OSError as exc:
            return _usage("simulate", f"cannot write {args.out}: {exc.strerror}")
    bar = ProgressBar(sys.stderr, args.hands) if sys.stderr.isatty() else None
    entries = 0
    played = 0

    def append(entry: Entry) -> None:
        nonlocal entries
        # DESIGN 5: the transcript is appended and flushed as entries are applied.
        out.write(entry.encode() + b"\n")
        out.flush()
        entries += 1
        if bar is not None:
            bar.update(entries=entries)

    try:
        table = Table(
            args.players,
            config=config,
            seed=args.seed,
            rng=os.urandom,
            level=level,
            on_entry=append,
        )
        while played < args.hands and table.play_hand():
            played += 1
            if bar is not None:
                bar.update(done=played)
        table.end_game()  # SPEC 7.3: the game's end, signed by every seated player
    except TableError as exc:
        if bar is not None:
            bar.clear()
        print(f"willow simulate: {exc}; the transcript so far is in {where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if bar is not None:
            bar.clear()
        print(
            f"willow simulate: interrupted after {played} hand(s); the transcript so far is in "
            f"{where} (willow verify shows where it stops)",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    finally:
        if bar is not None:
            bar.clear()
        if not to_stdout:
            out.close()
    report = sys.stderr if to_stdout else sys.stdout
    print(f"{played} hand(s), {entries} entries written to {where}", file=report)
    if played < args.hands:
        print("the game ended early: fewer than two players have chips left", file=report)
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from p2pwillow.verify import EXIT_CODES, LEGEND, VerifyInterrupted, check_all, worst

    files: list[str] = args.files
    if "-" in files and len(files) > 1:
        return _usage("verify", "'-' (standard input) can only be verified alone")
    if not 1 <= args.jobs <= MAX_JOBS:
        return _usage("verify", f"-j must be 1 to {MAX_JOBS}, not {args.jobs}")
    page: Path | None = None
    if args.html is not None:
        if len(files) > 1:
            return _usage("verify", "--html makes the page of one game: give one FILE")
        page, problem = _page_path(args.html)
        if page is None:
            return _usage("verify", problem)
    shown = _VerifyOutput(args, several=len(files) > 1)
    try:
        # closing: a closed pipe or Ctrl-C stops the worker processes at once
        with closing(check_all(files, args.jobs)) as outcomes:
            for outcome in outcomes:
                shown.show(outcome)
    except VerifyInterrupted as exc:
        print(
            f"willow verify: interrupted at line {exc.line} of {exc.source}; no verdict",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        left = len(files) - shown.done
        print(f"willow verify: interrupted; no verdict on {left} file(s)", file=sys.stderr)
        return EXIT_INTERRUPTED
    if shown.several and not args.json and not args.brief:
        print(LEGEND)
    if page is not None and shown.objects:
        from p2pwillow.verify.html import report_html

        try:
            _write_whole(page, report_html(shown.objects[0]))
        except OSError as exc:
            why = exc.strerror or str(exc)
            print(f"willow verify: cannot write the page {args.html}: {why}", file=sys.stderr)
            return EXIT_USAGE
    if shown.bugs:
        return EXIT_BUG
    return EXIT_CODES[worst(shown.verdicts)]


def _page_path(name: str) -> tuple[Path | None, str]:
    """Where `--html NAME` writes (a symbolic link's target), or None and why it cannot."""
    if name in ("", "-"):
        return None, "--html needs a file name to write the page to"
    path = Path(os.path.realpath(name))
    if path.is_dir():
        return None, f"--html {name}: is a directory"
    if path.exists() and not path.is_file():
        return None, f"--html {name}: not a regular file"
    if not path.parent.is_dir():
        return None, f"--html {name}: no such directory {path.parent}"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return None, f"--html {name}: cannot write in {path.parent}"
    return path, ""


def _write_whole(path: Path, text: str) -> None:
    """Write `path` all at once: a file beside it, renamed over it. A reader never sees part of
    the page, and an earlier file stays whole until the new one replaces it."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


class _VerifyOutput:
    """Prints each file's outcome of `willow verify` as it comes: report, line or object.

    With `--html` it also keeps each file's JSON object, the page's one source."""

    def __init__(self, args: argparse.Namespace, *, several: bool) -> None:
        from p2pwillow.verify import Verdict

        self.json: bool = args.json
        self.brief: bool = args.brief
        self.keep: bool = args.html is not None
        self.objects: list[dict[str, object]] = []
        self.several = several
        self.unicode = _suits_print()
        self.verdicts: list[Verdict] = []
        self.bugs = 0
        self.done = 0

    def show(self, outcome: Outcome) -> None:
        from p2pwillow.verify import (
            Verdict,
            bug_object,
            json_line,
            report_brief,
            report_object,
            report_text,
        )

        self.done += 1
        report = outcome.report
        obj: dict[str, object] | None = None
        if self.json or self.keep:
            obj = (
                bug_object(outcome.source, _last_line(outcome.bug))
                if report is None
                else report_object(report)
            )
            if self.keep:
                self.objects.append(obj)
        if report is None:
            self.bugs += 1
            print(outcome.bug, end="", file=sys.stderr)
            print(
                f"willow verify: {outcome.source}: this is a bug in willow, not in the "
                "transcript; please report it with the traceback above",
                file=sys.stderr,
            )
            if obj is not None and self.json:
                print(json_line(obj))
        else:
            self.verdicts.append(report.verdict)
            if obj is not None and self.json:
                print(json_line(obj))
            elif self.brief:
                print(report_brief(report))
            elif report.verdict is Verdict.UNREADABLE and not report.entries:
                print(f"willow verify: {report_brief(report)}", file=sys.stderr)
            else:
                if self.several:
                    print(f"=== {report.source}")
                print(report_text(report, unicode=self.unicode, legend=not self.several))
                if self.several:
                    print()
        sys.stdout.flush()


LIVE_EPILOG = """\
exit status:
  0  the game ended (its hands were played) or you left the table
  1  the table stopped: a peer or this node could not go on (the line says why)
  2  usage error                      10 nothing answers at the address
  11 the host holds another key       12 the table is full
  13 the name is taken at the table   14 the port is in use
  15 the join code is malformed       16 no such table on this network
  17 the table takes no more players (its game is over)
  18 the host closed the table
  19 the store cannot be used
  20 a newcomer was never seated (its join did not come into the game in time)
  21 the store cannot be written (disk full, home read-only or removed): nothing
     is lost; once it is fixed, the same command with --resume goes on
  22 the table is busy (too many at the host's door): try again in a moment
  23 a newcomer was refused: a player at the table did not confirm the new safety code
  24 --address is not an address of this machine
  70 a bug in willow                 130 Ctrl-C
  143 stopped by SIGTERM or SIGHUP (the terminal closed)"""

EXIT_LIVE = {
    "stopped": 1,
    "usage": EXIT_USAGE,
    "unreachable": 10,
    "wrong-key": 11,
    "table-full": 12,
    "name-taken": 13,
    "port-in-use": 14,
    "bad-code": 15,
    "no-table": 16,
    "game-started": 17,
    "refused": 17,
    "game-over": 17,
    "host-left": 18,
    "store": 19,
    "not-seated": 20,
    "store-write": 21,
    "busy": 22,
    "not-admitted": 23,
    "no-address": 24,
    "terminated": 143,
}
"""The exit code of each way a live command can fail (`LiveError.failure`)."""


def _print_stacks(signum: int, frame: FrameType | None) -> None:
    """SIGUSR1's handler in a live command: every thread's stack to standard error. Python runs
    it between two steps of the main thread, the interpreter's lock held, so no thread's stack
    changes while it is read; faulthandler's own handler (`register`) reads them from inside
    the signal while another thread may be changing its own, and can crash the process it was
    asked to describe (a host ended by segmentation fault so, beside a loaded machine's tests)."""
    with suppress(OSError, ValueError):  # standard error gone (the terminal closed)
        faulthandler.dump_traceback(sys.stderr, all_threads=True)


def _live(
    command: str, run: Callable[[], Coroutine[object, object, int]], *, lifeline: bool = False
) -> int:
    """Run a live command; its expected failures are one line and their exit code."""
    import asyncio
    import gc

    from p2pwillow.crypto.checked import CHECKED, LIVE_CAPACITY
    from p2pwillow.live import LiveError, until_signalled

    CHECKED.capacity = LIVE_CAPACITY
    # A live peer runs for hours: what is loaded by now (the modules, the group's tables) lives
    # as long as the process, so the collector's full passes stop walking it.
    gc.freeze()
    # SIGUSR1 prints every thread's stack to standard error and the peer goes on: what a peer
    # that seems stuck is doing, for its report (the tests send it before they kill one)
    if hasattr(signal, "SIGUSR1"):
        signal.signal(signal.SIGUSR1, _print_stacks)

    try:
        return asyncio.run(until_signalled(run(), lifeline=lifeline))
    except LiveError as exc:
        failure = exc.failure if isinstance(exc.failure, str) else exc.failure.value
        # after SIGHUP the terminal may be gone: the exit code says it all
        with suppress(OSError):
            print(f"willow {command}: {exc}", file=sys.stderr)
        return EXIT_LIVE.get(failure, 1)
    except KeyboardInterrupt:
        print(f"willow {command}: interrupted; you left the table", file=sys.stderr)
        return EXIT_INTERRUPTED


def _seat_options(args: argparse.Namespace, command: str, *, bot: bool) -> SeatOptions | str:
    """The seat's options from the arguments, or why they do not work."""
    from p2pwillow.ledger.fields import FieldError
    from p2pwillow.live import SeatOptions, bot_home, stdout_is_terminal
    from p2pwillow.net.newcomers import SEAT_WITHIN
    from p2pwillow.net.node import BotSeat
    from p2pwillow.net.wire import NAME

    if args.name is not None:
        try:
            NAME.normalize(args.name, "--name")
        except FieldError as exc:
            return str(exc)
    if not 0 <= args.port < 65536:
        return f"--port must be 0 to 65535, not {args.port}"
    if not 0 < args.timeout <= 3600:
        return f"--timeout must be more than 0 and at most 3600 seconds, not {args.timeout}"
    if args.samples < 1:
        return f"--samples must be at least 1, not {args.samples}"
    plays_bot = bot or args.auto
    seat_bot = BotSeat(args.level, args.samples) if plays_bot else None
    if not plays_bot and not stdout_is_terminal():
        if command == "play":
            return "the table screen needs a terminal: run willow play in one"
        return "the table screen needs a terminal; --auto lets a bot play this seat"
    seat_within = getattr(args, "seat_within", SEAT_WITHIN)
    if not 0 < seat_within <= 3600:
        return f"--seat-within must be more than 0 and at most 3600 seconds, not {seat_within}"
    result_grace = getattr(args, "result_grace", RESULT_GRACE)
    if not 0 <= result_grace <= 3600:
        return f"--result-grace must be 0 to 3600 seconds, not {result_grace:g}"
    leave_after = getattr(args, "leave_after", 0)
    if not 0 <= leave_after <= MAX_HANDS:
        return f"--leave-after must be 1 to {MAX_HANDS} hands (or 0: stay), not {leave_after}"
    home = bot_home(args.home) if bot and not args.resume else args.home
    return SeatOptions(
        home=home,
        name=args.name,
        bot=seat_bot,
        address=args.address,
        port=args.port,
        events=args.events,
        screen=not plays_bot,
        timeout=args.timeout,
        leave_after=leave_after,
        seat_within=seat_within,
        result_grace=result_grace,
    )


PERSON_CLOCK = 90
"""Seconds to act at a table where a person sits (`willow play`, `willow host` at a terminal):
a person thinks, and reads the screen, longer than a bot (SPEC 3.1)."""
BOT_CLOCK = 30
"""Seconds to act when a bot plays the host's seat (`willow host --auto`), as TableConfig's."""


def _table_plan(args: argparse.Namespace, seats: int, host: str) -> TablePlan | str:
    """The table `willow host` or `willow play` opens, from the arguments, or why not."""
    from p2pwillow.limits import MAX_SEATS
    from p2pwillow.net.lobby import TablePlan
    from p2pwillow.rules import BettingStructure, ConfigError, TableConfig
    from p2pwillow.rules.config import MIN_SEATS

    if not 0 <= args.hands <= MAX_HANDS:
        return f"--hands must be 0 (no limit) to {MAX_HANDS}, not {args.hands}"
    # a table of too many or too few seats is refused below, by the seats' own reason
    games = _games(args, seats) if MIN_SEATS <= seats <= MAX_SEATS else GAMES[:1]
    if isinstance(games, str):
        return games
    try:
        config = TableConfig(
            games=games,
            seats=seats,
            starting_stack=args.stack,
            trade_tokens=args.tokens,
            token_value=args.token_value,
            ante=args.ante,
            structure=BettingStructure(args.structure),
            min_bet=args.min_bet,
            max_bet=args.max_bet,
            action_clock=_clock(args),
            hands=args.hands,
            time_bank=args.time_bank,
            pause_limit=args.pause_limit,
            pauses=args.pauses,
            arbiter=0,  # the host; --arbiter names another player once the table is formed
        )
    except ConfigError as exc:
        return str(exc)
    if args.arbiter is not None and not 1 <= len(args.arbiter) <= 32:
        return f"--arbiter names a player (1 to 32 characters), not {args.arbiter!r}"
    table = args.table or f"{args.name or host}'s table"
    return TablePlan(table[:64], config, args.hands, arbiter=args.arbiter)


def _clock(args: argparse.Namespace) -> int:
    """The action clock: --clock, or by default a person's, unless a bot plays the host's
    seat."""
    if args.clock is not None:
        return int(args.clock)
    # `willow play` has no --auto: its host seat is always a person's
    return BOT_CLOCK if getattr(args, "auto", False) else PERSON_CLOCK


def _cmd_host(args: argparse.Namespace) -> int:
    from p2pwillow.live import host_table

    options = _seat_options(args, "host", bot=False)
    if isinstance(options, str):
        return _usage("host", options)
    if args.resume:
        from p2pwillow.live import resume_table

        advertise = not args.no_advertise
        return _live("host", lambda: resume_table(options, advertise=advertise))
    plan = _table_plan(args, args.seats, "host")
    if isinstance(plan, str):
        return _usage("host", plan)
    if args.start_with is not None:
        if not 2 <= args.start_with <= args.seats:
            return _usage(
                "host",
                f"--start-with must be 2 to {args.seats} (the --seats), not {args.start_with}",
            )
        plan = dataclasses.replace(plan, start_with=args.start_with)
    advertise = not args.no_advertise
    return _live("host", lambda: host_table(options, plan, advertise=advertise))


def _cmd_play(args: argparse.Namespace) -> int:
    from p2pwillow.play import MAX_BOTS, BotPlan, play_table

    if not 1 <= args.bots <= MAX_BOTS:
        return _usage("play", f"--bots must be 1 to {MAX_BOTS}, not {args.bots}")
    args.auto, args.port, args.address, args.timeout = False, 0, None, 8.0
    options = _seat_options(args, "play", bot=False)
    if isinstance(options, str):
        return _usage("play", options)
    plan = _table_plan(args, args.bots + 1, "Player")
    if isinstance(plan, str):
        return _usage("play", plan)
    bots = BotPlan(args.bots, args.level, args.samples)
    return _live("play", lambda: play_table(options, plan, bots))


def _cmd_join(args: argparse.Namespace) -> int:
    from p2pwillow.live import join_table, pick_on_terminal

    options = _seat_options(args, "join", bot=False)
    if isinstance(options, str):
        return _usage("join", options)
    if args.resume:
        if args.table is not None:
            return _usage("join", "--resume takes the table from the store: name no table")
        return _resume("join", options)
    pick = pick_on_terminal if options.screen else None
    return _live("join", lambda: join_table(options, args.table, pick=pick))


def _cmd_bot(args: argparse.Namespace) -> int:
    from p2pwillow.live import join_table

    args.auto = True
    options = _seat_options(args, "bot", bot=True)
    if isinstance(options, str):
        return _usage("bot", options)
    if args.resume:
        if args.join is not None:
            return _usage("bot", "--resume takes the table from the store: give no --join")
        return _resume("bot", options)
    return _live(
        "bot",
        lambda: join_table(options, args.join, code_only=True),
        lifeline=args.leave_on_eof,
    )


def _resume(command: str, options: SeatOptions) -> int:
    from p2pwillow.live import resume_table

    return _live(command, lambda: resume_table(options))


RESULT_GRACE = 10.0
"""The default of --result-grace (a test holds it equal to the node's `RESULT_GRACE`)."""


def _result_grace_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--result-grace",
        type=float,
        default=RESULT_GRACE,
        metavar="S",
        help="on the table screen, a hand's result stays until you press a key, or S seconds "
        f"(default {RESULT_GRACE:g}; at most half the --clock); the next hand waits for it",
    )


def _seat_arguments(
    parser: argparse.ArgumentParser, *, auto: bool, seat_within: bool = True
) -> None:
    from p2pwillow.net.newcomers import SEAT_WITHIN

    parser.add_argument("--name", help="your name at the table (1 to 32 characters)")
    home_help = f"keep this seat's keys and games here (default: ${ENV_VAR}, or the user's data)"
    parser.add_argument("--home", help=home_help)
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: any)")
    parser.add_argument("--address", help="the address to listen on (default: this machine's)")
    if auto:
        parser.add_argument(
            "--auto", action="store_true", help="a bot plays this seat: no terminal needed"
        )
        _result_grace_argument(parser)
    parser.add_argument(
        "--level", choices=LEVELS, default="normal", help="how well a bot seat plays"
    )
    parser.add_argument(
        "--samples", type=int, default=300, help="a bot's Monte Carlo deals per betting decision"
    )
    parser.add_argument("--events", metavar="FILE", help="append one JSON line per event to FILE")
    parser.add_argument(
        "--timeout", type=float, default=8.0, help="seconds to wait for the host to answer"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="take this store's seat again in its newest unfinished game (after a crash)",
    )
    if seat_within:
        parser.add_argument(
            "--seat-within",
            type=float,
            default=SEAT_WITHIN,
            metavar="S",
            help="at a game under way, give up if no seat came within S seconds (default "
            f"{SEAT_WITHIN:g})",
        )


def _game_argument(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--game",
        metavar="NAME",
        help=f"the one game the table plays: {', '.join(GAMES)} (default: dealer's choice of "
        "every game the table's size can deal, as --games all)",
    )
    which.add_argument(
        "--games",
        metavar="A,B,...|all",
        help="dealer's choice: the games each hand's dealer may call, by name, separated by "
        "commas; 'all' for every game the table's size can deal (the default)",
    )


ALL_GAMES = "all"
"""`--games all`: every game of the catalogue that deals to the table's players."""


def _unfit(name: str, players: int) -> str | None:
    """Why game `name` cannot be dealt to `players` players with any of its options ("Seven-Card
    Stud deals to 2 to 8 players"), or None when it can."""
    from itertools import product

    from p2pwillow.games import CATALOGUE
    from p2pwillow.rules import ConfigError

    spec = CATALOGUE[name]
    names = [o.name for o in spec.options]
    most = 0
    for values in product(*(o.choices or (o.default,) for o in spec.options)):
        chosen = dict(zip(names, values, strict=True))
        try:
            spec.check_fits(chosen, players)
        except ConfigError:
            most = max(most, spec.seats_for(chosen))
            continue
        return None
    low = spec.players[0]
    return f"{spec.title} deals to {low} to {most} players" if most >= low else spec.title


def _games(args: argparse.Namespace, players: int) -> tuple[str, ...] | str:
    """The table's games from --game or --games, or why not: a name the catalogue does not
    hold, a name given twice, or a game that cannot be dealt to `players` players. Neither
    option: dealer's choice of every game that deals to `players` players (`--games all`)."""
    from p2pwillow.games import CATALOGUE

    known = ", ".join(CATALOGUE)
    if args.game is not None:
        option, names = "--game", [args.game]
    else:
        option = "--games"
        given = ALL_GAMES if args.games is None else args.games
        names = [n.strip().lower() for n in given.split(",")]
        if names == [ALL_GAMES]:
            fitting = tuple(n for n in CATALOGUE if _unfit(n, players) is None)
            if not fitting:  # every table of 2 to 10 deals some game
                return f"--games all: no game here deals to {players} players"
            return fitting
        if ALL_GAMES in names:
            return f"--games: '{ALL_GAMES}' stands alone, not in a list ({args.games!r})"
        if "" in names:
            return f"--games: a name is missing in {args.games!r} (names separated by commas)"
    seen: set[str] = set()
    for name in names:
        if name not in CATALOGUE:
            return f"{option}: no game called {name!r} here (the games: {known})"
        if name in seen:
            return f"{option}: {name} is named twice"
        seen.add(name)
        why = _unfit(name, players)
        if why is not None:
            return f"{option}: {name} cannot be dealt at a table of {players} ({why})"
    return tuple(names)


def _table_arguments(parser: argparse.ArgumentParser) -> None:
    """The table settings `willow host` and `willow play` take (SPEC 3.1)."""
    parser.add_argument("--table", help="the table's name (default: NAME's table)")
    _game_argument(parser)
    parser.add_argument(
        "--hands", type=int, default=0, help="end the game after N hands (default 0: no limit)"
    )
    parser.add_argument("--stack", type=int, default=1000, help="chips each player sits down with")
    parser.add_argument(
        "--structure",
        choices=[s.value for s in _structures()],
        default="spread-limit",
        help="the betting structure",
    )
    parser.add_argument("--min-bet", type=int, default=25, help="smallest bet (spread limit)")
    parser.add_argument("--max-bet", type=int, default=100, help="largest bet (spread limit)")
    parser.add_argument("--tokens", type=int, default=6, help="trade tokens per player per hand")
    parser.add_argument("--token-value", type=int, default=5, help="chips per trade token")
    parser.add_argument(
        "--ante", type=int, default=25, help="chips each player antes in a game with an ante"
    )
    parser.add_argument(
        "--clock",
        type=int,
        help=f"seconds a player has to act (default {PERSON_CLOCK} with a person at the "
        f"table, {BOT_CLOCK} when a bot plays the host's seat)",
    )
    parser.add_argument(
        "--time-bank",
        type=int,
        default=120,
        metavar="SECONDS",
        help="more time each player may add to its clock over the game, a key press at a "
        "time (default 120; 0: none)",
    )
    parser.add_argument(
        "--pause-limit",
        type=int,
        default=300,
        metavar="SECONDS",
        help="the longest a pause lasts before the clocks run again by themselves "
        "(default 300; 0: no pauses)",
    )
    parser.add_argument(
        "--pauses", type=int, default=3, help="pauses each player may make in a game (default 3)"
    )
    parser.add_argument(
        "--arbiter",
        metavar="NAME",
        help="the player whose rulings the table accepts: more time, pause and resume, sit a "
        "seat back in, end the game (default: the host)",
    )


def _add_play_command(commands: argparse._SubParsersAction[_Parser]) -> None:
    play = commands.add_parser(
        "play",
        help="play against bots on this machine: a real table, one willow bot process each",
        description="Host a table on this machine (127.0.0.1) with you in one seat, start a\n"
        "'willow bot' process for every other seat, and open the table screen. Leaving the\n"
        "table stops the bots and prints where the transcript is.",
        epilog=LIVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument("--bots", type=int, default=3, help="bots at the table, 1 to 9 (default 3)")
    play.add_argument("--name", help="your name at the table (1 to 32 characters)")
    play.add_argument("--level", choices=LEVELS, default="normal", help="how well the bots play")
    play.add_argument(
        "--samples", type=int, default=300, help="a bot's Monte Carlo deals per betting decision"
    )
    home_help = (
        f"keep your keys, the bots' and the games here (default: ${ENV_VAR}, or the user's data)"
    )
    play.add_argument("--home", help=home_help)
    play.add_argument("--events", metavar="FILE", help="append one JSON line per event to FILE")
    _result_grace_argument(play)
    _table_arguments(play)
    play.set_defaults(run=_cmd_play)


def _add_live_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    host = commands.add_parser(
        "host",
        help="open a table on this network; print the join code; play",
        description="Open a table: print 'willow join CODE' for the others, seat them as "
        "they join, and start when every seat is taken (or --start-with of them).",
        epilog=LIVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _seat_arguments(host, auto=True, seat_within=False)
    seats_help = "players at the table, 2 to 10: the game starts when all are seated (default 4)"
    host.add_argument("--seats", type=int, default=4, help=seats_help)
    host.add_argument(
        "--start-with",
        type=int,
        metavar="N",
        help="start once N players (you included) are seated; the free seats are taken by "
        "players who join between hands",
    )
    _table_arguments(host)
    host.add_argument(
        "--no-advertise", action="store_true", help="do not announce the table on the LAN"
    )
    host.set_defaults(run=_cmd_host)

    join = commands.add_parser(
        "join",
        help="join a table: by its join code, its name, or from a list of tables found",
        epilog=LIVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    join.add_argument("table", nargs="?", metavar="NAME | CODE", help="a table's name or code")
    _seat_arguments(join, auto=True)
    join.set_defaults(run=_cmd_join)

    bot = commands.add_parser(
        "bot",
        help="a bot player: its own keys, process and sockets, no terminal",
        epilog=LIVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bot.add_argument("--join", metavar="CODE", help="the table's join code (default: find it)")
    _seat_arguments(bot, auto=False)
    bot.add_argument(
        "--leave-on-eof",
        action="store_true",
        help="leave the table when standard input closes (willow play starts its bots so)",
    )
    bot.add_argument(
        "--leave-after",
        type=int,
        default=0,
        metavar="N",
        help="leave the table between hands once N hands have been played, when the deal "
        "comes to this seat (the game goes on without it)",
    )
    bot.set_defaults(run=_cmd_bot)


def _structures() -> list[BettingStructure]:
    from p2pwillow.rules import BettingStructure

    return list(BettingStructure)


def _last_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[-1] if lines else "unknown error"


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
    simulate.add_argument(
        "--hands", type=int, required=True, help=f"hands to play (1 to {MAX_HANDS})"
    )
    simulate.add_argument("--seed", type=int, default=0, help="fixes the bots' choices")
    simulate.add_argument(
        "--stack", type=int, default=1000, help="chips each bot sits down with (default 1000)"
    )
    simulate.add_argument(
        "--out", required=True, help="transcript file to write (JSON Lines); - for stdout"
    )
    simulate.add_argument(
        "--level", default="normal", help="how well the bots play: easy, normal (default), hard"
    )
    _game_argument(simulate)
    simulate.set_defaults(run=_cmd_simulate)

    verify = commands.add_parser(
        "verify",
        help="check every signature, rule and proof of a game",
        description="Replay transcripts and check every signature, hash link, rule and proof; "
        "report each game as a hand history with one of four verdicts.",
        epilog=VERIFY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verify.add_argument("files", nargs="+", metavar="FILE", help="a transcript; - for stdin")
    output = verify.add_mutually_exclusive_group()
    output.add_argument(
        "--json", action="store_true", help="one JSON object per file, one per line"
    )
    output.add_argument("--brief", action="store_true", help="one line per file")
    verify.add_argument(
        "-j", "--jobs", type=int, default=1, metavar="N", help="verify N files at once"
    )
    verify.add_argument(
        "--html",
        metavar="OUT",
        help="also write the game as one web page to OUT (one FILE only): verdict, standings, "
        "a chart of the stacks and a replay of every hand; it opens with no network",
    )
    verify.set_defaults(run=_cmd_verify)
    _add_play_command(commands)
    _add_live_commands(commands)
    return parser


def _quiet_streams() -> None:
    """After a closed pipe: send what is still buffered nowhere, so exiting is silent."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        # not a real file (a test's capture): nothing of it will be flushed to a pipe
        with suppress(OSError, ValueError, AttributeError):
            os.dup2(devnull, stream.fileno())


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help()
        return 0
    result: int = args.run(args)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    try:
        try:
            result = _run(argv)
            sys.stdout.flush()
        except KeyboardInterrupt:
            print("willow: interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            raise
        except Exception:
            traceback.print_exc()
            print(
                "willow: this is a bug in willow, not in what you gave it; please report it "
                "with the traceback above",
                file=sys.stderr,
            )
            return EXIT_BUG
    except BrokenPipeError:
        _quiet_streams()
        return EXIT_BROKEN_PIPE
    return result


if __name__ == "__main__":
    sys.exit(main())
