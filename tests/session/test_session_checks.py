"""The session's entry checks read the action table (SPEC 7.2): every kind a session accepts
has its check, and a plain entry's body and its action's argument map onto each other."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from p2pwillow.games import ACTIONS
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.ledger.kinds import CLOCK_KINDS, KINDS
from p2pwillow.rules.actions import Action, Needs
from p2pwillow.session.checks import ADDED_CHECKS, CHECKS, Rejected, argument_of, body_of
from p2pwillow.session.record import HandRecord

PLAIN = [a for a in ACTIONS if a.body is not None or a.needs is Needs.ANNOUNCEMENT]
ARGUMENTS: dict[Needs, object] = {
    Needs.NOTHING: None,
    Needs.OPEN_OFFER: None,
    Needs.K: 3,
    Needs.AMOUNT: 40,
    Needs.ANNOUNCEMENT: ww.announcement(6, TradingMode.FREE, TradingClose.DEALER_CALLS),
}
OPEN_OFFER = 17
RECORD = cast(HandRecord, SimpleNamespace(offer_seq=OPEN_OFFER))


def test_every_kind_but_the_genesis_has_its_check() -> None:
    assert set(CHECKS) | set(ADDED_CHECKS) == set(KINDS) - {"genesis"}
    assert set(ADDED_CHECKS) == CLOCK_KINDS  # the clock's, from session/timekeeping.py


def test_an_announcement_of_a_game_this_peer_does_not_know_is_refused() -> None:
    action = next(a for a in PLAIN if a.needs is Needs.ANNOUNCEMENT)
    announced = body_of(action, ARGUMENTS[Needs.ANNOUNCEMENT], OPEN_OFFER)
    unknown = KINDS["announce_game"].from_json({**announced.to_json(), "game": "baseball"})
    with pytest.raises(Rejected, match="does not know the game 'baseball'"):
        argument_of(action, unknown, RECORD)
    other = KINDS["announce_game"].from_json({**announced.to_json(), "description": "ab" * 32})
    with pytest.raises(Rejected, match="another description of Weeping Willow"):
        argument_of(action, other, RECORD)
    bad = KINDS["announce_game"].from_json(
        {**announced.to_json(), "options": {"deal_size": 9, "trading_mode": "free"}}
    )
    with pytest.raises(Rejected, match="lacks"):
        argument_of(action, bad, RECORD)


@pytest.mark.parametrize("action", PLAIN, ids=lambda a: a.entry)
def test_a_plain_body_carries_its_actions_argument(action: Action) -> None:
    argument = ARGUMENTS[action.needs]
    body = body_of(action, argument, OPEN_OFFER)
    assert isinstance(body, KINDS[action.entry])
    assert argument_of(action, body, RECORD) == argument
    if action.needs is Needs.OPEN_OFFER:
        assert body.to_json() == {"offer": OPEN_OFFER}


@pytest.mark.parametrize(
    "action", [a for a in PLAIN if a.needs is Needs.OPEN_OFFER], ids=lambda a: a.entry
)
def test_an_answer_to_another_offer_is_refused(action: Action) -> None:
    body = body_of(action, None, OPEN_OFFER + 1)
    with pytest.raises(Rejected, match="not the open offer"):
        argument_of(action, body, RECORD)


def test_an_announcement_the_rules_refuse_is_an_illegal_action() -> None:
    action = next(a for a in PLAIN if a.needs is Needs.ANNOUNCEMENT)
    body = KINDS["announce"].from_json(
        {"deal_size": 5, "trading_mode": "free", "closing": "orbits", "orbits": 2}
    )
    with pytest.raises(Rejected, match="free trading closes only when the dealer calls it"):
        argument_of(action, body, RECORD)
