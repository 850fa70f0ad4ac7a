"""Hand keys, the joint deck and its shuffle, and the private deal by key switch
(SPEC 5.2-5.5). Pure: no I/O; randomness comes in as `rng`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from p2pwillow.crypto import elgamal, proofs
from p2pwillow.crypto import shuffle as shuffles
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import G, Point, Rng, random_scalar
from p2pwillow.crypto.proofs import DleqBatchProof, KeyProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.limits import DECK_SIZE, is_int
from p2pwillow.mental.context import (
    STEP_DEAL_SHARES,
    STEP_DECK_SHUFFLE,
    STEP_HAND_KEY,
    HandContext,
    MalformedStep,
    MentalPokerError,
    checking,
    ciphertexts_of,
    expect,
    hand_secret,
    typed_tuple,
    u32_index,
)

# --- hand keys and the starting deck (SPEC 5.2) -------------------------------------------


@dataclass(frozen=True, slots=True)
class HandKey:
    """A player's public key for one hand and its Schnorr proof of knowledge of the secret."""

    public: Point
    proof: KeyProof


def make_hand_key(
    hand: HandContext, seat: int, rng: Rng, secret: int | None = None
) -> tuple[int, HandKey]:
    """Draw this hand's secret x (or take the one given: a player that lost track of the key it
    sent makes it again with the same x) and publish Y = x*G with a proof bound to (game,
    hand, seat)."""
    secret = random_scalar(rng) if secret is None else hand_secret(secret)
    context = hand.at(seat, STEP_HAND_KEY).encode()
    return secret, HandKey(G.mul_secret(secret), proofs.prove_key(secret, context, rng))


def check_hand_key(hand: HandContext, seat: int, key: HandKey) -> None:
    step = STEP_HAND_KEY
    context = hand.at(seat, step).encode()
    expect(key, HandKey, "hand key", seat, step)
    public = expect(key.public, Point, "public key", seat, step)
    proof = expect(key.proof, KeyProof, "key proof", seat, step)
    if public.is_identity:
        raise MalformedStep("public key is the identity", seat=seat, step=step)
    with checking(seat, step):
        proofs.verify_key(public, proof, context)


def joint_key(keys: Iterable[Point]) -> Point:
    """Y = the sum of every seated player's hand key (each checked with `check_hand_key`)."""
    points = list(keys)
    if not points or not all(isinstance(p, Point) for p in points):
        raise MentalPokerError("joint key: need at least one public key point")
    joint = elgamal.joint_key(points)
    if joint.is_identity:
        raise MentalPokerError("joint key is the identity")
    return joint


def starting_deck(joint: Point) -> tuple[Ciphertext, ...]:
    """The public starting deck: card i is (G, M_i + Y), by canonical card index."""
    return tuple(elgamal.trivial_encryption(i, joint) for i in range(DECK_SIZE))


# --- the deck and its shuffle (SPEC 5.3) ---------------------------------------------------


def shuffle_order(seats: Iterable[int], dealer: int) -> tuple[int, ...]:
    """Seats from the dealer's left (the next higher seat number, wrapping) to the dealer.

    The order of the deck shuffle and of the deal (SPEC 5.3, 5.4).
    """
    ordered = sorted(set(seats))
    if len(ordered) < 2:
        raise MentalPokerError("a hand needs at least two seats")
    for seat in ordered:
        u32_index(seat, "seat")
    if dealer not in ordered:
        raise MentalPokerError(f"dealer seat {dealer!r} is not seated")
    i = ordered.index(dealer)
    return tuple(ordered[i + 1 :] + ordered[: i + 1])


@dataclass(frozen=True, slots=True)
class DeckShuffle:
    """One player's step of the deck shuffle: the new 52 ciphertexts and the shuffle proof."""

    ciphertexts: tuple[Ciphertext, ...]
    proof: ShuffleProof


def make_deck_shuffle(
    hand: HandContext, seat: int, joint: Point, deck: Sequence[Ciphertext], rng: Rng
) -> DeckShuffle:
    """Re-encrypt and permute the whole deck under the joint key, with a proof."""
    inputs = ciphertexts_of(deck, "deck")
    if len(inputs) != DECK_SIZE:
        raise MentalPokerError(f"a deck has {DECK_SIZE} ciphertexts, not {len(inputs)}")
    context = hand.at(seat, STEP_DECK_SHUFFLE).encode()
    outputs, witness = shuffles.shuffle(joint, list(inputs), rng)
    proof = shuffles.prove_shuffle(joint, list(inputs), list(outputs), witness, context, rng)
    return DeckShuffle(tuple(outputs), proof)


def check_deck_shuffle(
    hand: HandContext, seat: int, joint: Point, deck: Sequence[Ciphertext], step: DeckShuffle
) -> tuple[Ciphertext, ...]:
    """Verify one deck shuffle step; return the deck after it."""
    label = STEP_DECK_SHUFFLE
    context = hand.at(seat, label).encode()
    inputs = ciphertexts_of(deck, "deck")
    expect(step, DeckShuffle, "deck shuffle", seat, label)
    outputs = typed_tuple(step.ciphertexts, Ciphertext, DECK_SIZE, "ciphertexts", seat, label)
    proof = expect(step.proof, ShuffleProof, "shuffle proof", seat, label)
    with checking(seat, label, what="shuffle "):
        shuffles.verify_shuffle(joint, list(inputs), list(outputs), proof, context)
    return outputs


# --- the private deal (SPEC 5.4, 5.5) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Who receives which position of the final deck.

    `order` is `shuffle_order(seats, dealer)`. Positions 0 .. len(order)*cards_each - 1 are
    dealt round-robin: position p goes to order[p % n], as that player's card number p // n.
    """

    order: tuple[int, ...]
    cards_each: int

    def __post_init__(self) -> None:
        n = len(self.order)
        if n < 2 or len(set(self.order)) != n:
            raise MentalPokerError("deal order: at least two distinct seats")
        if not is_int(self.cards_each):
            raise MentalPokerError("cards per player must be an integer")
        if self.cards_each < 1 or n * self.cards_each > DECK_SIZE:
            raise MentalPokerError(
                f"{n} players x {self.cards_each} cards does not fit a {DECK_SIZE}-card deck"
            )

    @property
    def dealt(self) -> int:
        return len(self.order) * self.cards_each

    def owner(self, position: int) -> int:
        return self.order[position % len(self.order)]

    def positions(self, seat: int) -> tuple[int, ...]:
        """The deck positions dealt to `seat`, in the order they become its hand."""
        if seat not in self.order:
            raise MentalPokerError(f"seat {seat!r} is not in the deal")
        i, n = self.order.index(seat), len(self.order)
        return tuple(i + n * k for k in range(self.cards_each))

    def shared_positions(self, seat: int) -> tuple[int, ...]:
        """The dealt positions `seat` publishes shares for: everyone else's, ascending."""
        if seat not in self.order:
            raise MentalPokerError(f"seat {seat!r} is not in the deal")
        return _shared_positions(self.order, self.cards_each, seat)


@functools.lru_cache(maxsize=64)
def _shared_positions(order: tuple[int, ...], cards_each: int, seat: int) -> tuple[int, ...]:
    # Asked for every seat by every check of the deal; a plan is fixed for the hand.
    n = len(order)
    return tuple(p for p in range(n * cards_each) if order[p % n] != seat)


def deal_plan(seats: Iterable[int], dealer: int, cards_each: int) -> DealPlan:
    return DealPlan(shuffle_order(seats, dealer), cards_each)


@dataclass(frozen=True, slots=True)
class DealShares:
    """A player's decryption shares x_j*c1 for every dealt card not its own, in ascending
    position order, with one batched DLEQ proof."""

    shares: tuple[Point, ...]
    proof: DleqBatchProof


def _final_deck(deck: Sequence[Ciphertext]) -> tuple[Ciphertext, ...]:
    cts = ciphertexts_of(deck, "deck")
    if len(cts) != DECK_SIZE:
        raise MentalPokerError(f"a deck has {DECK_SIZE} ciphertexts, not {len(cts)}")
    return cts


def make_deal_shares(
    hand: HandContext,
    seat: int,
    secret: int,
    plan: DealPlan,
    deck: Sequence[Ciphertext],
    rng: Rng,
) -> DealShares:
    final = _final_deck(deck)
    bases = [final[p].c1 for p in plan.shared_positions(seat)]
    context = hand.at(seat, STEP_DEAL_SHARES).encode()
    shares = tuple(base.mul_secret(hand_secret(secret)) for base in bases)
    return DealShares(shares, proofs.prove_dleq_batch(secret, bases, context, rng, shares=shares))


def check_deal_shares(
    hand: HandContext,
    seat: int,
    key: Point,
    plan: DealPlan,
    deck: Sequence[Ciphertext],
    shares: DealShares,
) -> None:
    step = STEP_DEAL_SHARES
    context = hand.at(seat, step).encode()
    final = _final_deck(deck)
    expect(shares, DealShares, "deal shares", seat, step)
    positions = plan.shared_positions(seat)
    points = typed_tuple(shares.shares, Point, len(positions), "shares", seat, step)
    proof = expect(shares.proof, DleqBatchProof, "batched DLEQ proof", seat, step)
    for position, point in zip(positions, points, strict=True):
        if point.is_identity:
            raise MalformedStep("share is the identity", seat=seat, step=step, position=position)
    bases = [final[p].c1 for p in positions]
    with checking(seat, step, what="batched DLEQ "):
        proofs.verify_dleq_batch(key, bases, list(points), proof, context)


def owner_ciphertexts(
    plan: DealPlan,
    deck: Sequence[Ciphertext],
    shares: Mapping[int, DealShares],
    seat: int,
) -> tuple[Ciphertext, ...]:
    """`seat`'s dealt cards under its key alone: (c1, c2 - sum of the other players' shares).

    `shares` maps every other seat to its checked `DealShares`.
    """
    final = _final_deck(deck)
    index_of = {
        other: {p: i for i, p in enumerate(plan.shared_positions(other))}
        for other in plan.order
        if other != seat
    }
    for other, index in index_of.items():
        if other not in shares or len(shares[other].shares) != len(index):
            raise MentalPokerError(f"no checked deal shares from seat {other}")
    return tuple(
        elgamal.remove_shares(
            final[p], [shares[other].shares[index[p]] for other, index in index_of.items()]
        )
        for p in plan.positions(seat)
    )
