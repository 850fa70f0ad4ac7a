"""The in-process client: its worker thread, the seat held until the code is confirmed, the
person's decisions and their refusals, and leaving."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from p2pwillow.bots import Level
from p2pwillow.client import LEFT_TABLE, Client, Decision
from p2pwillow.games import weeping_willow as ww
from p2pwillow.inprocess import InProcessClient
from p2pwillow.ledger.entry import decode_entry
from p2pwillow.ledger.kinds import Leave
from p2pwillow.rules import ActionKind
from p2pwillow.verify import Verdict, verify_transcript
from p2pwillow.view import Link, TableView

DEADLINE = 60.0
K = ActionKind


def make(tmp_path: Path, **kwargs: object) -> InProcessClient:
    return InProcessClient(
        tmp_path / "game.jsonl",
        seed=3,
        rng=random.Random(3).randbytes,
        samples=40,
        level=Level.EASY,  # the level these scenarios were written against
        **kwargs,  # type: ignore[arg-type]
    )


async def until(client: Client, test: Callable[[TableView], bool]) -> TableView:
    """Wait, with a deadline, until the client's view passes `test`."""
    end = time.monotonic() + DEADLINE
    seen = -1
    while True:
        view = client.view()
        if test(view) and not client.busy:
            return view
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"the view never got there: {view.stage}, {view.waiting}")
        seen = await asyncio.wait_for(client.changed(seen), left)


def changed_from(before: TableView) -> Callable[[TableView], bool]:
    return lambda v: v is not before


def lines(path: Path) -> int:
    return len(path.read_bytes().splitlines())


def test_the_seat_waits_for_the_code_and_the_hand_then_starts(tmp_path: Path) -> None:
    async def main() -> None:
        c: Client = make(tmp_path)  # mypy checks that it is the protocol the client drives
        assert not c.seat_confirmed
        assert c.links == {1: Link.LOCAL, 2: Link.LOCAL, 3: Link.LOCAL}
        assert lines(tmp_path / "game.jsonl") == 1
        c.decide(Decision(K.CHECK))
        await until(c, lambda v: c.notice is not None)
        assert c.notice is not None and c.notice.text == "confirm the safety code first"
        c.confirm_seat(True)
        view = await until(c, lambda v: K.ANNOUNCE in v.legal)
        assert c.seat_confirmed
        assert view.hand == 1 and view.dealer == 0 and view.you == 0
        assert lines(tmp_path / "game.jsonl") > 1
        await c.close()

    asyncio.run(main())


def test_an_illegal_decision_comes_back_with_the_rules_reason(tmp_path: Path) -> None:
    async def main() -> None:
        c = make(tmp_path)
        c.confirm_seat(True)
        await until(c, lambda v: K.ANNOUNCE in v.legal)
        c.decide(Decision(K.RAISE, amount=50))
        await until(c, lambda v: c.notice is not None)
        assert c.notice is not None
        assert c.notice.text == "raise is not allowed in the announce phase"
        first = c.notice.serial
        c.decide(Decision(K.ANNOUNCE, announcement=ww.announcement(deal_size=7)))
        view = await until(c, lambda v: v.phase is not None and v.phase.value != "announce")
        assert view.announcement == ww.announcement(deal_size=7)
        assert c.notice.serial == first  # nothing refused this time
        await c.close()

    asyncio.run(main())


def test_the_loop_runs_while_the_worker_checks_proofs(tmp_path: Path) -> None:
    async def main() -> None:
        c = make(tmp_path)
        ticks = 0
        busy_ticks = 0

        async def tick() -> None:
            nonlocal ticks, busy_ticks
            while True:
                ticks += 1
                busy_ticks += c.busy
                await asyncio.sleep(0)

        ticker = asyncio.ensure_future(tick())
        c.confirm_seat(True)  # the first hand starts: keys, shuffles, deal, all with proofs
        await until(c, lambda v: K.ANNOUNCE in v.legal)
        ticker.cancel()
        # The loop kept running its own tasks while the worker was busy.
        assert busy_ticks > 0 and ticks > busy_ticks
        await c.close()

    asyncio.run(main())


async def play_a_hand(c: Client) -> tuple[TableView, int]:
    """Play the person's seat through the first hand; the view once it is over, and how many
    decisions the person made."""
    plays = 0
    while True:
        view = await until(c, lambda v: bool(v.legal) or (v.hand >= 1 and not v.hand_running))
        if not view.hand_running:
            return view, plays
        legal = view.legal
        if K.ANNOUNCE in legal:
            d = Decision(K.ANNOUNCE, announcement=ww.announcement())
        elif K.CHOOSE_TRADE_CARDS in legal:
            k = view.action(K.CHOOSE_TRADE_CARDS).low
            assert k is not None
            d = Decision(K.CHOOSE_TRADE_CARDS, positions=tuple(range(k)))
        elif K.LAY_OUT in legal:
            d = Decision(K.LAY_OUT, positions=(4, 3, 2, 1, 0))
        else:
            kind = next(k for k in (K.DECLINE, K.PASS, K.CHECK, K.CALL, K.FOLD) if k in legal)
            d = Decision(kind)
        c.decide(d)
        plays += 1
        await until(c, changed_from(view))


def test_a_whole_hand_then_the_next(tmp_path: Path) -> None:
    async def main() -> None:
        c = make(tmp_path)
        c.confirm_seat(True)
        view, plays = await play_a_hand(c)
        assert view.result and view.stage == "hand over"
        assert plays >= 5
        c.next_hand()
        second = await until(c, lambda v: v.hand == 2 and bool(v.legal))
        assert second.dealer == 1
        await c.close()
        assert c.failure is None

    asyncio.run(main())


def test_the_person_leaves_between_hands(tmp_path: Path) -> None:
    """`leave_table` after a hand: the person's seat writes its `leave` between hands, and
    the table is over for it (SPEC 3.11)."""

    async def main() -> None:
        c = make(tmp_path)
        c.confirm_seat(True)
        await play_a_hand(c)
        c.leave_table()
        await until(c, lambda v: c.ended is not None)
        assert c.ended == LEFT_TABLE.format(hand=1)
        assert c.notice is not None and c.notice.text == c.ended
        await c.close()
        assert c.failure is None

    asyncio.run(main())
    chain = [decode_entry(line) for line in (tmp_path / "game.jsonl").read_bytes().splitlines()]
    assert [(e.author, e.hand) for e in chain if isinstance(e.body, Leave)] == [(0, 1)]


def test_the_hand_limit_ends_the_game_as_at_a_live_table(tmp_path: Path) -> None:
    """`hands=1`: once the first hand is over the game ends by itself, with the live node's
    reason (`p2pwillow.seat`), its end signed by every seat; no next hand starts."""

    async def main() -> None:
        c = make(tmp_path, hands=1)
        c.confirm_seat(True)
        await play_a_hand(c)
        await until(c, lambda v: c.ended is not None)
        assert c.ended == "the game is over: 1 hand played"
        assert c.notice is not None and c.notice.text == c.ended
        c.next_hand()
        await until(c, changed_from(c.view()))
        assert c.view().hand == 1
        await c.close()
        assert c.failure is None

    asyncio.run(main())
    data = (tmp_path / "game.jsonl").read_bytes()
    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report
    assert len(report.hands) == 1
    kinds = [decode_entry(line).kind for line in data.splitlines()]
    assert kinds.count("game_end") == 1 and kinds.count("hand_start") == 1


def test_a_transcript_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"a finished game\n")
    with pytest.raises(FileExistsError):
        make(tmp_path)
    assert path.read_bytes() == b"a finished game\n"


def test_an_impossible_table_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="1 to 9 bots"):
        make(tmp_path, bots=0)
    assert not (tmp_path / "game.jsonl").exists()


def test_closing_stops_the_worker(tmp_path: Path) -> None:
    async def main() -> InProcessClient:
        c = make(tmp_path)
        c.confirm_seat(True)
        await until(c, lambda v: K.ANNOUNCE in v.legal)
        await c.close()
        return c

    c = asyncio.run(main())
    assert not c._thread.is_alive()
    assert c._file.closed
