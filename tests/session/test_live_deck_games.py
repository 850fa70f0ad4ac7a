"""The live-deck games through real sessions (SPEC 3.15, 5.12-5.16, 7): every peer checks every
street's shares, fold releases and shows; a test that knows every secret checks after every
entry that each card is in exactly one place; the transcript replays for an observer; tampered
shares, releases and shows are refused."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter

import pytest
from session_helpers import fork, index_of, make_rng, observer, resign, snapshot, states_before

from p2pwillow.cards import Card
from p2pwillow.crypto import elgamal
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import G, card_index
from p2pwillow.games.live_deck import LIVE_DECK_GAMES
from p2pwillow.ledger import Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.limits import DECK_SIZE
from p2pwillow.rules import ActionKind, Announcement, Decision, GameSpec, Phase, TableConfig
from p2pwillow.rules.events import HandForfeited, Washed
from p2pwillow.rules.live import Deal
from p2pwillow.session import Session
from p2pwillow.session.events import HandSummary
from p2pwillow.table import Table

GAMES = tuple(g.name for g in LIVE_DECK_GAMES)


def _decider(game: GameSpec, seed: int) -> object:
    rng = random.Random(seed)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None and session.seat is not None
        me = session.seat
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(game))
        if hand.phase is Phase.DRAW:
            held = len(session.cards)
            return Decision(ActionKind.DRAW, positions=tuple(sorted(rng.sample(range(held), 2))))
        legal = hand.legal_actions(me)
        o = hand.bet_options(me)
        roll = rng.random()
        if ActionKind.FOLD in legal and roll < 0.08:
            return Decision(ActionKind.FOLD)
        if ActionKind.BET in legal and roll < 0.3 and o is not None and o.bet_min is not None:
            return Decision(ActionKind.BET, amount=o.bet_min)
        if ActionKind.CALL in legal:
            return Decision(ActionKind.CALL)
        return Decision(ActionKind.CHECK)

    return decide


def live_table(game: GameSpec, players: int, seed: int = 1, god: God | None = None) -> Table:
    config = TableConfig(seats=players, games=GAMES, ante=5)
    table = Table(
        players,
        config=config,
        seed=seed,
        rng=make_rng(f"live/{game.name}/{players}/{seed}"),
        deciders={s: _decider(game, seed * 10 + s) for s in range(players)},  # type: ignore[misc]
        on_entry=god,
    )
    if god is not None:
        god.table = table
    return table


def _under(ct: Ciphertext, secrets: list[int]) -> Card:
    point = ct.c2 - elgamal.joint_key([ct.c1.mul_secret(x) for x in secrets])
    return Card.from_index(card_index(point))


class God:
    """Watches a table entry by entry with every player's secret: after each entry of a hand
    every card is in exactly one place (a seat's down cards, its up cards, the board, burned,
    the undealt stub or the muck)."""

    def __init__(self) -> None:
        self.table: Table | None = None
        self.checked = 0
        self._opened: dict[tuple[Ciphertext, tuple[int, ...]], Card] = {}
        """Each ciphertext opened under its secrets once: the stub's cards are the same after
        every entry of a hand, and opening them again gives the same card (the check is the
        same after every entry; a third or more of a played table's time went to opening them
        again)."""

    def _under(self, ct: Ciphertext, secrets: list[int]) -> Card:
        key = (ct, tuple(secrets))
        card = self._opened.get(key)
        if card is None:
            card = self._opened[key] = _under(ct, secrets)
        return card

    def __call__(self, entry: Entry) -> None:
        table = self.table
        if table is None:
            return
        records = [s.state.hand for s in table.sessions]
        r = records[0]
        if r is None or r.live is None or r.ended:
            return
        if any(x is None or x.number != r.number or x.secret is None for x in records):
            return
        secrets = {x: records[x].secret for x in r.order}  # type: ignore[union-attr]
        hand = r.rules
        seen: list[Card] = []
        for seat in r.order:
            down = [self._under(ct, [secrets[seat]]) for ct in r.public.get(seat, ())]  # type: ignore[list-item]
            up = [c for c in hand.showing(seat) if c not in down]
            seen += down + up
        seen += hand.board
        # a card washed face up went to the muck as it was: public, not in the deck's muck
        seen += [e.card for e in hand.events if isinstance(e, Washed) and e.card is not None]
        holders = [secrets[x] for x in r.live.holders]
        seen += [self._under(ct, holders) for ct in r.live.stub + r.live.muck]  # type: ignore[arg-type]
        game = hand.game
        assert game is not None
        done = game.script[: max(0, hand.snapshot().step)]
        if r.live.dealing is None and hand.phase in (Phase.DEAL, Phase.STREET):
            done = game.script[: hand.snapshot().step + 1]
        burned = sum(step.burn for step in done if isinstance(step, Deal))
        assert len(set(seen)) == len(seen), "a card is in two places"
        assert len(seen) + burned == DECK_SIZE, (len(seen), burned)
        self.checked += 1


def _no_counts(summaries: tuple[HandSummary, ...]) -> list[HandSummary]:
    return [dataclasses.replace(s, proofs=()) for s in summaries]


GODS: dict[str, God] = {}


@functools.cache
def played(name: str, players: int) -> Table:
    game = next(g for g in LIVE_DECK_GAMES if g.name == name)
    god = GODS[name] = God()
    table = live_table(game, players, god=god)
    assert table.play(3) == 3
    table.end_game()
    return table


@pytest.mark.parametrize("name", GAMES)
def test_three_hands_play_to_the_end_and_replay_for_an_observer(name: str) -> None:
    table = played(name, 4)
    assert not table.rejections and not table.refusals
    lines = table.lines
    seen = observer(lines)
    # a player does not check its own proofs again (SPEC 7.1): its counts are lower
    assert _no_counts(seen.summaries) == _no_counts(table.sessions[0].summaries)
    kinds = Counter(e.kind for e in table.transcript)
    assert kinds["street_shares"] > 0
    assert kinds["deal_shares"] == 0
    chips = [p.stack for p in table.sessions[0].game.players]
    assert sum(chips) == 4 * table.config.starting_stack
    assert GODS[name].checked > 20  # the god view looked after every entry of every hand


# --- cheats: one RemoteProtocolError, nothing changed --------------------------------------


@functools.cache
def _states(name: str) -> list[Session]:
    return states_before(played(name, 4).lines)


def _refused(name: str, i: int, bad: Entry, reason: Reason) -> None:
    table = played(name, 4)
    session = fork(_states(name)[i])
    before = snapshot(session)
    with pytest.raises(RemoteProtocolError) as caught:
        session.replay(bad)
    assert caught.value.reason is reason, caught.value
    assert snapshot(session) == before
    session.replay(table.transcript[i])  # the honest entry still fits


def _index(table: Table, kind: str) -> int:
    return index_of(table, lambda e: e.kind == kind)


@pytest.mark.parametrize("name", ["holdem", "seven-card-stud"])
def test_a_street_share_that_is_not_the_holders_is_refused(name: str) -> None:
    table = played(name, 4)
    # a later street's shares, with more than one card in them
    i = next(
        n
        for n, e in enumerate(table.transcript)
        if isinstance(e.body, k.StreetShares) and e.body.step > 0 and len(e.body.shares) > 1
    )
    body = table.transcript[i].body
    assert isinstance(body, k.StreetShares)
    shares = list(body.shares)
    shares[0] = dataclasses.replace(shares[0], share=G.mul_public(7).hex())
    bad = resign(table, table.transcript[i], body=dataclasses.replace(body, shares=shares))
    _refused(name, i, bad, Reason.BAD_PROOF)
    fewer = dataclasses.replace(body, shares=list(body.shares)[1:])
    _refused(name, i, resign(table, table.transcript[i], body=fewer), Reason.ILLEGAL_ACTION)
    other = dataclasses.replace(body, step=body.step + 1)
    _refused(name, i, resign(table, table.transcript[i], body=other), Reason.ILLEGAL_ACTION)


def test_a_show_of_other_cards_is_refused() -> None:
    table = played("holdem", 4)
    i = _index(table, "show")
    body = table.transcript[i].body
    assert isinstance(body, k.Show)
    cards = list(body.cards)
    cards[0] = dataclasses.replace(cards[0], share=G.mul_public(11).hex())
    bad = resign(table, table.transcript[i], body=dataclasses.replace(body, cards=cards))
    _refused("holdem", i, bad, Reason.BAD_PROOF)
    half = dataclasses.replace(body, cards=cards[:1])
    _refused("holdem", i, resign(table, table.transcript[i], body=half), Reason.ILLEGAL_ACTION)


def test_a_fold_without_the_folders_release_is_refused() -> None:
    name = next(n for n in GAMES if any(e.kind == "fold_release" for e in played(n, 4).transcript))
    table = played(name, 4)
    i = _index(table, "fold_release")
    body = table.transcript[i].body
    assert isinstance(body, k.FoldRelease)
    shares = [G.mul_public(3).hex(), *body.shares[1:]]
    bad = resign(table, table.transcript[i], body=dataclasses.replace(body, shares=shares))
    _refused(name, i, bad, Reason.BAD_PROOF)
    short = dataclasses.replace(body, shares=list(body.shares)[1:])
    _refused(name, i, resign(table, table.transcript[i], body=short), Reason.BAD_PROOF)


def test_a_draw_that_discards_a_card_not_the_drawers_is_refused() -> None:
    table = played("five-card-draw", 4)
    i = next(
        n
        for n, e in enumerate(table.transcript)
        if isinstance(e.body, k.Draw) and len(e.body.cards) == 2
    )
    body = table.transcript[i].body
    assert isinstance(body, k.Draw)
    card = body.cards[0]
    forged = dataclasses.replace(card, card=G.mul_public(5).hex() + card.card[66:])
    bad = resign(
        table, table.transcript[i], body=dataclasses.replace(body, cards=[forged, *body.cards[1:]])
    )
    _refused("five-card-draw", i, bad, Reason.BAD_PROOF)
    moved = [dataclasses.replace(c, position=c.position + 1) for c in body.cards]
    if moved[-1].position < 5:
        bad = resign(table, table.transcript[i], body=dataclasses.replace(body, cards=moved))
        _refused("five-card-draw", i, bad, Reason.BAD_PROOF)
    # four discards where the draw allows three: the rules refuse it before any proof
    four = [dataclasses.replace(body.cards[p % 2], position=p) for p in range(4)]
    bad = resign(table, table.transcript[i], body=dataclasses.replace(body, cards=four))
    _refused("five-card-draw", i, bad, Reason.ILLEGAL_ACTION)


def test_a_seat_silent_at_the_first_deal_pays_its_ante_and_the_table_goes_on() -> None:
    game = next(g for g in LIVE_DECK_GAMES if g.name == "holdem")
    table = live_table(game, 4, seed=3)
    table.muted.add(2)
    table.play(1)
    first = table.sessions[0].summaries[0]
    assert first.aborted and first.blamed == (2,)
    chips = dict(first.chips)
    assert chips[2] == -5 and sum(chips.values()) == 0
    assert observer(table.lines).summaries[0] == dataclasses.replace(
        first, proofs=observer(table.lines).summaries[0].proofs
    )


def test_a_player_away_in_the_betting_forfeits_when_the_deck_must_deal_again() -> None:
    """Its clock runs out, the default folds it, and it never released its key: the next
    street cannot be dealt, so the hand ends with the forfeit settlement (SPEC 3.15)."""
    game = next(g for g in LIVE_DECK_GAMES if g.name == "holdem")
    table = live_table(game, 4, seed=5)
    away = 1
    bettor = table.deciders[away]

    def absent(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and hand.phase is Phase.BETTING and hand.bet_options(away):
            options = hand.bet_options(away)
            if options is not None and options.to_call:
                return None  # away from the table when a bet is to be called: the clock runs
        return bettor(session)

    table.deciders[away] = absent
    forfeits = 0
    for _ in range(6):
        table.play(1)
        summary = table.sessions[0].summaries[-1]
        record = table.sessions[0].state.hand
        assert record is not None
        if any(isinstance(e, HandForfeited) for e in record.rules.events):
            forfeits += 1
            chips = dict(summary.chips)
            assert chips[away] < 0 and sum(chips.values()) == 0
            assert all(chips[x] >= 0 for x in chips if x != away)
            break
    assert forfeits, "the away player never forfeited in six hands"
    seen = observer(table.lines)
    assert _no_counts(seen.summaries) == _no_counts(table.sessions[0].summaries)
