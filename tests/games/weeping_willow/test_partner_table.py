"""Trading as at a real table through the sessions, the in-process table and `willow verify`
(SPEC 3.5, 6.10 `choose_partner`, 7.3): the offerer's choice agrees the trade and gives it its
id, racing answers all count, announcements made before `partner` read as `first-accept`."""

from __future__ import annotations

import json
import random

import pytest
from session_helpers import SAMPLES, new_table, observer

from p2pwillow.games import FORMER, WEEPING_WILLOW, spec_hash
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.ledger import Reason, kinds
from p2pwillow.ledger.canonical import JsonValue
from p2pwillow.rules import ActionKind, Announcement, Decision, Phase
from p2pwillow.session import Session
from p2pwillow.session.checks import Rejected, announcement_of
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import verify_transcript
from p2pwillow.verify.json_report import report_object
from p2pwillow.verify.text import report_text

IN_TURN = ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBITS, 2)
FREE = ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS)


def dealer_announces(announcement: Announcement) -> dict[int, Decider]:
    """Bots at every seat; whoever deals announces `announcement`."""
    out: dict[int, Decider] = {}
    for seat in range(4):
        bot = bot_decider(seat, random.Random(300 + seat), samples=SAMPLES)

        def decide(session: Session, bot: Decider = bot) -> Decision | None:
            hand = session.hand
            if hand is not None and hand.phase is Phase.ANNOUNCE:
                return Decision(ActionKind.ANNOUNCE, announcement=announcement)
            return bot(session)

        out[seat] = decide
    return out


def played(announcement: Announcement, seed: int) -> Table:
    table = new_table(4, seed=seed, deciders=dealer_announces(announcement))
    assert table.play(2) == 2
    table.end_game()
    assert table.rejections == []
    return table


@pytest.mark.parametrize("announcement", [IN_TURN, FREE], ids=["in-turn", "free"])
def test_bots_trade_by_choosing_partners_and_the_transcript_verifies(
    announcement: Announcement,
) -> None:
    table = played(announcement, seed=11)
    entries = table.transcript
    chosen = {e.seq: e for e in entries if e.kind == "choose_partner"}
    gives = [e for e in entries if e.kind == "trade_give"]
    assert chosen and gives
    for give in gives:
        assert isinstance(give.body, kinds.TradeGive)
        agreed = chosen[give.body.trade]  # SPEC 6.6: the choice's seq is the trade id
        assert give.author == agreed.author or give.author == agreed.body.partner  # type: ignore[attr-defined]
    # an offerer chose among those who accepted: each choice names one who accepted before it
    for seq, e in chosen.items():
        offers = [x for x in entries if x.kind == "offer" and x.seq < seq]
        accepts = {x.author for x in entries if x.kind == "accept" and offers[-1].seq < x.seq < seq}
        assert e.author == offers[-1].author
        assert e.body.partner in accepts  # type: ignore[attr-defined]
    if ww.Setup.of(announcement).mode is TradingMode.FREE:
        # nobody's chance is cut off: every seat with a token offered or passed before the close
        closes = [e for e in entries if e.kind == "close_trading"]
        for close in closes:
            hand_entries = [x for x in entries if x.hand == close.hand and x.seq < close.seq]
            had = {x.author for x in hand_entries if x.kind in ("offer", "pass")}
            assert had | {close.author} >= {0, 1, 2, 3}
    report = verify_transcript(b"".join(table.lines))
    assert report.error is None
    assert observer(table.lines).complete
    text = report_text(report)
    assert "the offerer picks among those who accept" in text
    out = report_object(report)
    trading = out["hands"][0]["trading"]  # type: ignore[index]
    assert trading["partner"] == "offerer-chooses"
    json.dumps(out)


def test_an_announcement_of_the_former_description_plays_first_accept() -> None:
    (former,) = FORMER
    assert former == "767df60cc913b7bedf3c33e1000bef2882001faf1447bfd14f726295682561b0"
    assert spec_hash(WEEPING_WILLOW) != former
    options: dict[str, JsonValue] = {
        "deal_size": 5,
        "trading_mode": "free",
        "closing": "dealer-calls",
        "orbits": 0,
    }
    body = kinds.AnnounceGame(game="weeping-willow", description=former, options=options)
    a = announcement_of(body)
    assert ww.Setup.of(a).partner is ww.Partner.FIRST_ACCEPT
    legacy = kinds.Announce(deal_size=6, trading_mode="in-turn", closing="orbits", orbits=2)
    assert ww.Setup.of(announcement_of(legacy)).partner is ww.Partner.FIRST_ACCEPT
    with pytest.raises(Rejected) as refused:  # the former description has no such option
        announcement_of(
            kinds.AnnounceGame(
                game="weeping-willow",
                description=former,
                options={**options, "partner": "offerer-chooses"},
            )
        )
    assert refused.value.reason is Reason.ILLEGAL_ACTION
    with pytest.raises(Rejected) as other:
        announcement_of(
            kinds.AnnounceGame(game="weeping-willow", description="0" * 64, options=options)
        )
    assert other.value.reason is Reason.BAD_FIELD
