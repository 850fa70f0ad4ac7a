"""Declarations chosen by a test that sees every seat's cards, for the tests of a split-pot game
(SPEC 3.16): fixed choices, or a plan with which nobody wins the pot, so that it carries over
to the next hand. Every seat plays along: it checks or calls each bet, so the hand reaches the
showdown with the pot as it stood at the declaration."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

from p2pwillow.cards import Card
from p2pwillow.rules import ActionKind, Decision, Hand, Phase, Pot
from p2pwillow.rules.declare import Declaration, SettleSplit, side_sets, split
from p2pwillow.session import Session

K = ActionKind
CHOICES = ("low", "pig", "high")


def nobody_wins(hand: Hand, hole: Mapping[int, Sequence[Card]]) -> dict[int, str] | None:
    """Declarations of the players still in with which nobody wins the pot as it stands (every
    one a pig that fails, or a side nobody can win), by the cards each holds (`hole`); None
    when every choice leaves the pot a winner."""
    game = hand.game
    assert game is not None
    settle = game.steps_of(SettleSplit)[0]
    live = [x for x in hand.seats if not hand.is_folded(x)]
    sets = {
        x: side_sets(settle.formation, settle.second, hole[x], hand.board, hole[x]) for x in live
    }
    pot = Pot(hand.pot, tuple(live))
    for choice in itertools.product(CHOICES, repeat=len(live)):
        declared = {x: Declaration(c) for x, c in zip(live, choice, strict=True)}
        if split(pot, declared, sets).carried:
            return dict(zip(live, choice, strict=True))
    return None


class Plan:
    """The declarations of one table, hand by hand: `fixed` choices by seat (high for a seat
    not named), or (`carry`) the choices with which nobody wins, where some exist (else the
    fixed ones), in at most `carries` hands (None: as many as it can)."""

    def __init__(
        self,
        sessions: Callable[[], Sequence[Session]],
        *,
        fixed: Mapping[int, str] | None = None,
        carry: bool = False,
        carries: int | None = None,
    ) -> None:
        self._sessions = sessions
        self._fixed = dict(fixed or {})
        self._carry = carry
        self._carries = carries
        self._made: dict[int, dict[int, str]] = {}
        self.carried: list[int] = []
        """The hands whose plan leaves the pot to nobody."""

    def choice(self, hand: Hand, seat: int) -> str:
        number = hand.hand_number
        done = self._carries is not None and len(self.carried) >= self._carries
        if not self._carry or (done and number not in self._made):
            return self._fixed.get(seat, "high")
        if number not in self._made:
            hole = {s.seat: s.cards for s in self._sessions() if s.seat is not None}
            plan = nobody_wins(hand, hole)
            if plan is not None:
                self.carried.append(number)
            self._made[number] = plan or {x: self._fixed.get(x, "high") for x in hand.seats}
        return self._made[number][seat]

    def decider(
        self, seat: int, other: Callable[[Session], Decision | None]
    ) -> Callable[[Session], Decision | None]:
        """`seat` declares by the plan, checks or calls every bet, and leaves the rest (the
        announcement) to `other`."""

        def decide(session: Session) -> Decision | None:
            hand = session.hand
            assert hand is not None
            legal = hand.legal_actions(seat)
            if K.DECLARE in legal:
                return Decision(K.DECLARE, choice=self.choice(hand, seat))
            if hand.phase is Phase.BETTING:
                for kind in (K.CHECK, K.CALL):
                    if kind in legal:
                        return Decision(kind)
            return other(session)

        return decide
