"""The live deck: cards taken from the shuffled deck during the hand, face down to a seat, face
up, to the board or burned; folds that release the folder's key; discards to the muck; the
reshuffle of muck and stub; shows of own cards (SPEC 5.12-5.16). Pure: no I/O; randomness
comes in as `rng`.

Theory of operation. After the joint shuffle (5.3) the deck's positions are taken in their
order from a public pointer. The rules name each position's destination before any share for it
can exist (`plan_deal`), so nobody steers a card: the destinations are fixed by the game and the
decisions already sequenced, and the card behind a position is known to nobody until its shares
are combined. Every seat still holding a key publishes one batched DLEQ of its shares for a
step's positions (`make_street_shares`), except for the positions dealt down to itself; a card
dealt down is then under its owner's key alone and joins its public hand (5.5), a card dealt up
or to the board is opened, a burned card is never opened.

A seat that folds publishes its shares of every position not yet dealt and of every muck card
(`make_release`): the deck no longer needs its key, so a folded seat is never waited for again.
The table key `Y_T` is the sum of the keys still held. A discard re-encrypts cards of the owner's
public hand to `Y_T` (`make_discard`), so they can be reshuffled with the stub when a game runs
out of cards (`make_reshuffle`). A show opens any cards of one's own public hand.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from p2pwillow.cards import Card
from p2pwillow.crypto import elgamal, proofs
from p2pwillow.crypto import shuffle as shuffles
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import DecodeError, Point, Rng, card_index
from p2pwillow.crypto.proofs import DleqBatchProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.limits import DECK_SIZE, is_int
from p2pwillow.mental.context import (
    STEP_RELEASE,
    HandContext,
    MalformedStep,
    MentalPokerError,
    ProofContext,
    checking,
    ciphertexts_of,
    deal_step,
    discard_step,
    expect,
    hand_secret,
    reshuffle_step,
    show_step,
    typed_tuple,
)
from p2pwillow.mental.deal import DealShares
from p2pwillow.mental.hand import PlayerHand, TradeGive, check_give, make_give

# --- the public state ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LiveDeck:
    """The public state of a hand's live deck.

    `cards` are the deck's ciphertexts by position; positions below `pointer` are consumed (their
    entries are kept so positions stay stable). `holders` are the seats whose keys the undealt
    cards and the muck are still under, in shuffle order (5.3); `keys` every seat's hand key.
    `dealing` is the deal step whose shares are being collected, if any: while it is open no
    other step of the deck is accepted, so a seat cannot release its key between the shares
    of its own down card and their opening (which would open that card to everyone).
    """

    cards: tuple[Ciphertext, ...]
    pointer: int
    holders: tuple[int, ...]
    keys: Mapping[int, Point]
    muck: tuple[Ciphertext, ...] = ()
    dealing: DealRound | None = None

    def __post_init__(self) -> None:
        if not is_int(self.pointer) or not 0 <= self.pointer <= len(self.cards):
            raise MentalPokerError(f"no pointer {self.pointer!r} in a deck of {len(self.cards)}")
        if not self.holders or len(set(self.holders)) != len(self.holders):
            raise MentalPokerError("a live deck has distinct key holders")
        missing = [s for s in self.holders if s not in self.keys]
        if missing:
            raise MentalPokerError(f"no hand key for seat {missing[0]}")

    def idle(self, seat: int, label: str) -> None:
        """MalformedStep unless no deal step is open."""
        if self.dealing is not None:
            raise MalformedStep(
                f"deal step {self.dealing.number} is still open", seat=seat, step=label
            )

    def holding(self, seat: int, label: str) -> Point:
        """The key of `seat`, or MalformedStep if the deck is no longer under it."""
        if seat not in self.holders:
            raise MalformedStep("the seat holds no key of the deck", seat=seat, step=label)
        return self.keys[seat]

    @property
    def left(self) -> int:
        """How many positions are not dealt yet (the stub)."""
        return len(self.cards) - self.pointer

    @property
    def stub(self) -> tuple[Ciphertext, ...]:
        return self.cards[self.pointer :]

    @property
    def table_key(self) -> Point:
        """Y_T: the sum of the holders' hand keys."""
        return elgamal.joint_key(self.keys[s] for s in self.holders)


def live_deck(
    final: Sequence[Ciphertext], order: Sequence[int], keys: Mapping[int, Point]
) -> LiveDeck:
    """The live deck after the joint shuffle: `final` is the last shuffler's output, `order` the
    shuffle order (5.3), `keys` every seat's checked hand key."""
    cards = ciphertexts_of(final, "deck")
    if len(cards) != DECK_SIZE:
        raise MentalPokerError(f"a deck has {DECK_SIZE} ciphertexts, not {len(cards)}")
    # a plain dict: a session's state is deep-copied (a fork) and kept across a restart
    return LiveDeck(cards, 0, tuple(order), dict(keys))


# --- a deal step: destinations, shares, and what they open (SPEC 5.12) ---------------------


class To(enum.Enum):
    """Where a dealt position goes."""

    DOWN = "down"  # face down to a seat: key-switched to it
    UP = "up"  # face up in front of a seat: opened
    BOARD = "board"  # to the board, for everyone: opened
    BURN = "burn"  # burned face down: never opened


@dataclass(frozen=True, slots=True)
class Destination:
    to: To
    seat: int | None = None  # DOWN and UP only

    def __post_init__(self) -> None:
        has_seat = self.to in (To.DOWN, To.UP)
        if has_seat != (self.seat is not None):
            raise MentalPokerError(
                f"a card dealt {self.to.value} {'needs' if has_seat else 'has no'} seat"
            )


def down(seat: int) -> Destination:
    return Destination(To.DOWN, seat)


def up(seat: int) -> Destination:
    return Destination(To.UP, seat)


BOARD = Destination(To.BOARD)
BURN = Destination(To.BURN)


@dataclass(frozen=True, slots=True)
class DealRound:
    """Deal step `number`: the positions from the pointer, each with its destination."""

    number: int
    first: int
    destinations: tuple[Destination, ...]

    @property
    def positions(self) -> range:
        return range(self.first, self.first + len(self.destinations))

    def shared_positions(self, seat: int) -> tuple[int, ...]:
        """The positions `seat` publishes shares for: all but burns and its own down cards."""
        return tuple(
            p
            for p, d in zip(self.positions, self.destinations, strict=True)
            if d.to is not To.BURN and not (d.to is To.DOWN and d.seat == seat)
        )


def plan_deal(deck: LiveDeck, number: int, destinations: Iterable[Destination]) -> LiveDeck:
    """Open deal step `number`: the next positions of `deck`, in order, go to `destinations`
    (fixed by the rules before any share is due). A card goes down or up only to a seat that
    holds a key."""
    dests = tuple(destinations)
    label = deal_step(number)
    if deck.dealing is not None:
        raise MentalPokerError(f"deal step {deck.dealing.number} is still open", step=label)
    if not dests:
        raise MentalPokerError("a deal step deals at least one card")
    if len(dests) > deck.left:
        raise MentalPokerError(f"{len(dests)} cards to deal, {deck.left} left in the deck")
    for d in dests:
        if not isinstance(d, Destination):
            raise MentalPokerError("a destination is a Destination")
        if d.seat is not None and d.seat not in deck.holders:
            raise MentalPokerError(f"seat {d.seat} holds no key: no card is dealt to it")
    return replace(deck, dealing=DealRound(number, deck.pointer, dests))


def _dealing(deck: LiveDeck, seat: int) -> DealRound:
    if deck.dealing is None:
        raise MalformedStep("no deal step is open", seat=seat)
    return deck.dealing


def _bases(deck: LiveDeck, positions: Iterable[int]) -> list[Point]:
    return [deck.cards[p].c1 for p in positions]


def make_street_shares(
    hand: HandContext, seat: int, secret: int, deck: LiveDeck, rng: Rng
) -> DealShares | None:
    """`seat`'s shares for the open deal step, with one batched DLEQ proof (context `deal/N`);
    None when it owes none (every card of the step is its own or burned)."""
    step = _dealing(deck, seat)
    deck.holding(seat, deal_step(step.number))
    positions = step.shared_positions(seat)
    if not positions:
        return None
    bases = _bases(deck, positions)
    shares = tuple(b.mul_secret(hand_secret(secret)) for b in bases)
    context = hand.at(seat, deal_step(step.number)).encode()
    return DealShares(shares, proofs.prove_dleq_batch(secret, bases, context, rng, shares=shares))


def _check_shares(
    context: ProofContext, key: Point, bases: Sequence[Point], shares: object, proof: object
) -> tuple[Point, ...]:
    """The shares, if they are one point per base with a batched DLEQ under `key`."""
    seat, label = context.seat, context.step
    points = typed_tuple(shares, Point, len(bases), "shares", seat, label)
    batch = expect(proof, DleqBatchProof, "batched DLEQ proof", seat, label)
    for i, point in enumerate(points):
        if point.is_identity:
            raise MalformedStep("share is the identity", seat=seat, step=label, position=i)
    with checking(seat, label, what="batched DLEQ "):
        proofs.verify_dleq_batch(key, list(bases), list(points), batch, context.encode())
    return points


def check_street_shares(
    hand: HandContext, seat: int, deck: LiveDeck, shares: DealShares | None
) -> None:
    """Verify `seat`'s shares for the open deal step: one per shared position, ascending,
    under its key."""
    step = _dealing(deck, seat)
    label = deal_step(step.number)
    key = deck.holding(seat, label)
    positions = step.shared_positions(seat)
    if not positions:
        if shares is not None:
            raise MalformedStep("no shares are owed in this step", seat=seat, step=label)
        return
    if shares is None:
        raise MalformedStep(f"expected {len(positions)} shares, got none", seat=seat, step=label)
    expect(shares, DealShares, "deal shares", seat, label)
    _check_shares(hand.at(seat, label), key, _bases(deck, positions), shares.shares, shares.proof)


@dataclass(frozen=True, slots=True)
class Dealt:
    """What a deal step gave: each seat's new down cards under its key alone (in the order
    dealt), the up cards by seat, the board cards, and the deck after it."""

    down: Mapping[int, tuple[Ciphertext, ...]]
    up: Mapping[int, tuple[Card, ...]]
    board: tuple[Card, ...]
    deck: LiveDeck


def open_deal(deck: LiveDeck, shares: Mapping[int, DealShares | None]) -> Dealt:
    """Combine every holder's checked shares for the open deal step (`check_street_shares`)
    and close it."""
    if deck.dealing is None:
        raise MentalPokerError("no deal step is open")
    step = deck.dealing
    index_of: dict[int, dict[int, int]] = {}
    for holder in deck.holders:
        positions = step.shared_positions(holder)
        given = shares.get(holder)
        if len(given.shares if given is not None else ()) != len(positions):
            raise MentalPokerError(f"no checked shares from seat {holder} for this step")
        index_of[holder] = {p: i for i, p in enumerate(positions)}
    down_cards: dict[int, list[Ciphertext]] = {}
    up_cards: dict[int, list[Card]] = {}
    board: list[Card] = []
    for p, d in zip(step.positions, step.destinations, strict=True):
        if d.to is To.BURN:
            continue
        ct = elgamal.remove_shares(
            deck.cards[p],
            [
                shares_of.shares[index[p]]
                for holder, index in index_of.items()
                if p in index and (shares_of := shares[holder]) is not None
            ],
        )
        if d.to is To.DOWN:
            assert d.seat is not None
            down_cards.setdefault(d.seat, []).append(ct)
            continue
        card = _card_of(ct.c2, p)
        if d.to is To.UP:
            assert d.seat is not None
            up_cards.setdefault(d.seat, []).append(card)
        else:
            board.append(card)
    after = replace(deck, pointer=deck.pointer + len(step.destinations), dealing=None)
    return Dealt(
        MappingProxyType({s: tuple(v) for s, v in down_cards.items()}),
        MappingProxyType({s: tuple(v) for s, v in up_cards.items()}),
        tuple(board),
        after,
    )


def _card_of(point: Point, position: int) -> Card:
    try:
        return Card.from_index(card_index(point))
    except DecodeError:
        # Every share was proved, so only a deck that was never a deck of cards gets here
        raise MentalPokerError("an opened position is not a card", position=position) from None


# --- fold with release (SPEC 5.13) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Release:
    """A folder's shares of every undealt position, then of every muck card, in that order,
    with one batched DLEQ (None when there is nothing left to release)."""

    shares: tuple[Point, ...]
    proof: DleqBatchProof | None


def _released(deck: LiveDeck) -> list[Point]:
    return [ct.c1 for ct in deck.stub + deck.muck]


def make_release(hand: HandContext, seat: int, secret: int, deck: LiveDeck, rng: Rng) -> Release:
    deck.holding(seat, STEP_RELEASE)
    deck.idle(seat, STEP_RELEASE)
    bases = _released(deck)
    if not bases:
        return Release((), None)
    shares = tuple(b.mul_secret(hand_secret(secret)) for b in bases)
    context = hand.at(seat, STEP_RELEASE).encode()
    return Release(shares, proofs.prove_dleq_batch(secret, bases, context, rng, shares=shares))


def check_release(hand: HandContext, seat: int, deck: LiveDeck, release: Release) -> LiveDeck:
    """Verify `seat`'s release; return the deck without its key: every undealt and muck
    ciphertext with the folder's share taken out, and the seat no longer a holder."""
    label = STEP_RELEASE
    key = deck.holding(seat, label)
    deck.idle(seat, label)
    if len(deck.holders) < 2:
        raise MalformedStep("the last key holder cannot release", seat=seat, step=label)
    expect(release, Release, "release", seat, label)
    bases = _released(deck)
    if not bases:
        if release.shares != () or release.proof is not None:
            raise MalformedStep("nothing is left to release", seat=seat, step=label)
        points: tuple[Point, ...] = ()
    else:
        points = _check_shares(hand.at(seat, label), key, bases, release.shares, release.proof)
    stripped = [
        elgamal.remove_shares(ct, [d]) for ct, d in zip(deck.stub + deck.muck, points, strict=True)
    ]
    stub, muck = stripped[: deck.left], stripped[deck.left :]
    return replace(
        deck,
        cards=deck.cards[: deck.pointer] + tuple(stub),
        holders=tuple(s for s in deck.holders if s != seat),
        muck=tuple(muck),
    )


# --- discard to the muck (SPEC 5.14) -------------------------------------------------------


def make_discard(
    hand: HandContext,
    seat: int,
    number: int,
    secret: int,
    held: PlayerHand,
    positions: Sequence[int],
    deck: LiveDeck,
    rng: Rng,
) -> TradeGive:
    """Put the cards at `positions` of one's public hand into the muck: each re-encrypted to
    the table key with a proof that it is that card of one's hand."""
    context = hand.at(seat, discard_step(number))
    deck.holding(seat, context.step)
    deck.idle(seat, context.step)
    return make_give(context, secret, held, positions, deck.table_key, rng)


def check_discard(
    hand: HandContext,
    seat: int,
    number: int,
    deck: LiveDeck,
    held: Sequence[Ciphertext],
    count: int,
    discard: TradeGive,
) -> tuple[tuple[Ciphertext, ...], LiveDeck]:
    """Verify `seat`'s discard of `count` cards of its public hand `held`; return its public
    hand after it (the kept cards in their order) and the deck with the muck grown."""
    context = hand.at(seat, discard_step(number))
    key = deck.holding(seat, context.step)
    deck.idle(seat, context.step)
    mucked = check_give(context, key, deck.table_key, held, count, discard)
    gone = set(discard.positions)
    kept = tuple(ct for i, ct in enumerate(held) if i not in gone)
    return kept, replace(deck, muck=deck.muck + mucked)


def discard_hand(held: PlayerHand, positions: Sequence[int]) -> PlayerHand:
    """The owner's hand after a discard, in `check_discard`'s order."""
    gone = set(positions)
    kept = [i for i in range(len(held.cards)) if i not in gone]
    return PlayerHand(tuple(held.ciphertexts[i] for i in kept), tuple(held.cards[i] for i in kept))


# --- reshuffle of muck and stub (SPEC 5.15) ------------------------------------------------


def gathered(deck: LiveDeck) -> tuple[Ciphertext, ...]:
    """What a reshuffle shuffles: the stub, then the muck."""
    return deck.stub + deck.muck


@dataclass(frozen=True, slots=True)
class Reshuffle:
    ciphertexts: tuple[Ciphertext, ...]
    proof: ShuffleProof


def _reshuffle_inputs(cards: Sequence[Ciphertext]) -> list[Ciphertext]:
    inputs = list(ciphertexts_of(cards, "deck"))
    if not 2 <= len(inputs) <= DECK_SIZE:
        raise MentalPokerError(f"a reshuffle takes 2..{DECK_SIZE} cards, not {len(inputs)}")
    return inputs


def make_reshuffle(
    hand: HandContext, seat: int, number: int, deck: LiveDeck, cards: Sequence[Ciphertext], rng: Rng
) -> Reshuffle:
    """`seat`'s shuffle in reshuffle `number`: `cards` is `gathered(deck)` for the first
    holder, the previous holder's output for the next."""
    label = reshuffle_step(number)
    deck.holding(seat, label)
    deck.idle(seat, label)
    inputs = _reshuffle_inputs(cards)
    context = hand.at(seat, label).encode()
    key = deck.table_key
    outputs, witness = shuffles.shuffle(key, inputs, rng)
    proof = shuffles.prove_shuffle(key, inputs, list(outputs), witness, context, rng)
    return Reshuffle(tuple(outputs), proof)


def check_reshuffle(
    hand: HandContext,
    seat: int,
    number: int,
    deck: LiveDeck,
    cards: Sequence[Ciphertext],
    step: Reshuffle,
) -> tuple[Ciphertext, ...]:
    label = reshuffle_step(number)
    deck.holding(seat, label)
    deck.idle(seat, label)
    inputs = _reshuffle_inputs(cards)
    expect(step, Reshuffle, "reshuffle", seat, label)
    outputs = typed_tuple(step.ciphertexts, Ciphertext, len(inputs), "ciphertexts", seat, label)
    proof = expect(step.proof, ShuffleProof, "shuffle proof", seat, label)
    with checking(seat, label, what="shuffle "):
        shuffles.verify_shuffle(
            deck.table_key, inputs, list(outputs), proof, hand.at(seat, label).encode()
        )
    return outputs


def reshuffled(deck: LiveDeck, cards: Sequence[Ciphertext]) -> LiveDeck:
    """The deck after the last holder's reshuffle: `cards` from position 0, the muck empty.
    Consumed positions are gone; a deal step after it is planned from position 0."""
    outputs = ciphertexts_of(cards, "deck")
    if len(outputs) != len(gathered(deck)):
        raise MentalPokerError("a reshuffle keeps every card of the stub and the muck")
    return replace(deck, cards=outputs, pointer=0, muck=())


# --- show own cards (SPEC 5.16) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Show:
    """The owner's shares x*c1 of the named positions of its public hand (ascending), with one
    batched DLEQ proof."""

    positions: tuple[int, ...]
    shares: tuple[Point, ...]
    proof: DleqBatchProof


def _shown_positions(positions: Sequence[int], size: int, seat: int, label: str) -> tuple[int, ...]:
    named = tuple(positions)
    if not named:
        raise MalformedStep("a show names at least one card", seat=seat, step=label)
    previous = -1
    for p in named:
        if not is_int(p) or not 0 <= p < size:
            raise MalformedStep(f"no position {p!r} in a hand of {size}", seat=seat, step=label)
        if p <= previous:
            raise MalformedStep(
                "positions must be strictly ascending", seat=seat, step=label, position=p
            )
        previous = p
    return named


def make_show(
    hand: HandContext,
    seat: int,
    number: int,
    secret: int,
    held: Sequence[Ciphertext],
    positions: Sequence[int],
    rng: Rng,
) -> Show:
    label = show_step(number)
    cts = ciphertexts_of(held, "hand")
    named = _shown_positions(sorted(positions), len(cts), seat, label)
    bases = [cts[p].c1 for p in named]
    shares = tuple(b.mul_secret(hand_secret(secret)) for b in bases)
    context = hand.at(seat, label).encode()
    return Show(named, shares, proofs.prove_dleq_batch(secret, bases, context, rng, shares=shares))


def check_show(
    hand: HandContext, seat: int, number: int, key: Point, held: Sequence[Ciphertext], show: Show
) -> tuple[Card, ...]:
    """Verify `seat`'s show of cards of its public hand `held` (under `key`); return the cards,
    in the order of the positions."""
    label = show_step(number)
    cts = ciphertexts_of(held, "hand")
    expect(show, Show, "show", seat, label)
    if not isinstance(show.positions, tuple):
        raise MalformedStep("positions must be a tuple", seat=seat, step=label)
    named = _shown_positions(show.positions, len(cts), seat, label)
    bases = [cts[p].c1 for p in named]
    points = _check_shares(hand.at(seat, label), key, bases, show.shares, show.proof)
    return tuple(_card_of(cts[p].c2 - d, p) for p, d in zip(named, points, strict=True))
