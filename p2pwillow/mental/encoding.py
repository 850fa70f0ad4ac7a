"""Between the texts an entry carries and the values of the mental-poker steps (SPEC 5, 6.10).

Pure; no I/O. Points, ciphertexts and proofs travel in entry bodies as lowercase hex; here they
are read out of a body into the step a `check_*` function takes, and written from the step a
`make_*` function returned. A body is read through the fields it has (`HandKeyText` and the
other protocols below are their shapes, which the ledger's body kinds match), so the layouts
of proofs stay in this package and the ledger and the session never see them. A text that is
not the value it must be raises `BadText` naming the field (the session reports it as
`bad-field`, SPEC 6.11); how many proofs a checked step held, by kind, is `proofs_in`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import Point
from p2pwillow.crypto.proofs import DleqBatchProof, DleqProof, KeyProof, ReencryptionProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.limits import DECK_SIZE
from p2pwillow.mental.deal import DealShares, DeckShuffle, HandKey
from p2pwillow.mental.hand import HandShuffle, Reveal, TradeGive

T = TypeVar("T")


class BadText(ValueError):
    """A text in an entry body that is not the value it must be: `what` names the field."""

    def __init__(self, what: str, problem: str) -> None:
        self.what = what
        self.problem = problem
        super().__init__(f"{what}: {problem}")


class HexValue(Protocol):
    def hex(self) -> str: ...


def _parse(parse: Callable[[str], T], text: str, what: str) -> T:
    try:
        return parse(text)
    except (ValueError, TypeError) as exc:
        raise BadText(what, str(exc)) from None


class MadeValues:
    """The crypto values a player's session put into its own entries, by their hex text.

    When the session applies one of its own entries it takes these values as it made them
    instead of decoding and validating again what it computed itself (SPEC 7.1); every other
    text, and every entry of an observer, is decoded and validated in full.
    """

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[str, object] = {}

    def clear(self) -> None:
        """Forget the values of the last hand (a session calls this when a hand starts)."""
        self._values.clear()

    def hex(self, value: HexValue) -> str:
        """value.hex(), remembered as made here."""
        text = value.hex()
        # The identity is never a valid field value (SPEC 4.2): it is not remembered, so a
        # made identity still fails to decode, as it would at every other peer.
        if not _holds_identity(value):
            self._values[text] = value
        return text

    def hexes(self, values: Sequence[Ciphertext]) -> list[str]:
        return [self.hex(value) for value in values]

    def decode(self, cls: type[T], parse: Callable[[str], T], text: str, what: str) -> T:
        """The value made here under this text, else parse(text), or BadText naming `what`."""
        made = self._values.get(text)
        if isinstance(made, cls):
            return made
        return _parse(parse, text, what)

    def point(self, text: str, what: str) -> Point:
        return self.decode(Point, Point.decode_hex, text, what)

    def ciphertexts(self, texts: Sequence[str], what: str) -> tuple[Ciphertext, ...]:
        return tuple(
            self.decode(Ciphertext, Ciphertext.from_hex, t, f"{what}[{i}]")
            for i, t in enumerate(texts)
        )


def _holds_identity(value: HexValue) -> bool:
    if isinstance(value, Point):
        return value.is_identity
    if isinstance(value, Ciphertext):
        return value.c1.is_identity or value.c2.is_identity
    return False


# --- the shapes of the bodies that carry the steps (SPEC 6.10) ---------------------------------


class HandKeyText(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def proof(self) -> str: ...


class DeckShuffleText(Protocol):
    @property
    def deck(self) -> Sequence[str]: ...
    @property
    def proof(self) -> str: ...


class DealShareText(Protocol):
    @property
    def position(self) -> int: ...
    @property
    def share(self) -> str: ...


class DealSharesText(Protocol):
    @property
    def shares(self) -> Sequence[DealShareText]: ...
    @property
    def proof(self) -> str: ...


class TradedCardText(Protocol):
    @property
    def position(self) -> int: ...
    @property
    def card(self) -> str: ...
    @property
    def proof(self) -> str: ...


class TradeGiveText(Protocol):
    @property
    def cards(self) -> Sequence[TradedCardText]: ...


class RevealText(Protocol):
    @property
    def share(self) -> str: ...
    @property
    def proof(self) -> str: ...


@dataclass(frozen=True, slots=True)
class KeyTexts:
    """A hand key as its entry carries it (`HandKeyText`)."""

    key: str
    proof: str


@dataclass(frozen=True, slots=True)
class ShuffleTexts:
    """A deck or hand shuffle as its entry carries it: the new ciphertexts and the proof."""

    cards: list[str]
    proof: str


@dataclass(frozen=True, slots=True)
class SharesTexts:
    """Deal shares as their entry carries them: (position, share) pairs and the proof."""

    shares: list[tuple[int, str]]
    proof: str


@dataclass(frozen=True, slots=True)
class RevealTexts:
    """A reveal as its entry carries it (`RevealText`)."""

    share: str
    proof: str


# --- reading a step out of its body ------------------------------------------------------------


def read_hand_key(body: HandKeyText, made: MadeValues) -> HandKey:
    key = made.point(body.key, "key")
    return HandKey(key, made.decode(KeyProof, KeyProof.from_hex, body.proof, "proof"))


def read_deck_shuffle(body: DeckShuffleText, made: MadeValues) -> DeckShuffle:
    deck = made.ciphertexts(body.deck, "deck")
    proof = made.decode(
        ShuffleProof, lambda t: ShuffleProof.from_hex(t, DECK_SIZE), body.proof, "proof"
    )
    return DeckShuffle(deck, proof)


def read_deal_shares(body: DealSharesText, made: MadeValues) -> DealShares:
    points = tuple(made.point(s.share, f"shares[{i}]") for i, s in enumerate(body.shares))
    return DealShares(
        points, made.decode(DleqBatchProof, DleqBatchProof.from_hex, body.proof, "proof")
    )


def read_hand_cards(cards: Sequence[str], made: MadeValues) -> tuple[Ciphertext, ...]:
    """The ciphertexts of a hand shuffle's body (its `cards`)."""
    return made.ciphertexts(cards, "cards")


def read_hand_shuffle(cards: tuple[Ciphertext, ...], proof: str, made: MadeValues) -> HandShuffle:
    """A hand shuffle from its ciphertexts (`read_hand_cards`) and its proof's text."""
    size = len(cards)
    return HandShuffle(
        cards, made.decode(ShuffleProof, lambda t: ShuffleProof.from_hex(t, size), proof, "proof")
    )


def read_trade_give(body: TradeGiveText, made: MadeValues) -> TradeGive:
    positions = tuple(c.position for c in body.cards)
    cts = made.ciphertexts([c.card for c in body.cards], "cards")
    proofs = tuple(
        made.decode(ReencryptionProof, ReencryptionProof.from_hex, c.proof, f"cards[{i}].proof")
        for i, c in enumerate(body.cards)
    )
    return TradeGive(positions, cts, proofs)


def read_reveal(body: RevealText, made: MadeValues) -> Reveal:
    share = made.point(body.share, "share")
    return Reveal(share, made.decode(DleqProof, DleqProof.from_hex, body.proof, "proof"))


# --- writing a step into the texts of its body -------------------------------------------------


def hand_key_texts(key: HandKey, made: MadeValues) -> KeyTexts:
    return KeyTexts(made.hex(key.public), made.hex(key.proof))


def shuffle_texts(step: DeckShuffle | HandShuffle, made: MadeValues) -> ShuffleTexts:
    return ShuffleTexts(made.hexes(step.ciphertexts), made.hex(step.proof))


def shares_texts(positions: Sequence[int], shares: DealShares, made: MadeValues) -> SharesTexts:
    pairs = [(p, made.hex(s)) for p, s in zip(positions, shares.shares, strict=True)]
    return SharesTexts(pairs, made.hex(shares.proof))


def trade_give_texts(give: TradeGive, made: MadeValues) -> list[tuple[int, str, str]]:
    """(position, ciphertext, proof) of every card given, by ascending position."""
    return [
        (p, made.hex(ct), made.hex(pf))
        for p, ct, pf in zip(give.positions, give.ciphertexts, give.proofs, strict=True)
    ]


def reveal_texts(reveal: Reveal, made: MadeValues) -> RevealTexts:
    return RevealTexts(made.hex(reveal.share), made.hex(reveal.proof))


# --- what a checked step proved ----------------------------------------------------------------

Step = HandKey | DeckShuffle | DealShares | HandShuffle | TradeGive | Reveal


def proofs_in(step: Step) -> tuple[str, int]:
    """The kind of proof a step carries and how many (SPEC 7.6's names: `schnorr` hand keys,
    `shuffle` deck, hand and layout shuffles, `dleq-batch` deal shares, `reencryption` traded
    cards, `dleq` reveals)."""
    match step:
        case HandKey():
            return "schnorr", 1
        case DeckShuffle() | HandShuffle():
            return "shuffle", 1
        case DealShares():
            return "dleq-batch", 1
        case TradeGive():
            return "reencryption", len(step.proofs)
        case Reveal():
            return "dleq", 1


__all__ = [
    "BadText",
    "DealSharesText",
    "DeckShuffleText",
    "HandKeyText",
    "KeyTexts",
    "MadeValues",
    "RevealText",
    "RevealTexts",
    "SharesTexts",
    "ShuffleTexts",
    "Step",
    "TradeGiveText",
    "hand_key_texts",
    "proofs_in",
    "read_deal_shares",
    "read_deck_shuffle",
    "read_hand_cards",
    "read_hand_key",
    "read_hand_shuffle",
    "read_reveal",
    "read_trade_give",
    "reveal_texts",
    "shares_texts",
    "shuffle_texts",
    "trade_give_texts",
]
