"""The split-pot games through real sessions (SPEC 3.16, 6.13): every player's declaration is
sealed before any opens, every peer checks each opening against its commitment, a pot nobody
wins carries over to the next hand and out at the game's end, the transcript replays for an
observer, and a changed declaration, an opening out of turn or a second seal is refused."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest
from session_helpers import SAMPLES, fork, make_rng, observer, resign, snapshot, states_before
from test_live_deck_games import God

from p2pwillow.crypto.group import G
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.games.split_pot import SPLIT_POT_GAMES
from p2pwillow.ledger import Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import ActionKind, Announcement, Decision, GameSpec, Hand, Phase, TableConfig
from p2pwillow.rules.wash import Wash
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript

DECLARED = (*SPLIT_POT_GAMES, PASS_THE_CARD)
"""Every game with a declaration: the split-pot games and Pass the Card."""
GAMES = tuple(g.name for g in DECLARED)
START = 1000


def _game(name: str) -> GameSpec:
    return next(g for g in DECLARED if g.name == name)


Choose = Callable[[Hand], object]


def _player(
    seat: int,
    game: GameSpec,
    *,
    bet: Callable[[Hand, int], Decision | None],
    declare: Choose | None = None,
    wash: Choose | None = None,
) -> object:
    """A bot that deals `game` when it deals, bets by `bet` where that says something, and
    declares (`declare`) and washes (`wash`) by its own rule where one is given."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(game))
        if hand.phase is Phase.DECLARE and declare is not None:
            return Decision(ActionKind.DECLARE, choice=declare(hand))  # type: ignore[arg-type]
        if hand.phase is Phase.DRAW and wash is not None and isinstance(hand.step, Wash):
            positions: tuple[int, ...] = wash(hand)  # type: ignore[assignment]
            if ActionKind.KEEP_CALL in hand.legal_actions(seat):
                # Five by Two: it says first whether it washes (SPEC 3.17)
                return Decision(ActionKind.WASH_CALL if positions else ActionKind.KEEP_CALL)
            if hand.step.called and not positions:
                positions = (0,)  # it said it washes: a card it must name
            return Decision(ActionKind.DRAW, positions=positions)
        if hand.phase is Phase.BETTING:
            decision = bet(hand, seat)
            if decision is not None:
                return decision
        return bot(session)

    return decide


def _calls(hand: Hand, seat: int) -> Decision | None:
    """Call whatever is bet, check when nothing is: four bots fold many hands to one."""
    if seat not in hand.to_act():
        return None
    legal = hand.legal_actions(seat)
    return Decision(ActionKind.CALL if ActionKind.CALL in legal else ActionKind.CHECK)


def _decider(seat: int, game: GameSpec, pig: bool) -> object:
    """A player that calls every bet (so that hands reach the declaration) and declares,
    washes and draws as a bot, or (with `pig`) always declares both ways."""
    return _player(seat, game, bet=_calls, declare=(lambda hand: "pig") if pig else None)


def _verdict(table: Table) -> Verdict:
    return verify_transcript(b"".join(table.lines)).verdict


def _table(name: str, pig: bool) -> Table:
    game = _game(name)
    config = TableConfig(seats=4, games=GAMES, ante=5, starting_stack=START)
    return Table(
        4,
        config=config,
        seed=5,
        rng=make_rng(f"split/{name}/{pig}"),
        deciders={s: _decider(s, game, pig) for s in range(4)},  # type: ignore[misc]
    )


@functools.cache
def played(name: str) -> Table:
    """Two hands or more, until one has reached its declaration (bots fold many hands)."""
    table = _table(name, pig=False)
    for number in range(1, 13):
        assert table.play(1) == 1
        if number >= 2 and any(s.declared for s in table.sessions[0].summaries):
            break
    table.end_game()
    return table


@functools.cache
def carried_to_the_end() -> Table:
    """Everybody goes pig: when the best high and the best low are two players' hands, both
    pigs fail and nobody is left to win. Played until a hand leaves a carry, then ended."""
    table = _table("holdem-high-low", pig=True)
    for _ in range(12):
        assert table.play(1) == 1
        if table.sessions[0].summaries[-1].carried:
            break
    table.end_game()
    return table


@pytest.mark.parametrize("name", GAMES)
def test_declared_hands_play_to_the_end_and_replay_for_an_observer(name: str) -> None:
    table = played(name)
    assert not table.rejections and not table.refusals
    kinds = Counter(e.kind for e in table.transcript)
    assert kinds["declare"] > 0 and kinds["declare_open"] == kinds["declare"]
    seen = observer(table.lines)
    mine = table.sessions[0].summaries
    assert [s.declared for s in seen.summaries] == [s.declared for s in mine]
    assert any(s.declared for s in mine)
    game = seen.game
    assert sum(p.stack for p in game.players) + game.carried == 4 * START
    assert _verdict(table) is Verdict.VALID


def test_a_pot_nobody_wins_carries_over_and_is_shared_out_at_the_games_end() -> None:
    table = carried_to_the_end()
    assert not table.rejections and not table.refusals
    summaries = table.sessions[0].summaries
    last = summaries[-1]
    assert last.carried and last.pots and not any(p.winners for p in last.pots)
    for before, after in itertools.pairwise(summaries):
        assert after.carried_in == before.carried  # the next hand's main pot holds it
    game = table.sessions[0].game
    assert game.carried == last.carried
    assert sum(p.stack for p in game.players) + game.carried == 4 * START
    end = next(e for e in table.transcript if e.kind == "game_end")
    assert isinstance(end.body, k.GameEnd)
    assert sum(p.stack for p in end.body.players) == 4 * START  # the carry is shared out
    shares = {p.seat: p.stack - game.player(p.seat).stack for p in end.body.players}
    assert max(shares.values()) - min(shares.values()) <= 1
    assert _verdict(table) is Verdict.VALID
    # a game end that keeps the carried pot for nobody does not add up
    plain = [k.SeatStack(seat=p.seat, stack=p.stack) for p in game.players]
    i = table.transcript.index(end)
    bad = resign(table, end, body=k.GameEnd(players=plain))
    why = _refused(table, i, bad, Reason.ILLEGAL_ACTION)
    assert "stacks are" in why


# --- cheats: one RemoteProtocolError, nothing changed --------------------------------------


@functools.cache
def _states(name: str) -> list[Session]:
    return states_before(played(name).lines)


def _refused(
    table: Table, i: int, bad: Entry, reason: Reason, states: list[Session] | None = None
) -> str:
    session = fork((states or states_before(table.lines))[i])
    before = snapshot(session)
    with pytest.raises(RemoteProtocolError) as caught:
        session.replay(bad)
    assert caught.value.reason is reason, caught.value
    assert snapshot(session) == before
    session.replay(table.transcript[i])  # the honest entry still fits
    return str(caught.value)


def _first_declaration(table: Table) -> tuple[int, int, int]:
    """The indices of a hand's first `declare`, its second, and its first `declare_open`."""
    t = table.transcript
    first = next(i for i, e in enumerate(t) if e.kind == "declare")
    second = next(i for i in range(first + 1, len(t)) if t[i].kind == "declare")
    opening = next(i for i in range(first, len(t)) if t[i].kind == "declare_open")
    return first, second, opening


def test_an_opening_with_another_choice_or_nonce_is_refused() -> None:
    name = "omaha-high-low"
    table = played(name)
    _, _, i = _first_declaration(table)
    body = table.transcript[i].body
    assert isinstance(body, k.DeclareOpen)
    other = next(c for c in k.DECLARATIONS if c != body.choice)
    changed = resign(table, table.transcript[i], body=dataclasses.replace(body, choice=other))
    why = _refused(table, i, changed, Reason.ILLEGAL_ACTION, _states(name))
    assert "does not match the commitment" in why
    nonce = ("0" if body.nonce[0] != "0" else "1") + body.nonce[1:]
    forged = resign(table, table.transcript[i], body=dataclasses.replace(body, nonce=nonce))
    _refused(table, i, forged, Reason.ILLEGAL_ACTION, _states(name))


def test_no_declaration_opens_before_every_one_is_sealed_and_none_is_sealed_twice() -> None:
    name = "omaha-high-low"
    table = played(name)
    first, second, opening = _first_declaration(table)
    sealer = table.transcript[first].author
    its_opening = next(
        e for e in table.transcript[opening:] if e.kind == "declare_open" and e.author == sealer
    )
    early = resign(table, table.transcript[second], author=sealer, body=its_opening.body)
    why = _refused(table, second, early, Reason.ILLEGAL_ACTION, _states(name))
    assert "once every one is sealed" in why
    again = resign(
        table, table.transcript[second], author=sealer, body=table.transcript[first].body
    )
    why = _refused(table, second, again, Reason.ILLEGAL_ACTION, _states(name))
    assert "declared already" in why


# --- every card in one place after every entry --------------------------------------------


def _random(seat: int, game: GameSpec) -> object:
    """A player of `game` that declares and washes at random, and calls as a bot would not."""
    rng = random.Random(100 + seat)

    def calls(hand: Hand, me: int) -> Decision | None:
        # most hands reach the declaration
        return Decision(ActionKind.CALL) if ActionKind.CALL in hand.legal_actions(me) else None

    def wash(hand: Hand) -> tuple[int, ...]:
        held = hand.hand_size(seat)
        return rng.choice([(), (rng.randrange(held),)])

    return _player(
        seat, game, bet=calls, declare=lambda hand: rng.choice(k.DECLARATIONS), wash=wash
    )


@pytest.mark.parametrize("name", GAMES)
def test_a_god_that_knows_every_secret_finds_every_card_in_one_place(name: str) -> None:
    game = _game(name)
    god = God()
    config = TableConfig(seats=3, games=GAMES, ante=5, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=7,
        rng=make_rng(f"split/god/{name}"),
        deciders={s: _random(s, game) for s in range(3)},  # type: ignore[misc]
        on_entry=god,
    )
    god.table = table
    assert table.play(2) == 2
    table.end_game()
    assert not table.rejections and not table.refusals
    assert god.checked > 20  # after every entry of every hand
    assert _verdict(table) is Verdict.VALID
    kinds = Counter(e.kind for e in table.transcript)
    assert kinds["declare_open"] > 0
    if game.name == "seattle-six":
        washes = [e.body for e in table.transcript if isinstance(e.body, k.Wash)]
        assert any(b.cards for b in washes) and any(b.up for b in washes)


# --- the wash (SPEC 3.17) ------------------------------------------------------------------


def _washer(seat: int) -> object:
    """A player of Seattle Six that checks when it can (everyone reaches the wash) and washes
    its first face-down card."""

    def checks(hand: Hand, me: int) -> Decision | None:
        checking = ActionKind.CHECK in hand.legal_actions(me)
        return Decision(ActionKind.CHECK if checking else ActionKind.CALL)

    return _player(seat, _game("seattle-six"), bet=checks, wash=lambda hand: (0,))


@functools.cache
def washed() -> Table:
    config = TableConfig(seats=3, games=GAMES, ante=5, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=9,
        rng=make_rng("split/wash"),
        deciders={s: _washer(s) for s in range(3)},  # type: ignore[misc]
    )
    assert table.play(1) == 1
    table.end_game()
    return table


def test_a_face_down_wash_is_proved_paid_for_and_replaced_face_down() -> None:
    table = washed()
    assert not table.rejections and not table.refusals
    washes = [e for e in table.transcript if e.kind == "wash"]
    assert len(washes) == 3 and all(isinstance(e.body, k.Wash) and e.body.cards for e in washes)
    (summary,) = table.sessions[0].summaries
    # every player paid four antes for its wash: the pot holds them
    assert sum(p.amount for p in summary.pots) == 3 * (5 + 4 * 5)
    # the replacement came face down: each player still holds two cards unseen until the show
    assert all(len(cards) == 6 for _, cards in summary.shown)
    assert _verdict(table) is Verdict.VALID
    seen = observer(table.lines)
    assert seen.summaries[0].pots == summary.pots


def test_a_wash_of_a_card_not_the_washers_or_of_two_cards_is_refused() -> None:
    table = washed()
    i = next(n for n, e in enumerate(table.transcript) if e.kind == "wash")
    body = table.transcript[i].body
    assert isinstance(body, k.Wash)
    states = states_before(table.lines)
    card = body.cards[0]
    forged = dataclasses.replace(card, card=G.mul_public(5).hex() + card.card[66:])
    bad = resign(table, table.transcript[i], body=dataclasses.replace(body, cards=[forged]))
    _refused(table, i, bad, Reason.BAD_PROOF, states)
    both = dataclasses.replace(body, up=[0])
    why = _refused(
        table, i, resign(table, table.transcript[i], body=both), Reason.ILLEGAL_ACTION, states
    )
    assert "a wash is one card, not 2" in why
