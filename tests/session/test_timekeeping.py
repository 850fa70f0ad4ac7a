"""The clock's humane side through real sessions (SPEC 3.14, 7.5): a draw on the time bank makes
a seat's clock longer, a pause stops every honest clock until it is resumed or has lasted its
seconds, and the arbiter's rulings are placed only within their bounds. Every peer and
`willow verify` refuse an overdrawn bank, a pause past its bound, a resume by the wrong seat
and a ruling not signed by the arbiter or out of its bounds."""

from __future__ import annotations

import dataclasses
import random

import pytest
from session_helpers import SAMPLES, away_in, make_rng, observer

from p2pwillow.ledger import AuthoredEntry, Body, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import NO_ARBITER, IllegalAction, Phase, TableConfig
from p2pwillow.seat import ENDED_BY_ARBITER, Do, SeatPolicy, Wishes, game_over
from p2pwillow.session import Session, make_genesis
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import Verdict, report_object, report_text, verify_transcript

CLOCK = 30
BANK = 60
PAUSE = 100
AWAY = 2
"""The seat that never decides: the hand ends up waiting for it."""


def _config(**changes: object) -> TableConfig:
    base = TableConfig(
        seats=3, action_clock=CLOCK, time_bank=BANK, pause_limit=PAUSE, pauses=1, arbiter=0
    )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def _away(session: Session) -> None:
    return None


def _waiting(seed: int = 3, **changes: object) -> Table:
    """A table of three whose hand 1 waits for seat AWAY's decision (its player is away)."""
    deciders: dict[int, Decider] = {AWAY: _away}
    table = Table(
        3,
        config=_config(**changes),
        seed=seed,
        rng=make_rng(f"timekeeping/{seed}"),
        deciders=deciders,
        samples=SAMPLES,
    )
    table.start_hand()
    while table.decide_round():
        pass
    first = table.sessions[0]
    assert [w.seat for w in first.waiting_for()] == [AWAY], first.waiting_for()
    return table


def _kinds(table: Table) -> list[str]:
    return [e.kind for e in table.transcript]


def _timed_out(table: Table) -> bool:
    return any(isinstance(e.body, k.Timeout) and AWAY in e.body.seats for e in table.transcript)


def _forged(table: Table, author: int, body: Body, *, signer: int | None = None) -> Entry:
    """`body` by `author` (signed with `signer`'s key, its own by default) right after the
    head, sequenced by the current sequencer: only the session's checks can refuse it."""
    first = table.sessions[0]
    ledger = first.ledger
    authored = AuthoredEntry.create(
        table.identities[author if signer is None else signer],
        game=ledger.game or b"",
        hand=ledger.hand + isinstance(body, k.HandStart),
        author=author,
        body=body,
        counter=10**6,
        seen=ledger.head_hash,
    )
    sequencer = table.identities[first.sequencer]
    return authored.sequence(ledger.head_seq + 1, ledger.head_hash, sequencer)


def _refused(table: Table, entry: Entry, says: str, reason: Reason = Reason.ILLEGAL_ACTION) -> None:
    """An observer and `willow verify` refuse `entry`, placed after the transcript so far, for
    `reason`, saying `says`."""
    with pytest.raises(RemoteProtocolError) as caught:
        observer(table.lines).replay(entry)
    assert caught.value.reason is reason, caught.value
    assert says in caught.value.detail, caught.value.detail
    data = b"".join(table.lines) + entry.encode() + b"\n"
    report = verify_transcript(data)
    assert report.verdict is Verdict.INVALID
    assert report.error is not None
    assert report.error.line == len(table.lines) + 1
    assert reason.value in report.error.reason and says in report.error.reason


# --- the time bank ---------------------------------------------------------------------------


def test_without_a_draw_the_away_seat_is_timed_out_after_one_clock() -> None:
    table = _waiting()
    table.tick(CLOCK + 1)
    assert _timed_out(table)


def test_a_draw_on_the_time_bank_makes_the_seats_clock_longer_for_every_witness() -> None:
    table = _waiting()
    table.move(AWAY, lambda s: s.more_time(30))
    assert _kinds(table)[-1] == "time_bank"
    assert table.sessions[1].bank_left(AWAY) == BANK - 30
    table.tick(CLOCK + 1)
    assert not _timed_out(table)  # 31 s of its 60
    table.tick(CLOCK + 1)
    assert _timed_out(table)


def test_the_clock_runs_on_across_a_draw_it_does_not_start_again() -> None:
    table = _waiting()
    table.tick(20)
    table.move(AWAY, lambda s: s.more_time(10))
    table.tick(15)  # 35 s of its 40
    assert not _timed_out(table)
    table.tick(6)
    assert _timed_out(table)


def test_the_seconds_left_count_down_from_the_clock_and_the_draws() -> None:
    table = _waiting()
    witness = table.sessions[1]
    witness.handle_timer(table.now)
    assert witness.seconds_left(table.now) == {AWAY: CLOCK}
    assert witness.seconds_left(table.now + 12) == {AWAY: CLOCK - 12}
    table.move(AWAY, lambda s: s.more_time(30))
    witness.handle_timer(table.now + 12)
    assert witness.seconds_left(table.now + 12) == {AWAY: CLOCK + 30 - 12}
    # a player whose timer has not run at this head yet: the stretch as it last ran
    assert table.sessions[0].seconds_left(None) == {AWAY: CLOCK + 30}


def test_an_overdrawn_bank_is_refused_by_every_peer_and_by_verify() -> None:
    table = _waiting()
    _refused(table, _forged(table, AWAY, k.TimeBank(seconds=BANK + 1)), "time bank holds 60 s")
    table.move(AWAY, lambda s: s.more_time(40))
    _refused(table, _forged(table, AWAY, k.TimeBank(seconds=21)), "time bank holds 20 s")
    with pytest.raises(IllegalAction, match="time bank holds 20 s"):
        table.sessions[AWAY].more_time(21)
    table.move(AWAY, lambda s: s.more_time())  # what is left
    with pytest.raises(IllegalAction, match="time bank is empty"):
        table.sessions[AWAY].more_time()


def test_a_draw_by_a_seat_that_owes_nothing_is_refused() -> None:
    table = _waiting()
    _refused(table, _forged(table, 1, k.TimeBank(seconds=10)), "owes no step")
    with pytest.raises(IllegalAction, match="owes no step"):
        table.sessions[1].more_time()


def test_a_table_set_up_before_the_bank_has_none() -> None:
    config = _config().to_dict()
    for added in ("time_bank", "pause_limit", "pauses", "arbiter"):
        del config[added]
    old = TableConfig.from_dict(config)
    assert (old.time_bank, old.pause_limit, old.pauses, old.arbiter) == (0, 0, 0, NO_ARBITER)
    table = _waiting(time_bank=0, pause_limit=0, pauses=0, arbiter=NO_ARBITER)
    _refused(table, _forged(table, AWAY, k.TimeBank(seconds=1)), "holds 0 s of 0")
    _refused(table, _forged(table, 1, k.Pause(seconds=1)), "this table does not pause")
    _refused(table, _forged(table, 0, k.RulingEnd()), "no arbiter")


# --- the pause -------------------------------------------------------------------------------


def test_a_pause_stops_every_clock_until_it_is_resumed() -> None:
    table = _waiting()
    table.move(1, lambda s: s.pause())
    first = table.sessions[0]
    assert first.paused is not None and first.paused.seat == 1
    for _ in range(3):
        table.tick(CLOCK + 1)  # 93 s of a pause of at most 100
    assert not _timed_out(table)
    assert all(s.clock_stopped for s in table.sessions)
    assert table.sessions[2].paused_for(table.now) is not None
    table.move(1, lambda s: s.resume())
    assert first.paused is None and not first.clock_stopped
    table.tick(CLOCK + 1)
    assert _timed_out(table)


def test_a_pause_ends_by_itself_after_its_seconds_and_the_clocks_run_again() -> None:
    table = _waiting()
    table.move(1, lambda s: s.pause(40))
    table.tick(35)
    assert not _timed_out(table)
    table.tick(30)  # the pause ran out at 40: 25 s of the clock since
    assert not _timed_out(table)
    assert not table.sessions[0].clock_stopped
    table.tick(10)
    assert _timed_out(table)


def test_bots_and_a_waiting_seat_can_act_while_paused_and_a_new_entry_keeps_it_paused() -> None:
    table = _waiting()
    table.move(AWAY, lambda s: s.pause())
    table.tick(CLOCK + 1)
    assert not _timed_out(table)
    assert table.sessions[0].paused is not None


def test_a_pause_past_its_bound_is_refused_by_every_peer_and_by_verify() -> None:
    table = _waiting()
    _refused(table, _forged(table, 1, k.Pause(seconds=PAUSE + 1)), "at most 100 s, not 101")
    with pytest.raises(IllegalAction, match="at most 100 s"):
        table.sessions[1].pause(PAUSE + 1)
    table.move(1, lambda s: s.pause())
    table.move(1, lambda s: s.resume())
    _refused(table, _forged(table, 1, k.Pause(seconds=10)), "has made its 1 pauses")
    with pytest.raises(IllegalAction, match="made its 1 pauses"):
        table.sessions[1].pause()


def test_only_the_player_who_paused_or_the_arbiter_resumes() -> None:
    table = _waiting()
    _refused(table, _forged(table, 1, k.Resume()), "the table is not paused")
    table.move(1, lambda s: s.pause())
    _refused(table, _forged(table, AWAY, k.Resume()), "seat 1 paused the table")
    with pytest.raises(IllegalAction, match=r"bot 1 \(normal\) paused the table"):
        table.sessions[AWAY].resume()
    table.move(0, lambda s: s.resume())  # seat 0 is the arbiter
    assert table.sessions[2].paused is None


# --- the arbiter -----------------------------------------------------------------------------


def test_the_arbiter_extends_a_seats_clock_within_its_bound() -> None:
    table = _waiting()
    assert table.sessions[1].arbiter == 0
    table.move(0, lambda s: s.rule_extend(AWAY, 30))
    table.tick(CLOCK + 1)
    assert not _timed_out(table)
    _refused(
        table,
        _forged(table, 0, k.RulingExtend(seat=AWAY, seconds=31)),
        "may add 30 s more to seat 2's clock",
    )
    table.tick(CLOCK + 1)
    assert _timed_out(table)


def test_a_ruling_not_signed_by_the_arbiter_is_refused() -> None:
    table = _waiting()
    for body in (k.RulingExtend(seat=AWAY, seconds=10), k.RulingEnd()):
        _refused(table, _forged(table, 1, body), "only the arbiter may")
        # the arbiter's seat named as author, signed by another key: the ledger refuses it
        _refused(table, _forged(table, 0, body, signer=1), "", Reason.BAD_SIGNATURE)
    with pytest.raises(IllegalAction, match="only the arbiter may end the game"):
        table.sessions[1].rule_end()


def test_a_ruling_out_of_its_bounds_is_refused() -> None:
    table = _waiting()
    _refused(table, _forged(table, 0, k.RulingExtend(seat=1, seconds=10)), "owes no step")
    _refused(table, _forged(table, 0, k.RulingSitIn(seat=1)), "only between hands")
    table.move(0, lambda s: s.rule_end())
    _refused(table, _forged(table, 0, k.RulingEnd()), "ended the game already")


def test_the_arbiters_end_lets_the_hand_finish_and_no_hand_start() -> None:
    table = _waiting(seed=4)
    table.move(0, lambda s: s.rule_end())
    table.deciders[AWAY] = bot_decider(AWAY, random.Random(AWAY), samples=SAMPLES)
    table.finish_hand()
    first = table.sessions[0]
    assert first.between_hands and first.end_ruled
    assert first.due() == ()  # no next hand is owed: nobody's clock runs for it
    # every seat's policy says why, and writes the game's end rather than deal
    assert game_over(first, hands=0, end_wanted=False) == ENDED_BY_ARBITER
    move = SeatPolicy(deal_grace=0, end_grace=0).next(first, Wishes(), 0.0)
    assert move is not None and move.do is Do.END_GAME, move
    dealer = first.game.next_button()
    _refused(
        table,
        _forged(table, dealer, k.HandStart(dealer=dealer, players=_playing(first))),
        "the arbiter ended the game",
    )
    table.end_game(1)
    assert first.complete


def _playing(s: Session) -> list[k.SeatStack]:
    return [k.SeatStack(seat=p.seat, stack=p.stack) for p in s.game.players if p.plays]


def test_the_arbiter_sits_a_seat_folded_for_stalling_back_in_at_once() -> None:
    table = Table(
        3,
        config=_config(),
        seed=6,
        rng=make_rng("timekeeping/sit-in"),
        deciders={AWAY: away_in(Phase.LAYOUT, AWAY)},
        samples=SAMPLES,
    )
    assert table.play_hand()
    first = table.sessions[0]
    assert first.game.player(AWAY).sitting_out
    with pytest.raises(IllegalAction, match="sits out until a hand has started"):
        table.sessions[AWAY].sit_in()
    _refused(table, _forged(table, 0, k.RulingSitIn(seat=1)), "seat 1 is not sitting out")
    _refused(table, _forged(table, 1, k.RulingSitIn(seat=AWAY)), "only the arbiter may")
    table.move(0, lambda s: s.rule_sit_in(AWAY))
    assert not first.game.player(AWAY).sitting_out
    assert _kinds(table)[-1] == "ruling_sit_in"
    assert AWAY in [p.seat for p in _playing(first)]


def test_a_genesis_naming_an_arbiter_where_nobody_sits_is_refused() -> None:
    table = _waiting()
    genesis = table.transcript[0]
    assert isinstance(genesis.body, k.Genesis)
    config = TableConfig(seats=4, arbiter=3)
    players = [(p.seat, p.name, bytes.fromhex(p.identity_key)) for p in genesis.body.players]
    bad = make_genesis(table.identities[0], 0, genesis.game, "t", config, players)
    with pytest.raises(RemoteProtocolError, match="the arbiter is seat 3, where nobody sits"):
        Session(None, None, bad)


def test_the_verifier_lists_the_draws_pauses_and_rulings() -> None:
    table = _waiting()
    table.move(AWAY, lambda s: s.more_time(20))
    table.move(1, lambda s: s.pause(50))
    table.move(0, lambda s: s.resume())
    table.move(0, lambda s: s.rule_extend(AWAY, 15))
    report = verify_transcript(b"".join(table.lines))
    assert report.verdict is Verdict.NOT_CLOSED, report.error  # the hand waits for seat 2
    assert report.arbiter == 0
    assert [(n.kind, n.author, n.seat, n.seconds) for n in report.clock] == [
        ("time_bank", AWAY, None, 20),
        ("pause", 1, None, 50),
        ("resume", 0, None, None),
        ("ruling_extend", 0, AWAY, 15),
    ]
    text = report_text(report)
    assert "The arbiter is bot 0 (normal)." in text, text
    assert "Each player had 60 s in their time bank and 1 pause of at most 100 s." in text
    assert "bot 2 took 20 s more from their time bank" in text
    assert "bot 1 (normal) paused the table (for at most 50 s)" in text
    assert "the arbiter, bot 0 (normal), gave bot 2 15 s more" in text
    data = report_object(report)
    assert data["arbiter"] == 0
    assert data["clock"][3] == {  # type: ignore[index]
        "hand": 1,
        "line": len(table.lines),
        "kind": "ruling_extend",
        "by": 0,
        "seat": AWAY,
        "seconds": 15,
    }
    config = data["config"]
    assert isinstance(config, dict)
    assert (config["time_bank"], config["pause_limit"], config["pauses"]) == (BANK, PAUSE, 1)
