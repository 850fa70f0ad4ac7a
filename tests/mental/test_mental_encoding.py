"""Reading mental-poker steps out of entry bodies and writing them in (SPEC 5, 6.10): what is
written reads back the same, every text that is not its value is refused naming its field, and
each step counts its proofs."""

from __future__ import annotations

import hashlib
import itertools
from typing import Any

import pytest

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger import kinds as k
from p2pwillow.mental import HandContext, PlayerHand
from p2pwillow.mental import encoding as wire
from p2pwillow.mental.encoding import BadText, MadeValues


def _rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


CTX = HandContext(b"encoding-game", 3)
RNG = _rng("encoding")
SECRET, KEY = mental.make_hand_key(CTX, 1, RNG)
OTHER_SECRET, OTHER_KEY = mental.make_hand_key(CTX, 2, RNG)
JOINT = mental.joint_key([KEY.public, OTHER_KEY.public])
DECK = mental.starting_deck(JOINT)
SHUFFLE = mental.make_deck_shuffle(CTX, 1, JOINT, DECK, RNG)
PLAN = mental.deal_plan([1, 2], 2, 5)
SHARES = mental.make_deal_shares(CTX, 1, SECRET, PLAN, SHUFFLE.ciphertexts, RNG)
HELD = PlayerHand.open(
    tuple(mental.starting_deck(KEY.public)[i] for i in (0, 9, 18, 27, 36, 45)), SECRET
)
GIVE = mental.make_trade_give(CTX, 1, 40, SECRET, HELD, (1, 4), OTHER_KEY.public, RNG)
LAYOUT_STEP, AFTER = mental.make_layout(CTX, 1, SECRET, HELD, list(HELD.cards[:5]), RNG)
LAYOUT = mental.Layout.split(LAYOUT_STEP.ciphertexts, 5)
REVEAL = mental.make_reveal(CTX, 1, SECRET, LAYOUT, 0, RNG)


def _bodies() -> dict[str, k.HandKey | k.DeckShuffle | k.DealShares | k.TradeGive | k.Reveal]:
    made = MadeValues()
    key = wire.hand_key_texts(KEY, made)
    deck = wire.shuffle_texts(SHUFFLE, made)
    shares = wire.shares_texts(PLAN.shared_positions(1), SHARES, made)
    reveal = wire.reveal_texts(REVEAL, made)
    return {
        "hand_key": k.HandKey(key=key.key, proof=key.proof),
        "deck_shuffle": k.DeckShuffle(deck=deck.cards, proof=deck.proof),
        "deal_shares": k.DealShares(
            shares=[k.DealShare(position=p, share=s) for p, s in shares.shares],
            proof=shares.proof,
        ),
        "trade_give": k.TradeGive(
            trade=40,
            to=2,
            cards=[
                k.TradedCard(position=p, card=c, proof=pf)
                for p, c, pf in wire.trade_give_texts(GIVE, made)
            ],
        ),
        "reveal": k.Reveal(card=0, share=reveal.share, proof=reveal.proof),
    }


BODIES = _bodies()


def test_what_is_written_reads_back_the_same_and_checks() -> None:
    fresh = MadeValues()  # nothing made here: every text is decoded and validated
    body = BODIES["hand_key"]
    assert isinstance(body, k.HandKey)
    assert wire.read_hand_key(body, fresh) == KEY
    mental.check_hand_key(CTX, 1, wire.read_hand_key(body, fresh))
    deck = BODIES["deck_shuffle"]
    assert isinstance(deck, k.DeckShuffle)
    assert wire.read_deck_shuffle(deck, fresh) == SHUFFLE
    shares = BODIES["deal_shares"]
    assert isinstance(shares, k.DealShares)
    assert wire.read_deal_shares(shares, fresh) == SHARES
    give = BODIES["trade_give"]
    assert isinstance(give, k.TradeGive)
    assert wire.read_trade_give(give, fresh) == GIVE
    reveal = BODIES["reveal"]
    assert isinstance(reveal, k.Reveal)
    assert wire.read_reveal(reveal, fresh) == REVEAL
    texts = wire.shuffle_texts(LAYOUT_STEP, fresh)
    cards = wire.read_hand_cards(texts.cards, MadeValues())
    assert wire.read_hand_shuffle(cards, texts.proof, MadeValues()) == LAYOUT_STEP


def test_each_step_counts_its_proofs() -> None:
    assert wire.proofs_in(KEY) == ("schnorr", 1)
    assert wire.proofs_in(SHUFFLE) == ("shuffle", 1)
    assert wire.proofs_in(LAYOUT_STEP) == ("shuffle", 1)
    assert wire.proofs_in(SHARES) == ("dleq-batch", 1)
    assert wire.proofs_in(GIVE) == ("reencryption", 2)
    assert wire.proofs_in(REVEAL) == ("dleq", 1)


def _flip(text: str) -> str:
    """The text with its first hex digit changed: for a point, most often no point at all."""
    return ("1" if text[0] == "0" else "0") + text[1:]


# (kind, JSON path of the text, the text put there, the field named): off-curve or identity
# points, a ciphertext with an identity half, proofs of the wrong length
TAMPERED = [
    ("hand_key", ("key",), "00" * 33, "key"),
    ("hand_key", ("proof",), "ab", "proof"),
    ("deck_shuffle", ("deck", 3), "ff" * 66, "deck[3]"),
    ("deck_shuffle", ("proof",), "abcd", "proof"),
    ("deal_shares", ("shares", 0, "share"), "00" * 33, "shares[0]"),
    ("deal_shares", ("proof",), "ab", "proof"),
    ("trade_give", ("cards", 1, "card"), "00" * 66, "cards[1]"),
    ("trade_give", ("cards", 0, "proof"), "ab", "cards[0].proof"),
    ("reveal", ("share",), "ff" * 33, "share"),
    ("reveal", ("proof",), "abcd", "proof"),
]
READ = {
    "hand_key": wire.read_hand_key,
    "deck_shuffle": wire.read_deck_shuffle,
    "deal_shares": wire.read_deal_shares,
    "trade_give": wire.read_trade_give,
    "reveal": wire.read_reveal,
}


@pytest.mark.parametrize(("kind", "path", "text", "field"), TAMPERED, ids=[t[3] for t in TAMPERED])
def test_a_text_that_is_not_its_value_is_refused_by_its_field(
    kind: str, path: tuple[str | int, ...], text: str, field: str
) -> None:
    obj = BODIES[kind].to_json()
    node: Any = obj
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = text
    body = k.KINDS[kind].from_json(obj)
    with pytest.raises(BadText) as caught:
        READ[kind](body, MadeValues())  # type: ignore[operator]
    assert caught.value.what == field


def test_a_hand_shuffle_proof_of_another_length_is_refused() -> None:
    texts = wire.shuffle_texts(LAYOUT_STEP, MadeValues())
    cards = wire.read_hand_cards(texts.cards, MadeValues())
    with pytest.raises(BadText) as caught:
        wire.read_hand_shuffle(cards[:-1], texts.proof, MadeValues())
    assert caught.value.what == "proof"
    with pytest.raises(BadText) as caught:
        wire.read_hand_cards([*texts.cards[:2], _flip(texts.cards[2])[:-2]], MadeValues())
    assert caught.value.what == "cards[2]"


def test_the_layout_turns_the_cards_it_was_made_with() -> None:
    card = mental.check_reveal(CTX, 1, KEY.public, LAYOUT, 0, REVEAL)
    assert isinstance(card, Card) and card == AFTER.cards[0] == HELD.cards[0]
