"""Vectors for the mental-poker steps of one hand (SPEC 5): proof contexts and step labels, hand
keys and the starting deck, a deck shuffle step, the deal shares and the public hands they give,
a trade give, a reveal.

Generates and checks protocol/vectors/mental.json; no I/O. Every value is made by the
`p2pwillow.mental` functions from `common.seeded_rng`, so rerunning the generator on another
group rewrites the file for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto import elgamal
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import DecodeError, G, Point, scalar_from_hex, scalar_hex
from p2pwillow.crypto.proofs import DleqBatchProof, DleqProof, KeyProof, ReencryptionProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.limits import DECK_SIZE
from p2pwillow.mental import (
    HandContext,
    MalformedStep,
    MentalPokerError,
    PlayerHand,
    ProofContext,
    ProofRejected,
)
from tools.vectors.common import Json, bad_points_for, case, document, seeded_rng

FILE_NAME = "mental.json"

ERRORS: dict[str, type[Exception]] = {
    "DecodeError": DecodeError,
    "MalformedStep": MalformedStep,
    "ProofRejected": ProofRejected,
    "MentalPokerError": MentalPokerError,
}
"""An invalid case fails where SPEC 5 says: a value that does not decode (`DecodeError`), a step
of the wrong shape (`MalformedStep`), a proof that does not verify in this context
(`ProofRejected`), or a context or label that cannot exist (`MentalPokerError`)."""

NOTES = {
    "Context": "The proof context of SPEC 5.1: lp(tag) || lp(game id) || u32be(hand) || "
    "u32be(seat) || lp(step), lp = u32be length.",
    "StepLabel": "A parametrised step label of SPEC 5.1, T and R in decimal.",
    "BadContext": "A game id, hand, seat or step label outside SPEC 5.1: no context exists.",
    "BadLabel": "A trade number or layout card outside SPEC 5.1: no label exists.",
    "Valid": "An honest step. The actor's secret is listed, so every share and every decryption "
    "can be recomputed; the proof's own nonces are not (see the proof files of SPEC 4.8).",
    "StartingDeck": "The joint key is the sum of the hand keys and the deck shuffled first is "
    "the starting deck (G, M_i + Y) of SPEC 5.2.",
    "PublicHands": "The public hands every peer computes from all deal shares (SPEC 5.5), and "
    "the cards each owner decrypts.",
    "WrongSeat": "The step is checked as another seat's: its proof is bound to the actor.",
    "WrongHand": "The step is checked in another hand: its proof is bound to the hand.",
    "WrongGame": "The step is checked in another game: its proof is bound to the game.",
    "WrongStep": "The step is checked under another step label: its proof is bound to the step.",
    "WrongKey": "The step is checked against another key than the one it was made for.",
    "SwappedOutputs": "Two output ciphertexts exchanged after proving.",
    "ChangedValue": "One published value replaced by another valid one after proving.",
    "WrongCount": "Fewer values than the step must publish.",
    "UnsortedPositions": "Trade positions that are not strictly ascending (SPEC 5.7).",
    "InvalidPoint": "A published point or ciphertext that does not decode (SPEC 4.1.1).",
    "TruncatedProof": "A proof one byte short: it does not decode.",
    "WrongCard": "A reveal checked for another layout card than the one it opens.",
}

# --- one hand of a two-seat game, made step by step --------------------------------------------

GAME = seeded_rng("mental/game")(16)
OTHER_GAME = seeded_rng("mental/other-game")(16)
HAND = 7
SEATS = (1, 3)
DEALER = 3
CARDS_EACH = 5
TRADE = 19
"""The trade's identifier: the seq of its accept entry (SPEC 6.6)."""
GIVEN = (0, 3)
"""The positions of seat 1's hand that it gives seat 3."""
REVEALED = 2
"""The layout card of seat 3 that is turned (in betting round 3)."""

CTX = HandContext(GAME, HAND)
_RNG = seeded_rng("mental/hand")
SECRETS: dict[int, int] = {}
KEYS: dict[int, mental.HandKey] = {}
for _seat in SEATS:
    SECRETS[_seat], KEYS[_seat] = mental.make_hand_key(CTX, _seat, _RNG)
JOINT = mental.joint_key(KEYS[s].public for s in SEATS)
ORDER = mental.shuffle_order(SEATS, DEALER)
DECKS = [mental.starting_deck(JOINT)]
SHUFFLES: list[mental.DeckShuffle] = []
for _seat in ORDER:
    SHUFFLES.append(mental.make_deck_shuffle(CTX, _seat, JOINT, DECKS[-1], _RNG))
    DECKS.append(SHUFFLES[-1].ciphertexts)
FINAL = DECKS[-1]
PLAN = mental.deal_plan(SEATS, DEALER, CARDS_EACH)
SHARES = {s: mental.make_deal_shares(CTX, s, SECRETS[s], PLAN, FINAL, _RNG) for s in ORDER}
PUBLIC = {s: mental.owner_ciphertexts(PLAN, FINAL, SHARES, s) for s in ORDER}
HELD = {s: PlayerHand.open(PUBLIC[s], SECRETS[s]) for s in ORDER}
GIVER, RECEIVER = 1, 3
GIVE = mental.make_trade_give(
    CTX, GIVER, TRADE, SECRETS[GIVER], HELD[GIVER], GIVEN, KEYS[RECEIVER].public, _RNG
)
OWNER = 3
_LAYOUT_STEP, _ = mental.make_layout(
    CTX, OWNER, SECRETS[OWNER], HELD[OWNER], list(HELD[OWNER].cards), _RNG
)
LAYOUT = mental.Layout.split(_LAYOUT_STEP.ciphertexts, 5)
REVEAL = mental.make_reveal(CTX, OWNER, SECRETS[OWNER], LAYOUT, REVEALED, _RNG)


PROOF, SHAPE, DECODE = "ProofRejected", "MalformedStep", "DecodeError"


def _invalid(base: Json, comment: str, flag: str, error: str, **change: Any) -> Json:
    """An invalid case: the fields of `base` with `change` made, failing with `error`."""
    return case(comment, "invalid", [flag], **{**base, **change}, error=error)


def _hexes(values: Any) -> list[str]:
    return [v.hex() for v in values]


def _points(texts: list[str]) -> tuple[Point, ...]:
    return tuple(Point.decode_hex(t) for t in texts)


def _cts(texts: list[str]) -> tuple[Ciphertext, ...]:
    return tuple(Ciphertext.from_hex(t) for t in texts)


def _card(card: Card) -> Json:
    return {"index": card.index, "card": card.ascii}


def _bad_point() -> str:
    """A point encoding that must not decode (the first of SPEC 4.1.1's invalid encodings)."""
    return bad_points_for("value")[0][2]


def _bad_ciphertext(ct: Ciphertext) -> str:
    """A ciphertext whose second half is a point encoding that must not decode."""
    return ct.c1.hex() + _bad_point()


# --- group 1: proof contexts and step labels (SPEC 5.1) -----------------------------------------


def _context_group() -> Json:
    tests: list[Json] = []
    valid = [
        ("hand key of seat 1", GAME, HAND, 1, mental.STEP_HAND_KEY),
        ("deck shuffle of seat 3", GAME, HAND, 3, mental.STEP_DECK_SHUFFLE),
        ("deal shares of seat 1", GAME, HAND, 1, mental.STEP_DEAL_SHARES),
        ("a trade give", GAME, HAND, 1, mental.trade_give_step(TRADE)),
        ("the hand shuffle after it", GAME, HAND, 1, mental.hand_shuffle_step(TRADE)),
        ("a layout", GAME, HAND, 3, mental.STEP_LAYOUT),
        ("the last reveal", GAME, HAND, 3, mental.reveal_step(4)),
        ("hand 0, seat 0, one-byte game id", b"\x00", 0, 0, mental.STEP_HAND_KEY),
        ("largest hand and seat, 255-byte game id", b"\xff" * 255, 2**32 - 1, 2**32 - 1, "a"),
        ("a 63-character label", GAME, 1, 2, "a" + "-/0" * 20 + "yz"),
    ]
    for comment, game, hand, seat, step in valid:
        encoded = ProofContext(game, hand, seat, step).encode()
        tests.append(
            case(
                comment,
                "valid",
                ["Context"],
                gameId=game.hex(),
                hand=hand,
                seat=seat,
                step=step,
                context=encoded.hex(),
            )
        )
    invalid: list[tuple[str, bytes, int, int, str]] = [
        ("uppercase in the label", GAME, HAND, 1, "Hand-key"),
        ("empty label", GAME, HAND, 1, ""),
        ("label starting with a hyphen", GAME, HAND, 1, "-layout"),
        ("label with a space", GAME, HAND, 3, "reveal 1"),
        ("64-character label", GAME, HAND, 1, "a" * 64),
        ("hand 2^32", GAME, 2**32, 1, "layout"),
        ("seat -1", GAME, HAND, -1, "layout"),
        ("empty game id", b"", HAND, 1, "layout"),
        ("256-byte game id", b"\x01" * 256, HAND, 1, "layout"),
    ]
    for comment, game, hand, seat, step in invalid:
        tests.append(
            case(
                comment,
                "invalid",
                ["BadContext"],
                gameId=game.hex(),
                hand=hand,
                seat=seat,
                step=step,
                error="MentalPokerError",
            )
        )
    labels: list[tuple[str, str, int, str | None]] = [
        ("trade give of trade 0", "trade-give", 0, "trade/0/give"),
        ("trade give of trade 19", "trade-give", TRADE, "trade/19/give"),
        ("hand shuffle after trade 2^63-1", "hand-shuffle", 2**63 - 1, f"hand-shuffle/{2**63 - 1}"),
        ("reveal of layout card 0", "reveal", 0, "reveal/0"),
        ("reveal of layout card 4", "reveal", 4, "reveal/4"),
        ("reveal of layout card 6 (a hand holds at most seven)", "reveal", 6, "reveal/6"),
        ("trade -1", "trade-give", -1, None),
        ("trade 2^63", "hand-shuffle", 2**63, None),
        ("layout card 7", "reveal", 7, None),
        ("layout card -1", "reveal", -1, None),
    ]
    for comment, label, argument, expected in labels:
        if expected is None:
            tests.append(
                case(
                    comment,
                    "invalid",
                    ["BadLabel"],
                    label=label,
                    argument=argument,
                    error="MentalPokerError",
                )
            )
        else:
            tests.append(
                case(comment, "valid", ["StepLabel"], label=label, argument=argument, step=expected)
            )
    return {"type": "ProofContext", "tag": mental.CONTEXT_TAG.hex(), "tests": tests}


LABELS: dict[str, Callable[[int], str]] = {
    "trade-give": mental.trade_give_step,
    "hand-shuffle": mental.hand_shuffle_step,
    "reveal": mental.reveal_step,
}


def _check_context(group: Json, test: Json) -> None:
    assert bytes.fromhex(group["tag"]) == mental.CONTEXT_TAG
    if "label" in test:
        assert LABELS[test["label"]](test["argument"]) == test["step"]
        return
    context = ProofContext(bytes.fromhex(test["gameId"]), test["hand"], test["seat"], test["step"])
    assert context.encode().hex() == test["context"]


# --- group 2: hand keys and the starting deck (SPEC 5.2) ----------------------------------------


def _hand_key_group() -> Json:
    tests: list[Json] = []
    for seat in SEATS:
        key = KEYS[seat]
        tests.append(
            case(
                f"hand key of seat {seat}",
                "valid",
                ["Valid"],
                seat=seat,
                secret=scalar_hex(SECRETS[seat]),
                key=key.public.hex(),
                proof=key.proof.hex(),
            )
        )
    one: Json = {"seat": 1, "key": KEYS[1].public.hex(), "proof": KEYS[1].proof.hex()}
    other = KEYS[3].proof.hex()
    tests += [
        _invalid(one, "seat 1's key checked as seat 3's", "WrongSeat", PROOF, seat=3),
        _invalid(one, "seat 3's proof for seat 1's key", "ChangedValue", PROOF, proof=other),
        _invalid(one, "a key that does not decode", "InvalidPoint", DECODE, key=_bad_point()),
        _invalid(one, "a proof one byte short", "TruncatedProof", DECODE, proof=one["proof"][:-2]),
    ]
    return {"type": "HandKey", "gameId": GAME.hex(), "hand": HAND, "tests": tests}


def _check_hand_key(group: Json, test: Json) -> None:
    ctx = HandContext(bytes.fromhex(group["gameId"]), group["hand"])
    key = mental.HandKey(Point.decode_hex(test["key"]), KeyProof.from_hex(test["proof"]))
    mental.check_hand_key(ctx, test["seat"], key)
    if "secret" in test:
        assert key.public == G.mul_secret(scalar_from_hex(test["secret"]))


# --- group 3: a deck shuffle step (SPEC 5.3) ----------------------------------------------------


def _deck_groups() -> list[Json]:
    first, step = ORDER[0], SHUFFLES[0]
    outputs, proof = _hexes(step.ciphertexts), step.proof.hex()
    where: Json = {"gameId": GAME.hex(), "hand": HAND, "seat": first}
    context_tests: list[Json] = [
        case(
            f"the first shuffle, by seat {first}, of the starting deck",
            "valid",
            ["Valid", "StartingDeck"],
            **where,
        ),
        _invalid(where, "checked as the dealer's", "WrongSeat", PROOF, seat=DEALER),
        _invalid(where, "checked in the next hand", "WrongHand", PROOF, hand=HAND + 1),
        _invalid(where, "checked in another game", "WrongGame", PROOF, gameId=OTHER_GAME.hex()),
    ]
    context_group = {
        "type": "DeckShuffle",
        "handKeys": [{"seat": s, "key": KEYS[s].public.hex()} for s in SEATS],
        "jointKey": JOINT.hex(),
        "inputs": _hexes(DECKS[0]),
        "outputs": outputs,
        "proof": proof,
        "tests": context_tests,
    }
    swapped = [outputs[1], outputs[0], *outputs[2:]]
    changed = [*outputs[:7], DECKS[2][7].hex(), *outputs[8:]]
    broken = [*outputs[:5], _bad_ciphertext(step.ciphertexts[5]), *outputs[6:]]
    next_proof = SHUFFLES[1].proof.hex()
    made: Json = {"outputs": outputs, "proof": proof}
    statement_tests: list[Json] = [
        _invalid(made, "two outputs swapped", "SwappedOutputs", PROOF, outputs=swapped),
        _invalid(made, "an output from another deck", "ChangedValue", PROOF, outputs=changed),
        _invalid(made, "the next shuffle's proof", "ChangedValue", PROOF, proof=next_proof),
        _invalid(made, "51 outputs", "WrongCount", SHAPE, outputs=outputs[:-1]),
        _invalid(made, "an output that does not decode", "InvalidPoint", DECODE, outputs=broken),
        _invalid(made, "a proof one byte short", "TruncatedProof", DECODE, proof=proof[:-2]),
    ]
    statement_group = {
        "type": "DeckShuffleStatement",
        "gameId": GAME.hex(),
        "hand": HAND,
        "seat": first,
        "jointKey": JOINT.hex(),
        "inputs": _hexes(DECKS[0]),
        "tests": statement_tests,
    }
    return [context_group, statement_group]


def _check_deck(group: Json, test: Json) -> None:
    joint = Point.decode_hex(group["jointKey"])
    inputs = _cts(group["inputs"])
    if group["type"] == "DeckShuffle":
        keys = [Point.decode_hex(k["key"]) for k in group["handKeys"]]
        assert mental.joint_key(keys) == joint
        assert mental.starting_deck(joint) == inputs
        game, hand, seat = bytes.fromhex(test["gameId"]), test["hand"], test["seat"]
        outputs, proof = group["outputs"], group["proof"]
    else:
        game, hand, seat = bytes.fromhex(group["gameId"]), group["hand"], group["seat"]
        outputs, proof = test["outputs"], test["proof"]
    step = mental.DeckShuffle(_cts(outputs), ShuffleProof.from_hex(proof, DECK_SIZE))
    after = mental.check_deck_shuffle(HandContext(game, hand), seat, joint, inputs, step)
    assert after == step.ciphertexts


# --- group 4: the deal shares and the public hands (SPEC 5.4, 5.5) ------------------------------


def _deal_group() -> Json:
    tests: list[Json] = []
    for seat in ORDER:
        made = SHARES[seat]
        tests.append(
            case(
                f"deal shares of seat {seat}",
                "valid",
                ["Valid"],
                seat=seat,
                secret=scalar_hex(SECRETS[seat]),
                positions=list(PLAN.shared_positions(seat)),
                shares=_hexes(made.shares),
                proof=made.proof.hex(),
            )
        )
    tests.append(
        case(
            "the public hands and the cards behind them",
            "valid",
            ["PublicHands"],
            shares=[
                {"seat": s, "shares": _hexes(SHARES[s].shares), "proof": SHARES[s].proof.hex()}
                for s in ORDER
            ],
            hands=[
                {
                    "seat": s,
                    "secret": scalar_hex(SECRETS[s]),
                    "positions": list(PLAN.positions(s)),
                    "ciphertexts": _hexes(PUBLIC[s]),
                    "cards": [_card(c) for c in HELD[s].cards],
                }
                for s in ORDER
            ],
        )
    )
    shares = _hexes(SHARES[1].shares)
    one: Json = {"seat": 1, "shares": shares, "proof": SHARES[1].proof.hex()}
    changed = [*shares[:2], SHARES[3].shares[2].hex(), *shares[3:]]
    broken = [_bad_point(), *shares[1:]]
    tests += [
        _invalid(one, "seat 1's shares checked as seat 3's", "WrongSeat", PROOF, seat=3),
        _invalid(one, "a share replaced by the other's", "ChangedValue", PROOF, shares=changed),
        _invalid(one, "four shares for five cards", "WrongCount", SHAPE, shares=shares[:-1]),
        _invalid(one, "a share that does not decode", "InvalidPoint", DECODE, shares=broken),
        _invalid(one, "a proof one byte short", "TruncatedProof", DECODE, proof=one["proof"][:-2]),
    ]
    return {
        "type": "DealShares",
        "gameId": GAME.hex(),
        "hand": HAND,
        "dealer": DEALER,
        "order": list(ORDER),
        "cardsEach": CARDS_EACH,
        "handKeys": [{"seat": s, "key": KEYS[s].public.hex()} for s in SEATS],
        "finalDeck": _hexes(FINAL),
        "tests": tests,
    }


def _check_deal(group: Json, test: Json) -> None:
    ctx = HandContext(bytes.fromhex(group["gameId"]), group["hand"])
    order = tuple(group["order"])
    assert mental.shuffle_order(order, group["dealer"]) == order
    plan = mental.deal_plan(order, group["dealer"], group["cardsEach"])
    keys = {k["seat"]: Point.decode_hex(k["key"]) for k in group["handKeys"]}
    final = _cts(group["finalDeck"])
    if "hands" in test:
        shares = {
            s["seat"]: mental.DealShares(_points(s["shares"]), DleqBatchProof.from_hex(s["proof"]))
            for s in test["shares"]
        }
        for seat, made in shares.items():
            mental.check_deal_shares(ctx, seat, keys[seat], plan, final, made)
        for hand in test["hands"]:
            seat = hand["seat"]
            assert list(plan.positions(seat)) == hand["positions"]
            public = mental.owner_ciphertexts(plan, final, shares, seat)
            assert _hexes(public) == hand["ciphertexts"]
            held = PlayerHand.open(public, scalar_from_hex(hand["secret"]))
            assert [_card(c) for c in held.cards] == hand["cards"]
        return
    seat = test["seat"]
    made = mental.DealShares(_points(test["shares"]), DleqBatchProof.from_hex(test["proof"]))
    mental.check_deal_shares(ctx, seat, keys[seat], plan, final, made)
    assert list(plan.shared_positions(seat)) == test["positions"]
    secret = scalar_from_hex(test["secret"])
    assert made.shares == tuple(final[p].c1.mul_secret(secret) for p in test["positions"])


# --- group 5: a trade give (SPEC 5.7) -----------------------------------------------------------


def _trade_group() -> Json:
    cts, proofs = _hexes(GIVE.ciphertexts), _hexes(GIVE.proofs)
    base: Json = {"giver": GIVER, "trade": TRADE, "positions": list(GIVE.positions)}
    tests: list[Json] = [
        case(
            f"seat {GIVER} gives positions {list(GIVEN)} to seat {RECEIVER}",
            "valid",
            ["Valid"],
            **base,
            ciphertexts=cts,
            proofs=proofs,
            giverSecret=scalar_hex(SECRETS[GIVER]),
            receiverSecret=scalar_hex(SECRETS[RECEIVER]),
            cards=[_card(HELD[GIVER].cards[p]) for p in GIVEN],
        )
    ]
    made: Json = {**base, "ciphertexts": cts, "proofs": proofs}
    broken = [cts[0], _bad_ciphertext(GIVE.ciphertexts[1])]
    short = [proofs[0][:-2], proofs[1]]
    tests += [
        _invalid(made, "checked as the receiver's give", "WrongSeat", PROOF, giver=RECEIVER),
        _invalid(made, "checked for another trade", "WrongStep", PROOF, trade=TRADE + 1),
        _invalid(made, "the two cards swapped", "SwappedOutputs", PROOF, ciphertexts=cts[::-1]),
        _invalid(made, "checked for other positions", "ChangedValue", PROOF, positions=[1, 3]),
        _invalid(made, "positions descending", "UnsortedPositions", SHAPE, positions=[3, 0]),
        _invalid(
            made, "one card of two", "WrongCount", SHAPE, ciphertexts=cts[:1], proofs=proofs[:1]
        ),
        _invalid(made, "a card that does not decode", "InvalidPoint", DECODE, ciphertexts=broken),
        _invalid(made, "a proof one byte short", "TruncatedProof", DECODE, proofs=short),
    ]
    return {
        "type": "TradeGive",
        "gameId": GAME.hex(),
        "hand": HAND,
        "keys": [{"seat": s, "key": KEYS[s].public.hex()} for s in SEATS],
        "giverHand": _hexes(PUBLIC[GIVER]),
        "count": len(GIVEN),
        "tests": tests,
    }


def _check_trade(group: Json, test: Json) -> None:
    ctx = HandContext(bytes.fromhex(group["gameId"]), group["hand"])
    keys = {k["seat"]: Point.decode_hex(k["key"]) for k in group["keys"]}
    held = _cts(group["giverHand"])
    giver = test["giver"]
    receiver = next(s for s in keys if s != giver)
    give = mental.TradeGive(
        tuple(test["positions"]),
        _cts(test["ciphertexts"]),
        tuple(ReencryptionProof.from_hex(p) for p in test["proofs"]),
    )
    outputs = mental.check_trade_give(
        ctx, giver, test["trade"], keys[giver], keys[receiver], held, group["count"], give
    )
    if "cards" in test:
        given = [held[p] for p in give.positions]
        before = PlayerHand.open(given, scalar_from_hex(test["giverSecret"]))
        after = PlayerHand.open(outputs, scalar_from_hex(test["receiverSecret"]))
        assert [_card(c) for c in before.cards] == [_card(c) for c in after.cards] == test["cards"]


# --- group 6: a reveal (SPEC 5.9) ---------------------------------------------------------------


def _reveal_group() -> Json:
    share, proof = REVEAL.share.hex(), REVEAL.proof.hex()
    tests: list[Json] = [
        case(
            f"seat {OWNER} turns layout card {REVEALED}",
            "valid",
            ["Valid"],
            seat=OWNER,
            index=REVEALED,
            share=share,
            proof=proof,
            secret=scalar_hex(SECRETS[OWNER]),
            turned=_card(HELD[OWNER].cards[REVEALED]),
        )
    ]
    made: Json = {"seat": OWNER, "index": REVEALED, "share": share, "proof": proof}
    other = LAYOUT.cards[0].c1.mul_secret(SECRETS[OWNER]).hex()
    tests += [
        _invalid(made, "checked for the next layout card", "WrongCard", PROOF, index=REVEALED + 1),
        _invalid(made, "checked as another seat's", "WrongSeat", PROOF, seat=GIVER),
        _invalid(made, "the share of another layout card", "ChangedValue", PROOF, share=other),
        _invalid(made, "a share that does not decode", "InvalidPoint", DECODE, share=_bad_point()),
        _invalid(made, "a proof one byte short", "TruncatedProof", DECODE, proof=proof[:-2]),
        _invalid(made, "layout card 5", "BadLabel", "MentalPokerError", index=5),
    ]
    return {
        "type": "Reveal",
        "gameId": GAME.hex(),
        "hand": HAND,
        "ownerKey": KEYS[OWNER].public.hex(),
        "layout": _hexes(LAYOUT.cards),
        "tests": tests,
    }


def _check_reveal(group: Json, test: Json) -> None:
    ctx = HandContext(bytes.fromhex(group["gameId"]), group["hand"])
    layout = mental.Layout(_cts(group["layout"]), ())
    reveal = mental.Reveal(Point.decode_hex(test["share"]), DleqProof.from_hex(test["proof"]))
    key = Point.decode_hex(group["ownerKey"])
    card = mental.check_reveal(ctx, test["seat"], key, layout, test["index"], reveal)
    if "turned" in test:
        assert _card(card) == test["turned"]
        ct = layout.cards[test["index"]]
        assert reveal.share == ct.c1.mul_secret(scalar_from_hex(test["secret"]))
        assert elgamal.open_with_share(ct, reveal.share) == test["turned"]["index"]


# --- the document -------------------------------------------------------------------------------


def generate() -> Json:
    return document(
        "mental",
        "the mental-poker steps of one hand (SPEC 5)",
        NOTES,
        [
            _context_group(),
            _hand_key_group(),
            *_deck_groups(),
            _deal_group(),
            _trade_group(),
            _reveal_group(),
        ],
        header="SPEC 5. One hand (game 'gameId', hand 7) of two seats, 1 and 3, dealer 3, "
        "five cards each: every value is the output of the previous step. Points, "
        "ciphertexts (c1 then c2) and proofs in the encodings of SPEC 4; scalars 32 bytes "
        "little-endian; cards by canonical index and text (SPEC 2). An invalid case fails as "
        "'error' names: DecodeError (a value does not decode), MalformedStep (the step has "
        "the wrong shape), ProofRejected (a proof does not verify here) or MentalPokerError "
        "(no such context or label).",
        errors=ERRORS,
    )


CHECKS: dict[str, Callable[[Json, Json], None]] = {
    "ProofContext": _check_context,
    "HandKey": _check_hand_key,
    "DeckShuffle": _check_deck,
    "DeckShuffleStatement": _check_deck,
    "DealShares": _check_deal,
    "TradeGive": _check_trade,
    "Reveal": _check_reveal,
}


def check(group: Json, test: Json) -> None:
    CHECKS[group["type"]](group, test)
