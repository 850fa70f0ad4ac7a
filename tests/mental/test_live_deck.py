"""The live deck (SPEC 5.12-5.16): a hand dealt street by street, with a fold that releases,
a discard, a reshuffle of muck and stub and a show, watched by a test that knows every secret
(every card in exactly one place after every step), and every step tampered with."""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from session_helpers import make_rng

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto import elgamal
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import G, Point, card_index
from p2pwillow.limits import DECK_SIZE
from p2pwillow.mental import (
    BOARD,
    BURN,
    DealShares,
    HandContext,
    LiveDeck,
    MalformedStep,
    MentalPokerError,
    PlayerHand,
    ProofRejected,
    down,
    up,
)
from p2pwillow.mental import deck as live

GAME = b"game-live"
SEATS = (0, 1, 2, 3)
DEALER = 3


@dataclass
class Table:
    """Every secret and every public value of one hand; `places` is the god view."""

    ctx: HandContext
    secrets: dict[int, int]
    deck: LiveDeck
    rng: Callable[[int], bytes]
    hands: dict[int, tuple[Ciphertext, ...]] = field(default_factory=dict)
    up_cards: dict[int, list[Card]] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)
    # burned positions keep the keys they were under when burned: a later release strips
    # only the undealt positions
    burned: list[tuple[Ciphertext, tuple[int, ...]]] = field(default_factory=list)
    steps: int = 0

    def under(self, ct: Ciphertext, seats: tuple[int, ...]) -> Card:
        point = ct.c2 - elgamal.joint_key([ct.c1.mul_secret(self.secrets[s]) for s in seats])
        return Card.from_index(card_index(point))

    def places(self) -> Counter[Card]:
        """Every card where it is, once: hands, up cards, board, burned, muck, stub."""
        seen: list[Card] = []
        for seat, cts in self.hands.items():
            seen += [self.under(ct, (seat,)) for ct in cts]
        for cards in self.up_cards.values():
            seen += cards
        seen += self.board
        seen += [self.under(ct, holders) for ct, holders in self.burned]
        seen += [self.under(ct, self.deck.holders) for ct in self.deck.muck + self.deck.stub]
        return Counter(seen)

    def check_places(self) -> None:
        counts = self.places()
        assert sum(counts.values()) == DECK_SIZE
        assert set(counts) == {Card.from_index(i) for i in range(DECK_SIZE)}

    def deal(self, *destinations: mental.Destination) -> live.Dealt:
        self.deck = live.plan_deal(self.deck, self.steps, destinations)
        assert self.deck.dealing is not None
        step = self.deck.dealing
        self.steps += 1
        shares = {}
        for seat in self.deck.holders:
            made = live.make_street_shares(self.ctx, seat, self.secrets[seat], self.deck, self.rng)
            live.check_street_shares(self.ctx, seat, self.deck, made)
            shares[seat] = made
        holders = self.deck.holders
        dealt = live.open_deal(self.deck, shares)
        for p, d in zip(step.positions, step.destinations, strict=True):
            if d.to is live.To.BURN:
                self.burned.append((self.deck.cards[p], holders))
        for seat, cts in dealt.down.items():
            self.hands[seat] = self.hands.get(seat, ()) + cts
        for seat, cards in dealt.up.items():
            self.up_cards.setdefault(seat, []).extend(cards)
        self.board += dealt.board
        self.deck = dealt.deck
        return dealt

    def own(self, seat: int) -> PlayerHand:
        return PlayerHand.open(self.hands[seat], self.secrets[seat])


def _seat_table(seed: str) -> Table:
    rng = make_rng(seed)
    ctx = HandContext(GAME, 7)
    order = mental.shuffle_order(SEATS, DEALER)
    secrets, keys = {}, {}
    for seat in order:
        secrets[seat], key = mental.make_hand_key(ctx, seat, rng)
        keys[seat] = key.public
    joint = mental.joint_key(keys.values())
    cards = mental.starting_deck(joint)
    for seat in order:
        step = mental.make_deck_shuffle(ctx, seat, joint, cards, rng)
        cards = mental.check_deck_shuffle(ctx, seat, joint, cards, step)
    return Table(ctx, secrets, live.live_deck(cards, order, keys), rng)


@functools.cache
def _dealt_table() -> Table:
    """Stud's first street: two down and one up to every seat, in deal order."""
    t = _seat_table("live-stud")
    order = t.deck.holders
    t.deal(*[down(s) for s in order], *[down(s) for s in order], *[up(s) for s in order])
    return t


def table() -> Table:
    return dataclasses.replace(
        _dealt_table(),
        hands=dict(_dealt_table().hands),
        up_cards={s: list(c) for s, c in _dealt_table().up_cards.items()},
        board=list(_dealt_table().board),
        burned=list(_dealt_table().burned),
    )


# --- a whole hand --------------------------------------------------------------------------


def test_a_hand_of_streets_folds_draws_reshuffles_and_shows_with_every_card_in_one_place() -> None:
    t = table()
    order = t.deck.holders
    t.check_places()
    assert all(len(t.hands[s]) == 2 and len(t.up_cards[s]) == 1 for s in order)
    assert t.deck.pointer == 12

    folder = order[1]
    release = live.make_release(t.ctx, folder, t.secrets[folder], t.deck, t.rng)
    t.deck = live.check_release(t.ctx, folder, t.deck, release)
    assert folder not in t.deck.holders
    assert t.deck.table_key == elgamal.joint_key(t.deck.keys[s] for s in t.deck.holders)
    t.check_places()  # the stub now opens without the folder's key

    rest = t.deck.holders
    t.deal(BURN, BOARD, *[up(s) for s in rest])
    t.check_places()
    assert len(t.board) == 1 and t.deck.pointer == 12 + 2 + len(rest)

    drawer = rest[0]
    held = t.own(drawer)
    discard = live.make_discard(t.ctx, drawer, 40, t.secrets[drawer], held, [0], t.deck, t.rng)
    kept, t.deck = live.check_discard(t.ctx, drawer, 40, t.deck, t.hands[drawer], 1, discard)
    assert live.discard_hand(held, [0]).ciphertexts == kept
    t.hands[drawer] = kept
    assert len(t.deck.muck) == 1
    t.check_places()

    t.deal(down(drawer))
    t.check_places()
    assert len(t.hands[drawer]) == 2

    cards = live.gathered(t.deck)
    for seat in t.deck.holders:
        made = live.make_reshuffle(t.ctx, seat, 0, t.deck, cards, t.rng)
        cards = live.check_reshuffle(t.ctx, seat, 0, t.deck, cards, made)
    left = t.deck.left + len(t.deck.muck)
    t.deck = live.reshuffled(t.deck, cards)
    assert (t.deck.pointer, t.deck.left, t.deck.muck) == (0, left, ())
    t.check_places()

    t.deal(*[down(s) for s in t.deck.holders])
    t.check_places()

    shower = rest[1]
    show = live.make_show(t.ctx, shower, 60, t.secrets[shower], t.hands[shower], [2, 0], t.rng)
    key = t.deck.keys[shower]
    shown = live.check_show(t.ctx, shower, 60, key, t.hands[shower], show)
    assert show.positions == (0, 2)
    assert shown == (t.own(shower).cards[0], t.own(shower).cards[2])


def test_the_folders_cards_stay_under_its_key_alone_and_it_owes_no_later_shares() -> None:
    t = table()
    folder = t.deck.holders[0]
    release = live.make_release(t.ctx, folder, t.secrets[folder], t.deck, t.rng)
    t.deck = live.check_release(t.ctx, folder, t.deck, release)
    dealt = t.deal(*[down(s) for s in t.deck.holders])
    assert folder not in dealt.down
    # nobody published a share of the folder's own cards: they open under its key only
    for ct in t.hands[folder]:
        with pytest.raises(ValueError):
            t.under(ct, t.deck.holders)
    opened = live.plan_deal(t.deck, 8, [BOARD])
    with pytest.raises(MalformedStep, match="holds no key"):
        live.make_street_shares(t.ctx, folder, t.secrets[folder], opened, t.rng)


def test_a_card_goes_only_where_the_rules_said_before_the_shares() -> None:
    t = table()
    folder = t.deck.holders[0]
    t.deck = live.check_release(
        t.ctx, folder, t.deck, live.make_release(t.ctx, folder, t.secrets[folder], t.deck, t.rng)
    )
    with pytest.raises(MentalPokerError, match="holds no key"):
        live.plan_deal(t.deck, 5, [down(folder)])
    with pytest.raises(MentalPokerError, match="left in the deck"):
        live.plan_deal(t.deck, 5, [BURN] * (t.deck.left + 1))
    opened = live.plan_deal(t.deck, 5, [BOARD])
    with pytest.raises(MentalPokerError, match="still open"):
        live.plan_deal(opened, 6, [BOARD])


def test_nobody_releases_while_a_deal_step_is_open() -> None:
    """Else the others' shares of its down card plus its release would open that card."""
    t = table()
    seat = t.deck.holders[0]
    opened = live.plan_deal(t.deck, 9, [down(seat), BOARD])
    with pytest.raises(MalformedStep, match="still open"):
        live.make_release(t.ctx, seat, t.secrets[seat], opened, t.rng)
    release = live.make_release(t.ctx, seat, t.secrets[seat], t.deck, t.rng)
    with pytest.raises(MalformedStep, match="still open"):
        live.check_release(t.ctx, seat, opened, release)
    with pytest.raises(MalformedStep, match="still open"):
        live.make_discard(t.ctx, seat, 1, t.secrets[seat], t.own(seat), [0], opened, t.rng)


# --- every step tampered with --------------------------------------------------------------


def _other_point(point: Point) -> Point:
    return point + G


def test_street_shares_that_are_not_the_seats_are_rejected() -> None:
    t = table()
    order = t.deck.holders
    opened = live.plan_deal(t.deck, 3, [down(order[0]), up(order[1]), BURN, BOARD])
    seat = order[2]
    good = live.make_street_shares(t.ctx, seat, t.secrets[seat], opened, t.rng)
    assert good is not None and len(good.shares) == 3  # down, up, board; not the burn
    changed = DealShares((_other_point(good.shares[0]), *good.shares[1:]), good.proof)
    with pytest.raises(ProofRejected):
        live.check_street_shares(t.ctx, seat, opened, changed)
    with pytest.raises(MalformedStep, match="expected 3 shares"):
        live.check_street_shares(t.ctx, seat, opened, DealShares(good.shares[:2], good.proof))
    # another seat's shares, or this seat's from another step, do not verify
    other = live.make_street_shares(t.ctx, order[3], t.secrets[order[3]], opened, t.rng)
    with pytest.raises(ProofRejected):
        live.check_street_shares(t.ctx, seat, opened, other)
    elsewhere = live.plan_deal(t.deck, 4, [down(order[0]), up(order[1]), BURN, BOARD])
    replayed = live.make_street_shares(t.ctx, seat, t.secrets[seat], elsewhere, t.rng)
    with pytest.raises(ProofRejected):
        live.check_street_shares(t.ctx, seat, opened, replayed)
    # the owner of the down card shares only the up and board cards
    owner = live.make_street_shares(t.ctx, order[0], t.secrets[order[0]], opened, t.rng)
    assert owner is not None and len(owner.shares) == 2
    with pytest.raises(MalformedStep, match="no shares are owed"):
        solo = live.plan_deal(t.deck, 5, [down(seat), BURN])
        live.check_street_shares(t.ctx, seat, solo, good)
    with pytest.raises(MalformedStep, match="no deal step"):
        live.check_street_shares(t.ctx, seat, t.deck, good)


def test_open_deal_needs_every_holders_shares() -> None:
    t = table()
    order = t.deck.holders
    opened = live.plan_deal(t.deck, 3, [BOARD])
    shares = {s: live.make_street_shares(t.ctx, s, t.secrets[s], opened, t.rng) for s in order[:-1]}
    with pytest.raises(MentalPokerError, match=f"seat {order[-1]}"):
        live.open_deal(opened, shares)


def test_a_release_that_is_not_the_folders_is_rejected() -> None:
    t = table()
    seat = t.deck.holders[1]
    good = live.make_release(t.ctx, seat, t.secrets[seat], t.deck, t.rng)
    assert len(good.shares) == t.deck.left
    bad = live.Release((_other_point(good.shares[0]), *good.shares[1:]), good.proof)
    with pytest.raises(ProofRejected):
        live.check_release(t.ctx, seat, t.deck, bad)
    with pytest.raises(MalformedStep, match="expected"):
        live.check_release(t.ctx, seat, t.deck, live.Release(good.shares[1:], good.proof))
    with pytest.raises(ProofRejected):
        live.check_release(t.ctx, t.deck.holders[2], t.deck, good)
    after = live.check_release(t.ctx, seat, t.deck, good)
    with pytest.raises(MalformedStep, match="holds no key"):
        live.check_release(t.ctx, seat, after, good)


def test_a_release_covers_the_muck_too() -> None:
    t = table()
    drawer, folder = t.deck.holders[0], t.deck.holders[1]
    discard = live.make_discard(
        t.ctx, drawer, 1, t.secrets[drawer], t.own(drawer), [1], t.deck, t.rng
    )
    t.hands[drawer], t.deck = live.check_discard(
        t.ctx, drawer, 1, t.deck, t.hands[drawer], 1, discard
    )
    before = live.make_release(t.ctx, folder, t.secrets[folder], table().deck, t.rng)
    with pytest.raises(MalformedStep, match="expected"):
        live.check_release(t.ctx, folder, t.deck, before)  # made before the discard
    release = live.make_release(t.ctx, folder, t.secrets[folder], t.deck, t.rng)
    assert len(release.shares) == t.deck.left + 1
    t.deck = live.check_release(t.ctx, folder, t.deck, release)
    t.check_places()


def test_the_last_key_holder_cannot_release() -> None:
    t = table()
    for seat in t.deck.holders[:-1]:
        made = live.make_release(t.ctx, seat, t.secrets[seat], t.deck, t.rng)
        t.deck = live.check_release(t.ctx, seat, t.deck, made)
    last = t.deck.holders[0]
    made = live.make_release(t.ctx, last, t.secrets[last], t.deck, t.rng)
    with pytest.raises(MalformedStep, match="last key holder"):
        live.check_release(t.ctx, last, t.deck, made)


def test_a_discard_that_is_not_the_players_card_or_not_to_the_table_is_rejected() -> None:
    t = table()
    seat, other = t.deck.holders[0], t.deck.holders[1]
    held = t.own(seat)
    good = live.make_discard(t.ctx, seat, 2, t.secrets[seat], held, [1], t.deck, t.rng)
    # re-encrypted to the owner's own key instead of the table key
    own_key = t.deck.keys[seat]
    to_self = mental.make_trade_give(t.ctx, seat, 2, t.secrets[seat], held, [1], own_key, t.rng)
    with pytest.raises(ProofRejected):
        live.check_discard(t.ctx, seat, 2, t.deck, t.hands[seat], 1, to_self)
    # another number's discard, another hand's card, a position the hand does not have
    with pytest.raises(ProofRejected):
        live.check_discard(t.ctx, seat, 3, t.deck, t.hands[seat], 1, good)
    with pytest.raises(ProofRejected):
        live.check_discard(t.ctx, other, 2, t.deck, t.hands[other], 1, good)
    moved = dataclasses.replace(good, positions=(0,))
    with pytest.raises(ProofRejected):
        live.check_discard(t.ctx, seat, 2, t.deck, t.hands[seat], 1, moved)
    with pytest.raises(MalformedStep, match="no position 2"):
        live.check_discard(
            t.ctx, seat, 2, t.deck, t.hands[seat], 1, dataclasses.replace(good, positions=(2,))
        )
    with pytest.raises(MalformedStep, match="expected 2 positions"):
        live.check_discard(t.ctx, seat, 2, t.deck, t.hands[seat], 2, good)


def test_a_reshuffle_that_changes_drops_or_is_made_by_a_folder_is_rejected() -> None:
    t = table()
    seat = t.deck.holders[0]
    cards = live.gathered(t.deck)
    good = live.make_reshuffle(t.ctx, seat, 0, t.deck, cards, t.rng)
    swapped = (good.ciphertexts[1], good.ciphertexts[0], *good.ciphertexts[2:])
    with pytest.raises(ProofRejected):
        live.check_reshuffle(t.ctx, seat, 0, t.deck, cards, live.Reshuffle(swapped, good.proof))
    with pytest.raises(MalformedStep, match="expected"):
        short = live.Reshuffle(good.ciphertexts[1:], good.proof)
        live.check_reshuffle(t.ctx, seat, 0, t.deck, cards, short)
    with pytest.raises(ProofRejected):
        live.check_reshuffle(t.ctx, seat, 1, t.deck, cards, good)
    with pytest.raises(MentalPokerError, match="keeps every card"):
        live.reshuffled(t.deck, good.ciphertexts[1:])
    released = live.check_release(
        t.ctx, seat, t.deck, live.make_release(t.ctx, seat, t.secrets[seat], t.deck, t.rng)
    )
    with pytest.raises(MalformedStep, match="holds no key"):
        live.check_reshuffle(t.ctx, seat, 0, released, live.gathered(released), good)


def test_a_show_of_another_card_or_with_another_key_is_rejected() -> None:
    t = table()
    seat, other = t.deck.holders[0], t.deck.holders[1]
    key = t.deck.keys[seat]
    good = live.make_show(t.ctx, seat, 1, t.secrets[seat], t.hands[seat], [1], t.rng)
    with pytest.raises(ProofRejected):
        live.check_show(
            t.ctx, seat, 1, key, t.hands[seat], dataclasses.replace(good, positions=(0,))
        )
    with pytest.raises(ProofRejected):
        live.check_show(t.ctx, seat, 2, key, t.hands[seat], good)
    with pytest.raises(ProofRejected):
        live.check_show(t.ctx, other, 1, t.deck.keys[other], t.hands[other], good)
    with pytest.raises(MalformedStep, match="ascending"):
        live.check_show(
            t.ctx, seat, 1, key, t.hands[seat], dataclasses.replace(good, positions=(1, 1))
        )
    with pytest.raises(MalformedStep, match="at least one"):
        live.make_show(t.ctx, seat, 1, t.secrets[seat], t.hands[seat], [], t.rng)
