"""A player's own hand after the deal: hand shuffles, blind trades, the layout and reveals
(SPEC 5.6-5.9). Pure: no I/O; randomness comes in as `rng`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pwillow.cards import Card
from p2pwillow.crypto import elgamal, proofs
from p2pwillow.crypto import shuffle as shuffles
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import DecodeError, G, Point, Rng, random_scalar
from p2pwillow.crypto.proofs import DleqProof, ReencryptionProof
from p2pwillow.crypto.shuffle import ShuffleProof, ShuffleWitness
from p2pwillow.limits import is_int
from p2pwillow.mental.context import (
    STEP_LAYOUT,
    HandContext,
    MalformedStep,
    MentalPokerError,
    ProofContext,
    checking,
    ciphertexts_of,
    expect,
    hand_secret,
    hand_shuffle_step,
    reveal_step,
    trade_give_step,
    typed_tuple,
)

# --- what a player keeps of its own hand ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """A player's own hand: its public ciphertexts (under its key alone) and the card behind
    each, position by position. Never published."""

    ciphertexts: tuple[Ciphertext, ...]
    cards: tuple[Card, ...] = field(repr=False)  # never in a log line or a traceback

    def __post_init__(self) -> None:
        if len(self.ciphertexts) != len(self.cards):
            raise MentalPokerError("a hand has one card per ciphertext")

    @classmethod
    def open(cls, ciphertexts: Sequence[Ciphertext], secret: int) -> PlayerHand:
        """Decrypt ciphertexts under the owner's key alone (after the deal or a trade)."""
        cts = ciphertexts_of(ciphertexts, "hand")
        hand_secret(secret)
        return cls(cts, tuple(_open_own(ct, secret, i) for i, ct in enumerate(cts)))

    def position(self, card: Card) -> int:
        try:
            return self.cards.index(card)
        except ValueError:
            raise MentalPokerError(f"{card} is not in this hand") from None


def _open_own(ct: Ciphertext, secret: int, position: int) -> Card:
    try:
        return Card.from_index(elgamal.decrypt(ct, secret))
    except DecodeError:
        raise MentalPokerError("ciphertext does not decrypt to a card", position=position) from None


# --- hand shuffles and the layout (SPEC 5.6, 5.8) ------------------------------------------


@dataclass(frozen=True, slots=True)
class HandShuffle:
    """The owner's re-encryption and permutation of its hand under its own key, with proof."""

    ciphertexts: tuple[Ciphertext, ...]
    proof: ShuffleProof


def _make_shuffle(
    context: ProofContext,
    secret: int,
    held: PlayerHand,
    rng: Rng,
    permutation: Sequence[int] | None = None,
) -> tuple[HandShuffle, PlayerHand]:
    key = G.mul_secret(hand_secret(secret))
    inputs = list(held.ciphertexts)
    if permutation is None:
        outputs, witness = shuffles.shuffle(key, inputs, rng)
    else:
        randomness = tuple(random_scalar(rng) for _ in inputs)
        outputs = tuple(
            elgamal.reencrypt(inputs[j], key, r)
            for j, r in zip(permutation, randomness, strict=True)
        )
        witness = ShuffleWitness(tuple(permutation), randomness)
    proof = shuffles.prove_shuffle(key, inputs, list(outputs), witness, context.encode(), rng)
    cards = tuple(held.cards[j] for j in witness.permutation)
    return HandShuffle(tuple(outputs), proof), PlayerHand(tuple(outputs), cards)


def _check_shuffle(
    context: ProofContext, key: Point, before: Sequence[Ciphertext], step: HandShuffle
) -> tuple[Ciphertext, ...]:
    seat, label = context.seat, context.step
    inputs = ciphertexts_of(before, "hand")
    expect(step, HandShuffle, "hand shuffle", seat, label)
    outputs = typed_tuple(step.ciphertexts, Ciphertext, len(inputs), "ciphertexts", seat, label)
    proof = expect(step.proof, ShuffleProof, "shuffle proof", seat, label)
    with checking(seat, label, what="shuffle "):
        shuffles.verify_shuffle(key, list(inputs), list(outputs), proof, context.encode())
    return outputs


def make_hand_shuffle(
    hand: HandContext, seat: int, trade: int, secret: int, held: PlayerHand, rng: Rng
) -> tuple[HandShuffle, PlayerHand]:
    """The owner's shuffle of its hand after trade number `trade`; returns what it publishes
    and its hand afterwards."""
    return _make_shuffle(hand.at(seat, hand_shuffle_step(trade)), secret, held, rng)


def check_hand_shuffle(
    hand: HandContext,
    seat: int,
    trade: int,
    key: Point,
    before: Sequence[Ciphertext],
    step: HandShuffle,
) -> tuple[Ciphertext, ...]:
    """Verify the hand shuffle of `seat` after trade `trade`; return its hand afterwards."""
    return _check_shuffle(hand.at(seat, hand_shuffle_step(trade)), key, before, step)


@dataclass(frozen=True, slots=True)
class Layout:
    """A player's layout: its face-down cards in their fixed order, and the discards."""

    cards: tuple[Ciphertext, ...]
    discards: tuple[Ciphertext, ...]

    @classmethod
    def split(cls, hand: Sequence[Ciphertext], size: int) -> Layout:
        """The layout of `size` cards of a hand as its layout shuffle left it: outputs
        0..size-1, then the discards."""
        cts = ciphertexts_of(hand, "hand")
        if not is_int(size) or not 1 <= size <= len(cts):
            raise MentalPokerError(f"a hand of {len(cts)} cards cannot lay out {size!r}")
        return cls(cts[:size], cts[size:])


def make_layout(
    hand: HandContext,
    seat: int,
    secret: int,
    held: PlayerHand,
    layout: Sequence[Card],
    rng: Rng,
) -> tuple[HandShuffle, PlayerHand]:
    """Shuffle the hand so that its first outputs are `layout` in order; the rest are
    discards.

    The returned `PlayerHand` lists the layout first, then the discards.
    """
    chosen = tuple(layout)
    if not chosen or len(set(chosen)) != len(chosen):
        raise MentalPokerError("a layout is distinct cards of the hand")
    first = [held.position(card) for card in chosen]
    # Discards keep their relative order: they are re-encrypted, and the proof hides the
    # permutation, so their order tells nobody anything.
    rest = [i for i in range(len(held.cards)) if i not in first]
    return _make_shuffle(hand.at(seat, STEP_LAYOUT), secret, held, rng, first + rest)


def check_layout(
    hand: HandContext,
    seat: int,
    key: Point,
    before: Sequence[Ciphertext],
    step: HandShuffle,
    size: int,
) -> Layout:
    """Verify the layout shuffle of `seat`; its first `size` outputs are its layout, the rest
    discards."""
    if len(before) < size:
        raise MalformedStep(
            f"a hand of {len(before)} cards cannot lay out {size}",
            seat=seat,
            step=STEP_LAYOUT,
        )
    return Layout.split(_check_shuffle(hand.at(seat, STEP_LAYOUT), key, before, step), size)


# --- blind trades (SPEC 5.7) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TradeGive:
    """One side of a trade: the giver's named hand positions (strictly ascending), each one's
    ciphertext re-encrypted to the receiver's key, and a re-encryption proof for each."""

    positions: tuple[int, ...]
    ciphertexts: tuple[Ciphertext, ...]
    proofs: tuple[ReencryptionProof, ...]


def _check_positions(positions: Sequence[int], size: int, count: int, seat: int, step: str) -> None:
    if len(positions) != count:
        raise MalformedStep(
            f"expected {count} positions, got {len(positions)}", seat=seat, step=step
        )
    previous = -1
    for p in positions:
        if not is_int(p) or not 0 <= p < size:
            raise MalformedStep(f"no position {p!r} in a hand of {size}", seat=seat, step=step)
        if p <= previous:
            raise MalformedStep(
                "positions must be strictly ascending", seat=seat, step=step, position=p
            )
        previous = p


def make_trade_give(
    hand: HandContext,
    seat: int,
    trade: int,
    secret: int,
    held: PlayerHand,
    positions: Sequence[int],
    receiver_key: Point,
    rng: Rng,
) -> TradeGive:
    """Hand over the cards at `positions` of `held` to the owner of `receiver_key`."""
    return make_give(
        hand.at(seat, trade_give_step(trade)), secret, held, positions, receiver_key, rng
    )


def make_give(
    context: ProofContext,
    secret: int,
    held: PlayerHand,
    positions: Sequence[int],
    receiver_key: Point,
    rng: Rng,
) -> TradeGive:
    """The cards at `positions` of `held`, each re-encrypted to `receiver_key` with a proof in
    `context`: a trade's give (5.7) or a discard to the muck (5.14)."""
    named = tuple(sorted(positions))
    _check_positions(named, len(held.ciphertexts), len(positions), context.seat, context.step)
    encoded = context.encode()
    hand_secret(secret)
    cts: list[Ciphertext] = []
    made: list[ReencryptionProof] = []
    for p in named:
        before = held.ciphertexts[p]
        r = random_scalar(rng)
        after = elgamal.reencrypt_to(before, secret, receiver_key, r)
        cts.append(after)
        made.append(proofs.prove_reencryption(secret, r, receiver_key, before, after, encoded, rng))
    return TradeGive(named, tuple(cts), tuple(made))


def check_trade_give(
    hand: HandContext,
    seat: int,
    trade: int,
    key: Point,
    receiver_key: Point,
    held: Sequence[Ciphertext],
    count: int,
    give: TradeGive,
) -> tuple[Ciphertext, ...]:
    """Verify `seat`'s half of trade `trade`: `count` cards of its public hand `held`, each
    re-encrypted to `receiver_key` with its plaintext unchanged. Returns what the receiver gets.
    """
    context = hand.at(seat, trade_give_step(trade))
    return check_give(context, key, receiver_key, held, count, give)


def check_give(
    context: ProofContext,
    key: Point,
    receiver_key: Point,
    held: Sequence[Ciphertext],
    count: int,
    give: TradeGive,
) -> tuple[Ciphertext, ...]:
    """Verify a give in `context`: `count` cards of the public hand `held` (under `key`), each
    re-encrypted to `receiver_key`. Returns the re-encrypted ciphertexts."""
    seat, label = context.seat, context.step
    encoded = context.encode()
    before_all = ciphertexts_of(held, "hand")
    expect(give, TradeGive, "give", seat, label)
    if not isinstance(give.positions, tuple):
        raise MalformedStep("positions must be a tuple", seat=seat, step=label)
    _check_positions(give.positions, len(before_all), count, seat, label)
    outputs = typed_tuple(give.ciphertexts, Ciphertext, count, "ciphertexts", seat, label)
    made = typed_tuple(give.proofs, ReencryptionProof, count, "proofs", seat, label)
    for p, after, proof in zip(give.positions, outputs, made, strict=True):
        with checking(seat, label, position=p, what="re-encryption "):
            proofs.verify_reencryption(key, receiver_key, before_all[p], after, proof, encoded)
    return outputs


def apply_trade(
    held: Sequence[Ciphertext], given: Sequence[int], received: Sequence[Ciphertext]
) -> tuple[Ciphertext, ...]:
    """A trader's public hand after a trade: kept cards in their order, then the received ones
    in the giver's order (SPEC 5.7)."""
    gone = set(given)
    return tuple(ct for i, ct in enumerate(held) if i not in gone) + tuple(received)


def trade_hand(
    held: PlayerHand, secret: int, given: Sequence[int], received: Sequence[Ciphertext]
) -> PlayerHand:
    """The owner's hand after a trade, in `apply_trade` order, the received cards decrypted."""
    gone = set(given)
    kept = [i for i in range(len(held.cards)) if i not in gone]
    got = PlayerHand.open(received, secret)
    return PlayerHand(
        tuple(held.ciphertexts[i] for i in kept) + got.ciphertexts,
        tuple(held.cards[i] for i in kept) + got.cards,
    )


# --- reveals (SPEC 5.9) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reveal:
    """The owner's decryption share x*c1 of one layout card, with a DLEQ proof."""

    share: Point
    proof: DleqProof


def make_reveal(
    hand: HandContext,
    seat: int,
    secret: int,
    layout: Layout,
    index: int,
    rng: Rng,
) -> Reveal:
    """Open laid-out card `index` (0 for the first) of the owner's layout."""
    label = reveal_step(index)
    c1 = _laid_out(layout, index, seat, label).c1
    hand_secret(secret)
    context = hand.at(seat, label).encode()
    return Reveal(c1.mul_secret(secret), proofs.prove_dleq(secret, c1, context, rng))


def _laid_out(layout: Layout, index: int, seat: int, label: str) -> Ciphertext:
    """Laid-out card `index`, or MalformedStep: a layout of n cards has cards 0..n-1."""
    if not 0 <= index < len(layout.cards):
        raise MalformedStep(
            f"a layout of {len(layout.cards)} cards has no card {index}", seat=seat, step=label
        )
    return layout.cards[index]


def check_reveal(
    hand: HandContext, seat: int, key: Point, layout: Layout, index: int, reveal: Reveal
) -> Card:
    """Verify the reveal of `seat`'s layout card `index`; return the card."""
    label = reveal_step(index)
    context = hand.at(seat, label).encode()
    expect(layout, Layout, "layout", seat, label)
    expect(reveal, Reveal, "reveal", seat, label)
    share = expect(reveal.share, Point, "share", seat, label)
    proof = expect(reveal.proof, DleqProof, "DLEQ proof", seat, label)
    ct = _laid_out(layout, index, seat, label)
    with checking(seat, label, position=index, what="DLEQ "):
        proofs.verify_dleq(key, ct.c1, share, proof, context)
    try:
        return Card.from_index(elgamal.open_with_share(ct, share))
    except DecodeError:
        raise MalformedStep(
            "revealed point is not a card", seat=seat, step=label, position=index
        ) from None
