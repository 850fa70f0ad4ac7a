"""`willow verify --json`: one JSON object per transcript (SPEC 7.6), whatever the verdict.

Pure; no I/O. Its JSON Schema is protocol/schemas/reports/verify-report.json.
"""

from __future__ import annotations

import json

from p2pwillow.games import weeping_willow as ww
from p2pwillow.rules import NO_ARBITER, Announcement, TableConfig
from p2pwillow.seat import Ending
from p2pwillow.session import ClockNoted
from p2pwillow.verify.history import (
    BettingRound,
    Forfeit,
    HandHistory,
    PotResult,
    SeatWash,
    StreetDeal,
)
from p2pwillow.verify.outcome import VerifyError, VerifyReport
from p2pwillow.verify.seat_log import DECLINED, SIT_OUT, TIMEOUT, WITHDRAWN, SeatEvent

BUG = "bug"
"""The `verdict` when willow itself failed: no verdict on the transcript."""


def _config(c: TableConfig | None) -> dict[str, object] | None:
    if c is None:
        return None
    return {
        "seats": c.seats,
        "starting_stack": c.starting_stack,
        "trade_tokens": c.trade_tokens,
        "token_value": c.token_value,
        "structure": c.structure.value,
        "min_bet": c.min_bet,
        "max_bet": c.max_bet,
        "small_bet": c.small_bet,
        "big_bet": c.big_bet,
        "max_raises": c.max_raises,
        "action_clock": c.action_clock,
        "games": list(c.games),
        "time_bank": c.time_bank,
        "pause_limit": c.pause_limit,
        "pauses": c.pauses,
        "arbiter": None if c.arbiter == NO_ARBITER else c.arbiter,
    }


def _trading(a: Announcement | None, closed: str) -> dict[str, object] | None:
    """How the hand traded (Weeping Willow's trading step); None in a game without one."""
    if a is None or a.game is not ww.WEEPING_WILLOW:
        return None
    setup = ww.Setup.of(a)
    return {
        "mode": setup.mode.value,
        "closing": setup.closing.value,
        "orbits": setup.orbits,
        "partner": setup.partner.value,
        "closed": closed,
    }


def _round(r: BettingRound) -> dict[str, object]:
    return {
        "number": r.number,
        "turned": [{"seat": seat, "card": card.ascii} for seat, card in r.turned],
        "opener": r.opener,
        "actions": [
            {
                "seat": a.seat,
                "action": a.action,
                "chips": a.chips,
                "to": a.to,
                "timed_out": a.timed_out,
            }
            for a in r.actions
        ],
    }


def _street(st: StreetDeal) -> dict[str, object]:
    return {
        "name": st.name,
        "round": st.round,
        "down": st.down,
        "up": [{"seat": seat, "cards": [c.ascii for c in cards]} for seat, cards in st.up],
        "board": [c.ascii for c in st.board],
        "drawn": [{"seat": seat, "count": n} for seat, n in st.drawn],
        "washed": [_wash(w) for w in st.washed],
        "passed": [
            {
                "seat": p.seat,
                "to": p.to,
                "card": p.card.ascii,
                "paid": p.paid,
                "dealt": None if p.dealt is None else p.dealt.ascii,
            }
            for p in st.passed
        ],
    }


def _wash(w: SeatWash) -> dict[str, object]:
    """A player's wash (SPEC 3.17): a card washed face down is never named, nor the card dealt
    face down for it or for a face-up card cloaked or washed by a flip (the transcript keeps
    them secret); a flip names the card it turned face up, public from then on."""
    return {
        "seat": w.seat,
        "kept": w.kept,
        "paid": w.paid,
        "cards": [
            {
                "face": "up" if c.up else "down",
                "card": None if c.card is None else c.card.ascii,
                "dealt": None if c.dealt is None else c.dealt.ascii,
                "cloaked": c.cloaked,
                "flipped": None if c.flipped is None else c.flipped.ascii,
            }
            for c in w.cards
        ],
    }


def _forfeit(f: Forfeit | None) -> dict[str, object] | None:
    if f is None:
        return None
    return {
        "silent": list(f.silent),
        "amount": f.amount,
        "shared_by": list(f.shared_by),
        "shares": list(f.shares),
        "refunds": [{"seat": seat, "amount": chips} for seat, chips in f.refunds],
    }


def _live(h: HandHistory, out: dict[str, object]) -> None:
    """What a hand dealt from the live deck adds (SPEC 3.15): its formation, the board, each
    street, and the forfeit settlement if the hand ended with one; each showdown hand its
    shown and up cards."""
    out["formation"] = h.formation
    out["board"] = [c.ascii for c in h.board]
    out["streets"] = [_street(st) for st in h.streets]
    out["forfeit"] = _forfeit(h.forfeit)
    out["showdown"] = [
        {
            "seat": sh.seat,
            "cards": [c.ascii for c in sh.cards],
            "hand": sh.value,
            "shows": [c.ascii for c in sh.shows],
            "up": [c.ascii for c in sh.up],
            **({} if sh.sides is None else {"sides": list(sh.sides)}),
        }
        for sh in h.showdown
    ]


def _pot(p: PotResult) -> dict[str, object]:
    out: dict[str, object] = {
        "amount": p.amount,
        "eligible": list(p.contested),
        "winners": list(p.winners),
        "shares": list(p.shares),
    }
    if p.split:
        out["high"] = list(p.high)
        out["low"] = list(p.low)
        out["pigs_failed"] = list(p.pigs_failed)
        out["carried"] = p.carried
    return out


def _split(h: HandHistory, out: dict[str, object]) -> None:
    """What a hand of a split-pot game adds (SPEC 3.16): what each side is won with, who
    sealed a declaration and every declaration as it opened (its pots say who won each side
    and what carried over; each hand shown, what it is worth on each side)."""
    assert h.sides is not None
    out["sides"] = {"high": h.sides[0], "low": h.sides[1]}
    out["sealed"] = list(h.sealed)
    out["declared"] = [{"seat": seat, "choice": choice} for seat, choice in h.declared]


def _hand(h: HandHistory) -> dict[str, object]:
    s = h.summary
    out: dict[str, object] = {
        "number": s.number,
        "dealer": s.dealer,
        "seats": list(s.seats),
        "game": s.game,
        "deal_size": s.deal_size,
        "trading": _trading(h.announcement, h.trading_closed),
        "trades": [{"seats": list(t.seats), "cards": t.cards} for t in s.trades],
        "shown": {str(seat): [c.ascii for c in cards] for seat, cards in s.shown},
        "folded": list(s.folded),
        "rounds": [_round(r) for r in h.rounds],
        "showdown": [
            {"seat": sh.seat, "cards": [c.ascii for c in sh.cards], "hand": sh.value}
            for sh in h.showdown
        ],
        "pots": [_pot(p) for p in h.pots],
        "returned": [{"seat": seat, "amount": chips} for seat, chips in h.returned],
        "chips": {str(seat): net for seat, net in s.chips},
        "stacks": {str(seat): stack for seat, stack in h.stacks},
        "proofs": dict(h.proofs),
        "hidden_cards": s.hidden,
        "aborted": s.aborted,
        "signed": s.signed,
        "carried_in": s.carried_in,
        "carried": s.carried,
    }
    out["events"] = [_seat_event(e) for e in h.events]
    if h.live:
        _live(h, out)
    if h.sides is not None:
        _split(h, out)
    if s.aborted:
        out["blamed"] = list(s.blamed)
        out["reason"] = s.reason
    if s.false_claims:
        out["false_claims"] = [
            {"kind": c.kind, "seats": list(c.seats), "signers": list(c.signers)}
            for c in s.false_claims
        ]
    if s.stopped:
        out["stopped"] = list(s.stopped)
    return out


def _seat_event(e: SeatEvent) -> dict[str, object]:
    out: dict[str, object] = {"kind": e.kind, "seat": e.seat}
    if e.kind == TIMEOUT:
        out["step"], out["outcome"] = e.step, e.outcome
    elif e.kind == SIT_OUT:
        out["reason"] = e.reason
    elif e.kind in (DECLINED, WITHDRAWN):
        out["cards"] = e.cards
        if e.other is not None:
            out["offerer"] = e.other
    return out


def _ending(end: Ending | None) -> dict[str, object] | None:
    if end is None:
        return None
    return {"why": end.why.value, "seat": end.seat, "text": end.text}


def _clock(n: ClockNoted) -> dict[str, object]:
    """One entry about the clock (SPEC 3.14): who wrote it, what it was, for whom, how long."""
    return {
        "hand": n.hand,
        "line": n.seq + 1,
        "kind": n.kind,
        "by": n.author,
        "seat": n.seat,
        "seconds": n.seconds,
    }


def _carry_shared(report: VerifyReport) -> dict[str, object] | None:
    """The pot nobody won in the last hand, shared out at the game's end (SPEC 3.16)."""
    if not report.carry_shared:
        return None
    return {
        "hand": report.hands[-1].number if report.hands else report.hand,
        "amount": sum(chips for _, chips in report.carry_shared),
        "shares": [{"seat": seat, "amount": chips} for seat, chips in report.carry_shared],
    }


def _error(e: VerifyError | None) -> dict[str, object] | None:
    if e is None:
        return None
    return {
        "line": e.line,
        "author": e.author,
        "author_signed": e.author_signed,
        "kind": e.kind,
        "reason": e.reason,
    }


def report_object(report: VerifyReport) -> dict[str, object]:
    """The report as the JSON object SPEC 7.6 describes."""
    return {
        "file": report.source,
        "verdict": report.verdict.value,
        "error": _error(report.error),
        "table": report.table,
        "config": _config(report.config),
        "players": [{"seat": seat, "name": name} for seat, name in report.players],
        "stacks": [
            {
                "seat": st.seat,
                "name": st.name,
                "bought_in": st.bought_in,
                "final": st.final,
                "net": st.net,
                "left": st.left,
            }
            for st in report.stacks
        ],
        "chips": None
        if report.chips is None
        else {
            "bought_in": report.chips.bought_in,
            "at_table": report.chips.at_table,
            "left": report.chips.left,
            "carried": report.chips.carried,
        },
        "carry_shared": _carry_shared(report),
        "entries": report.entries,
        "complete_hands": report.through_hand,
        "missing": [{"seat": w.seat, "step": w.step} for w in report.missing],
        "cut_off": report.cut_off,
        "game_over": report.game_over,
        "end_reason": _ending(report.ending),
        "ended_by": report.ended_by,
        "arbiter": report.arbiter,
        "clock": [_clock(n) for n in report.clock],
        "notes": list(report.notes),
        "hands": [_hand(h) for h in report.hands],
    }


def json_line(obj: dict[str, object]) -> str:
    """A report object as `--json` prints it: one line, keys sorted."""
    return json.dumps(obj, sort_keys=True)


def report_json(report: VerifyReport) -> str:
    """One line of JSON: `report_object`."""
    return json_line(report_object(report))


def bug_object(source: str, what: str) -> dict[str, object]:
    """The object for a transcript willow failed on: `verdict` "bug", `what` in `error`."""
    error = VerifyError(None, None, f"a bug in willow, not in the transcript: {what}")
    return {
        "file": source,
        "verdict": BUG,
        "error": _error(error),
        "table": None,
        "config": None,
        "players": [],
        "stacks": [],
        "chips": None,
        "carry_shared": None,
        "entries": 0,
        "complete_hands": 0,
        "missing": [],
        "cut_off": None,
        "game_over": False,
        "end_reason": None,
        "ended_by": None,
        "arbiter": None,
        "clock": [],
        "notes": [],
        "hands": [],
    }


def bug_json(source: str, what: str) -> str:
    """One line of JSON: `bug_object`."""
    return json_line(bug_object(source, what))


__all__ = ["BUG", "bug_json", "bug_object", "json_line", "report_json", "report_object"]
