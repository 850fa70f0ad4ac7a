"""Where a mental-poker proof belongs, and how a step that fails its check is reported
(SPEC 5.1). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import DecodeError, InvalidProof, L
from p2pwillow.limits import MAX_HAND, is_int

CONTEXT_TAG = b"p2pwillow/v1/mental"

# Step labels (SPEC 5.1). Parametrised labels are built by the functions below them.
STEP_HAND_KEY = "hand-key"
STEP_DECK_SHUFFLE = "deck-shuffle"
STEP_DEAL_SHARES = "deal-shares"
STEP_LAYOUT = "layout"


def trade_give_step(trade: int) -> str:
    """The label of a giver's half of trade `trade` (its identifier within the hand)."""
    return f"trade/{_trade_number(trade)}/give"


def hand_shuffle_step(trade: int) -> str:
    """The label of the hand shuffle a trader makes after trade `trade`."""
    return f"hand-shuffle/{_trade_number(trade)}"


def _trade_number(trade: int) -> int:
    # SPEC 5.1: any identifier unique among the hand's trades, e.g. a ledger sequence number
    return _step_number(trade, "trade")


def deal_step(number: int) -> str:
    """The label of live deal step `number` of a hand (SPEC 5.12), 0 for its first."""
    return f"deal/{_step_number(number, 'deal step')}"


STEP_RELEASE = "release"


def discard_step(number: int) -> str:
    """The label of a discard to the muck; `number` is unique among the hand's discards."""
    return f"discard/{_step_number(number, 'discard')}"


def reshuffle_step(number: int) -> str:
    """The label of a holder's shuffle in reshuffle `number` of the hand (0 for its first)."""
    return f"reshuffle/{_step_number(number, 'reshuffle')}"


def show_step(number: int) -> str:
    """The label of a show of own cards; `number` is unique among the hand's shows."""
    return f"show/{_step_number(number, 'show')}"


def _step_number(number: int, what: str) -> int:
    # Like a trade's number: any identifier unique within the hand, e.g. a ledger sequence
    if not is_int(number) or not 0 <= number < 2**63:
        raise MentalPokerError(f"{what} number must be an integer 0..2^63-1, not {number!r}")
    return number


def reveal_step(index: int) -> str:
    """The label of the reveal of laid-out card `index` (0 for the first)."""
    if not is_int(index) or not 0 <= index < MAX_HAND:
        raise MentalPokerError(f"layout card index must be 0..{MAX_HAND - 1}, not {index!r}")
    return f"reveal/{index}"


# --- errors --------------------------------------------------------------------------------


class MentalPokerError(ValueError):
    """A mental-poker step is wrong: its shape, its proof, or the request to make it.

    `seat`, `step` and `position` say where (each None when it does not apply); `reason` why.
    """

    def __init__(
        self,
        reason: str,
        *,
        seat: int | None = None,
        step: str | None = None,
        position: int | None = None,
    ) -> None:
        self.reason = reason
        self.seat = seat
        self.step = step
        self.position = position
        where = []
        if seat is not None:
            where.append(f"seat {seat}")
        if step is not None:
            where.append(f"step {step}")
        if position is not None:
            where.append(f"position {position}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


class MalformedStep(MentalPokerError):
    """A step's value has the wrong shape: counts, positions, types, or points that are no card."""


class ProofRejected(MentalPokerError):
    """A step's proof does not verify for the stated statement in this context."""


# --- context (SPEC 5.1) --------------------------------------------------------------------

_STEP_LABEL = re.compile(r"[a-z0-9][a-z0-9/-]{0,62}\Z")
_U32 = 2**32


def u32_index(value: int, what: str) -> int:
    """value itself if it is an integer 0..2^32-1 (hand numbers, seats, trade numbers)."""
    if not is_int(value) or not 0 <= value < _U32:
        raise MentalPokerError(f"{what} must be an integer 0..2^32-1, not {value!r}")
    return value


def _lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


@dataclass(frozen=True, slots=True)
class ProofContext:
    """Where a proof belongs: game, hand, acting seat and step label (SPEC 5.1).

    Every proof of this module is made and checked with `encode()` as its Fiat-Shamir context,
    so a proof replayed in another game, hand, seat or step does not verify.
    """

    game_id: bytes
    hand: int
    seat: int
    step: str

    def __post_init__(self) -> None:
        if not isinstance(self.game_id, bytes) or not 1 <= len(self.game_id) <= 255:
            raise MentalPokerError("game id must be 1..255 bytes")
        u32_index(self.hand, "hand number")
        u32_index(self.seat, "seat")
        if not isinstance(self.step, str) or not _STEP_LABEL.match(self.step):
            raise MentalPokerError(f"step label must match [a-z0-9][a-z0-9/-]*, not {self.step!r}")

    def encode(self) -> bytes:
        """lp(tag) || lp(game id) || u32be(hand) || u32be(seat) || lp(step), lp = u32be length."""
        return (
            _lp(CONTEXT_TAG)
            + _lp(self.game_id)
            + self.hand.to_bytes(4, "big")
            + self.seat.to_bytes(4, "big")
            + _lp(self.step.encode("ascii"))
        )


@dataclass(frozen=True, slots=True)
class HandContext:
    """One hand of one game: the part of every proof context shared by all its steps."""

    game_id: bytes
    hand: int

    def __post_init__(self) -> None:
        ProofContext(self.game_id, self.hand, 0, STEP_HAND_KEY)  # validates both fields

    def at(self, seat: int, step: str) -> ProofContext:
        return ProofContext(self.game_id, self.hand, seat, step)


# --- checking helpers, shared by the package's modules (not re-exported) ------------------

_T = TypeVar("_T")


@contextmanager
def checking(seat: int, step: str, position: int | None = None, what: str = "") -> Iterator[None]:
    """Around a crypto verifier: its errors become ProofRejected / MalformedStep naming where."""
    try:
        yield
    except InvalidProof as exc:
        raise ProofRejected(
            f"{what}proof does not verify ({exc})", seat=seat, step=step, position=position
        ) from None
    except (DecodeError, ValueError, TypeError) as exc:
        raise MalformedStep(
            f"{what}malformed ({exc})", seat=seat, step=step, position=position
        ) from None


def typed_tuple(
    values: object, kind: type[_T], count: int, what: str, seat: int, step: str
) -> tuple[_T, ...]:
    """values itself if it is a tuple of `count` items of type `kind`, else MalformedStep."""
    if not isinstance(values, tuple) or len(values) != count:
        got = len(values) if isinstance(values, tuple) else type(values).__name__
        raise MalformedStep(f"expected {count} {what}, got {got}", seat=seat, step=step)
    for i, value in enumerate(values):
        if not isinstance(value, kind):
            raise MalformedStep(
                f"{what} item is not a {kind.__name__}", seat=seat, step=step, position=i
            )
    return values


def expect(value: object, kind: type[_T], what: str, seat: int, step: str) -> _T:
    """value itself if it is a `kind`, else MalformedStep."""
    if not isinstance(value, kind):
        raise MalformedStep(f"{what} is not a {kind.__name__}", seat=seat, step=step)
    return value


def hand_secret(secret: int) -> int:
    """The secret itself if usable (1..L-1), else MentalPokerError."""
    if not is_int(secret) or not 0 < secret < L:
        raise MentalPokerError("a hand secret is an integer in 1..L-1")
    return secret


def ciphertexts_of(hand: Sequence[Ciphertext], what: str) -> tuple[Ciphertext, ...]:
    """A sequence of ciphertexts as a tuple, or MentalPokerError."""
    cts = tuple(hand)
    if not all(isinstance(ct, Ciphertext) for ct in cts):
        raise MentalPokerError(f"{what} must be a sequence of ciphertexts")
    return cts
