"""Vectors for the live deck (SPEC 5.12-5.16): the step labels, a deal step with cards down, up,
burned and to the board, a fold's release, a discard to the muck, a reshuffle of stub and muck,
and a show.

Generates and checks protocol/vectors/live_deck.json; no I/O. Every value is made by the
`p2pwillow.mental` functions from `common.seeded_rng`, each step from the deck the step before
left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import DecodeError, Point, scalar_from_hex, scalar_hex
from p2pwillow.crypto.proofs import DleqBatchProof, ReencryptionProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.mental import (
    HandContext,
    LiveDeck,
    MalformedStep,
    MentalPokerError,
    PlayerHand,
    ProofRejected,
)
from p2pwillow.mental import deck as live
from tools.vectors.common import Json, case, document, seeded_rng

FILE_NAME = "live_deck.json"

ERRORS: dict[str, type[Exception]] = {
    "DecodeError": DecodeError,
    "MalformedStep": MalformedStep,
    "ProofRejected": ProofRejected,
    "MentalPokerError": MentalPokerError,
}

NOTES = {
    "StepLabel": "A step label of SPEC 5.1 for the live deck, N in decimal.",
    "BadLabel": "A step number outside 0..2^63-1: no label exists.",
    "Valid": "An honest step. The actor's secret is listed, so every share and every decryption "
    "can be recomputed.",
    "Opened": "What every peer computes once every holder's shares are checked (SPEC 5.12): the "
    "down cards under their owners' keys alone, the up and board cards opened.",
    "Released": "The deck after a release (SPEC 5.13): the undealt positions and the muck without "
    "the folder's share, and the folder no longer a holder.",
    "WrongSeat": "The step is checked as another seat's: its proof is bound to the actor.",
    "WrongStep": "The step is checked under another step number.",
    "WrongKey": "The value is made for another key than the one the step requires.",
    "ChangedValue": "One published value replaced by another valid one after proving.",
    "WrongCount": "Fewer values than the step must publish.",
    "SwappedOutputs": "Two output ciphertexts exchanged after proving.",
    "NotAHolder": "A seat that no longer holds a key of the deck.",
    "StepOpen": "A step of the deck while a deal step's shares are being collected.",
}

GAME = seeded_rng("live-deck/game")(16)
HAND = 3
SEATS = (1, 2, 4)
DEALER = 4
FOLDER = 2
DRAWER = 1
DISCARD_NUMBER = 40
"""The discard's identifier: the seq of the entry that carries it."""
SHOWER = 4
SHOW_NUMBER = 57

CTX = HandContext(GAME, HAND)
_RNG = seeded_rng("live-deck/hand")
SECRETS: dict[int, int] = {}
KEYS: dict[int, Point] = {}
for _seat in SEATS:
    SECRETS[_seat], _key = mental.make_hand_key(CTX, _seat, _RNG)
    KEYS[_seat] = _key.public
ORDER = mental.shuffle_order(SEATS, DEALER)
_JOINT = mental.joint_key(KEYS.values())
_cards = mental.starting_deck(_JOINT)
for _seat in ORDER:
    _cards = mental.make_deck_shuffle(CTX, _seat, _JOINT, _cards, _RNG).ciphertexts
DECK0 = live.live_deck(_cards, ORDER, KEYS)

# deal step 0: two down to every seat in deal order... here one down and one up, a burn, a board
DESTINATIONS = (
    *(mental.down(s) for s in ORDER),
    *(mental.up(s) for s in ORDER),
    mental.BURN,
    mental.BOARD,
)
OPEN0 = live.plan_deal(DECK0, 0, DESTINATIONS)
SHARES0 = {s: live.make_street_shares(CTX, s, SECRETS[s], OPEN0, _RNG) for s in ORDER}
DEALT0 = live.open_deal(OPEN0, SHARES0)
HANDS = {s: DEALT0.down[s] for s in ORDER}
DECK1 = DEALT0.deck

RELEASE = live.make_release(CTX, FOLDER, SECRETS[FOLDER], DECK1, _RNG)
DECK2 = live.check_release(CTX, FOLDER, DECK1, RELEASE)

# the drawer is dealt a second down card, then discards its first
OPEN1 = live.plan_deal(DECK2, 1, [mental.down(DRAWER)])
SHARES1 = {s: live.make_street_shares(CTX, s, SECRETS[s], OPEN1, _RNG) for s in OPEN1.holders}
DEALT1 = live.open_deal(OPEN1, SHARES1)
HANDS[DRAWER] += DEALT1.down[DRAWER]
DECK3 = DEALT1.deck
HELD = PlayerHand.open(HANDS[DRAWER], SECRETS[DRAWER])
DISCARD = live.make_discard(CTX, DRAWER, DISCARD_NUMBER, SECRETS[DRAWER], HELD, [0], DECK3, _RNG)
KEPT, DECK4 = live.check_discard(CTX, DRAWER, DISCARD_NUMBER, DECK3, HANDS[DRAWER], 1, DISCARD)

RESHUFFLER = DECK4.holders[0]
GATHERED = live.gathered(DECK4)
RESHUFFLE = live.make_reshuffle(CTX, RESHUFFLER, 0, DECK4, GATHERED, _RNG)

SHOW = live.make_show(CTX, SHOWER, SHOW_NUMBER, SECRETS[SHOWER], HANDS[SHOWER], [0], _RNG)

PROOF, SHAPE = "ProofRejected", "MalformedStep"


def _invalid(base: Json, comment: str, flag: str, error: str, **change: Any) -> Json:
    return case(comment, "invalid", [flag], **{**base, **change}, error=error)


def _hexes(values: Any) -> list[str]:
    return [v.hex() for v in values]


def _points(texts: list[str]) -> tuple[Point, ...]:
    return tuple(Point.decode_hex(t) for t in texts)


def _cts(texts: list[str]) -> tuple[Ciphertext, ...]:
    return tuple(Ciphertext.from_hex(t) for t in texts)


def _card(card: Card) -> Json:
    return {"index": card.index, "card": card.ascii}


def _deck(deck: LiveDeck) -> Json:
    """A deck's public state; the keys are the group's."""
    return {
        "cards": _hexes(deck.cards),
        "pointer": deck.pointer,
        "holders": list(deck.holders),
        "muck": _hexes(deck.muck),
    }


def _read_deck(group: Json, deck: Json) -> LiveDeck:
    keys = {k["seat"]: Point.decode_hex(k["key"]) for k in group["handKeys"]}
    return LiveDeck(
        _cts(deck["cards"]),
        deck["pointer"],
        tuple(deck["holders"]),
        keys,
        _cts(deck["muck"]),
    )


def _where() -> Json:
    return {
        "gameId": GAME.hex(),
        "hand": HAND,
        "handKeys": [{"seat": s, "key": KEYS[s].hex()} for s in SEATS],
    }


def _ctx(group: Json) -> HandContext:
    return HandContext(bytes.fromhex(group["gameId"]), group["hand"])


# --- group 1: step labels (SPEC 5.1) -------------------------------------------------------


LABELS: Mapping[str, Callable[[int], str]] = {
    "deal": mental.deal_step,
    "discard": mental.discard_step,
    "reshuffle": mental.reshuffle_step,
    "show": mental.show_step,
}


def _label_group() -> Json:
    tests = [
        case(
            "the first deal step", "valid", ["StepLabel"], label="deal", argument=0, step="deal/0"
        ),
        case("deal step 4", "valid", ["StepLabel"], label="deal", argument=4, step="deal/4"),
        case("a discard", "valid", ["StepLabel"], label="discard", argument=40, step="discard/40"),
        case(
            "a reshuffle", "valid", ["StepLabel"], label="reshuffle", argument=1, step="reshuffle/1"
        ),
        case(
            "a show",
            "valid",
            ["StepLabel"],
            label="show",
            argument=2**63 - 1,
            step=f"show/{2**63 - 1}",
        ),
        case(
            "deal step -1",
            "invalid",
            ["BadLabel"],
            label="deal",
            argument=-1,
            error="MentalPokerError",
        ),
        case(
            "show 2^63",
            "invalid",
            ["BadLabel"],
            label="show",
            argument=2**63,
            error="MentalPokerError",
        ),
    ]
    return {"type": "StepLabel", "release": mental.STEP_RELEASE, "tests": tests}


def _check_label(group: Json, test: Json) -> None:
    assert group["release"] == mental.STEP_RELEASE == "release"
    assert LABELS[test["label"]](test["argument"]) == test["step"]


# --- group 2: a deal step (SPEC 5.12) ------------------------------------------------------


def _destinations() -> list[Json]:
    return [
        {"to": d.to.value, **({} if d.seat is None else {"seat": d.seat})} for d in DESTINATIONS
    ]


def _deal_group() -> Json:
    tests: list[Json] = []
    assert OPEN0.dealing is not None
    for seat in ORDER:
        own = SHARES0[seat]
        assert own is not None
        tests.append(
            case(
                f"seat {seat}'s shares",
                "valid",
                ["Valid"],
                seat=seat,
                secret=scalar_hex(SECRETS[seat]),
                positions=list(OPEN0.dealing.shared_positions(seat)),
                shares=_hexes(own.shares),
                proof=own.proof.hex(),
            )
        )
    tests.append(
        case(
            "every holder's shares, and what they open",
            "valid",
            ["Opened"],
            shares=[
                {"seat": s, "shares": _hexes(m.shares), "proof": m.proof.hex()}
                for s, m in SHARES0.items()
                if m is not None
            ],
            down=[
                {
                    "seat": s,
                    "secret": scalar_hex(SECRETS[s]),
                    "ciphertexts": _hexes(DEALT0.down[s]),
                    "cards": [_card(c) for c in PlayerHand.open(DEALT0.down[s], SECRETS[s]).cards],
                }
                for s in ORDER
            ],
            up=[{"seat": s, "cards": [_card(c) for c in DEALT0.up[s]]} for s in ORDER],
            board=[_card(c) for c in DEALT0.board],
            pointer=DEALT0.deck.pointer,
        )
    )
    first, second = ORDER[0], ORDER[1]
    one = SHARES0[first]
    assert one is not None
    shares = _hexes(one.shares)
    made: Json = {"seat": first, "shares": shares, "proof": one.proof.hex()}
    other = SHARES0[second]
    assert other is not None
    changed = [shares[0], other.shares[1].hex(), *shares[2:]]
    tests += [
        _invalid(made, "checked as another seat's", "WrongSeat", PROOF, seat=second),
        _invalid(made, "checked as deal step 1", "WrongStep", PROOF, step=1),
        _invalid(made, "a share replaced", "ChangedValue", PROOF, shares=changed),
        _invalid(made, "one share short", "WrongCount", SHAPE, shares=shares[:-1]),
    ]
    return {
        **_where(),
        "type": "DealStep",
        "deck": _deck(DECK0),
        "step": 0,
        "destinations": _destinations(),
        "tests": tests,
    }


def _read_destination(d: Json) -> mental.Destination:
    return mental.Destination(mental.To(d["to"]), d.get("seat"))


def _check_deal(group: Json, test: Json) -> None:
    ctx = _ctx(group)
    deck = _read_deck(group, group["deck"])
    number = int(test["step"] if "step" in test else group["step"])
    opened = live.plan_deal(deck, number, [_read_destination(d) for d in group["destinations"]])
    if "down" in test:
        shares = {
            s["seat"]: mental.DealShares(_points(s["shares"]), DleqBatchProof.from_hex(s["proof"]))
            for s in test["shares"]
        }
        for seat, made in shares.items():
            live.check_street_shares(ctx, seat, opened, made)
        dealt = live.open_deal(opened, shares)
        for hand in test["down"]:
            seat = hand["seat"]
            assert _hexes(dealt.down[seat]) == hand["ciphertexts"]
            held = PlayerHand.open(dealt.down[seat], scalar_from_hex(hand["secret"]))
            assert [_card(c) for c in held.cards] == hand["cards"]
        for row in test["up"]:
            assert [_card(c) for c in dealt.up[row["seat"]]] == row["cards"]
        assert [_card(c) for c in dealt.board] == test["board"]
        assert dealt.deck.pointer == test["pointer"]
        return
    made = mental.DealShares(_points(test["shares"]), DleqBatchProof.from_hex(test["proof"]))
    live.check_street_shares(ctx, test["seat"], opened, made)
    assert opened.dealing is not None
    assert list(opened.dealing.shared_positions(test["seat"])) == test["positions"]
    secret = scalar_from_hex(test["secret"])
    assert made.shares == tuple(deck.cards[p].c1.mul_secret(secret) for p in test["positions"])


# --- group 3: a fold's release (SPEC 5.13) -------------------------------------------------


def _release_group() -> Json:
    assert RELEASE.proof is not None
    made: Json = {"seat": FOLDER, "shares": _hexes(RELEASE.shares), "proof": RELEASE.proof.hex()}
    valid = case(
        f"seat {FOLDER} folds and releases",
        "valid",
        ["Valid", "Released"],
        **made,
        secret=scalar_hex(SECRETS[FOLDER]),
        after=_deck(DECK2),
    )
    changed = [RELEASE.shares[1].hex(), *made["shares"][1:]]
    return {
        **_where(),
        "type": "Release",
        "deck": _deck(DECK1),
        "tests": [
            valid,
            _invalid(made, "checked as another seat's", "WrongSeat", PROOF, seat=DRAWER),
            _invalid(made, "a share replaced", "ChangedValue", PROOF, shares=changed),
            _invalid(made, "one share short", "WrongCount", SHAPE, shares=made["shares"][:-1]),
            _invalid(
                made, "while deal step 1 is open", "StepOpen", SHAPE, dealing=[{"to": "board"}]
            ),
        ],
    }


def _check_release(group: Json, test: Json) -> None:
    deck = _read_deck(group, group["deck"])
    if "dealing" in test:
        deck = live.plan_deal(deck, 1, [_read_destination(d) for d in test["dealing"]])
    proof = DleqBatchProof.from_hex(test["proof"])
    release = live.Release(_points(test["shares"]), proof)
    after = live.check_release(_ctx(group), test["seat"], deck, release)
    if "after" in test:
        assert after == _read_deck(group, test["after"])


# --- group 4: a discard to the muck (SPEC 5.14) --------------------------------------------


def _discard_group() -> Json:
    made: Json = {
        "seat": DRAWER,
        "number": DISCARD_NUMBER,
        "count": 1,
        "positions": list(DISCARD.positions),
        "ciphertexts": _hexes(DISCARD.ciphertexts),
        "proofs": _hexes(DISCARD.proofs),
    }
    valid = case(
        f"seat {DRAWER} discards its first card",
        "valid",
        ["Valid"],
        **made,
        secret=scalar_hex(SECRETS[DRAWER]),
        card=_card(HELD.cards[0]),
        kept=_hexes(KEPT),
        muck=_hexes(DECK4.muck),
    )
    to_self = mental.make_trade_give(
        CTX, DRAWER, 0, SECRETS[DRAWER], HELD, [0], KEYS[DRAWER], seeded_rng("live-deck/self")
    )
    return {
        **_where(),
        "type": "Discard",
        "deck": _deck(DECK3),
        "hands": [{"seat": s, "ciphertexts": _hexes(HANDS[s])} for s in ORDER],
        "tests": [
            valid,
            _invalid(made, "checked as another discard", "WrongStep", PROOF, number=41),
            _invalid(made, "checked for the other card", "ChangedValue", PROOF, positions=[1]),
            _invalid(made, "checked as two cards", "WrongCount", SHAPE, count=2),
            _invalid(
                made,
                "re-encrypted to the drawer's own key",
                "WrongKey",
                PROOF,
                ciphertexts=_hexes(to_self.ciphertexts),
                proofs=_hexes(to_self.proofs),
            ),
            _invalid(made, "by the folder", "NotAHolder", SHAPE, seat=FOLDER),
        ],
    }


def _check_discard(group: Json, test: Json) -> None:
    deck = _read_deck(group, group["deck"])
    hands = {h["seat"]: _cts(h["ciphertexts"]) for h in group["hands"]}
    give = mental.TradeGive(
        tuple(test["positions"]),
        _cts(test["ciphertexts"]),
        tuple(ReencryptionProof.from_hex(p) for p in test["proofs"]),
    )
    seat = test["seat"]
    kept, after = live.check_discard(
        _ctx(group), seat, test["number"], deck, hands[seat], test["count"], give
    )
    if "kept" in test:
        assert _hexes(kept) == test["kept"] and _hexes(after.muck) == test["muck"]


# --- group 5: a reshuffle of stub and muck (SPEC 5.15) -------------------------------------


def _reshuffle_group() -> Json:
    outputs = _hexes(RESHUFFLE.ciphertexts)
    made: Json = {
        "seat": RESHUFFLER,
        "number": 0,
        "outputs": outputs,
        "proof": RESHUFFLE.proof.hex(),
    }
    swapped = [outputs[1], outputs[0], *outputs[2:]]
    return {
        **_where(),
        "type": "Reshuffle",
        "deck": _deck(DECK4),
        "inputs": _hexes(GATHERED),
        "tests": [
            case(f"seat {RESHUFFLER} shuffles first", "valid", ["Valid"], **made),
            _invalid(made, "checked as reshuffle 1", "WrongStep", PROOF, number=1),
            _invalid(made, "two outputs swapped", "SwappedOutputs", PROOF, outputs=swapped),
            _invalid(made, "one output short", "WrongCount", SHAPE, outputs=outputs[:-1]),
            _invalid(made, "by the folder", "NotAHolder", SHAPE, seat=FOLDER),
        ],
    }


def _check_reshuffle(group: Json, test: Json) -> None:
    deck = _read_deck(group, group["deck"])
    inputs = _cts(group["inputs"])
    assert live.gathered(deck) == inputs
    step = live.Reshuffle(_cts(test["outputs"]), ShuffleProof.from_hex(test["proof"], len(inputs)))
    outputs = live.check_reshuffle(_ctx(group), test["seat"], test["number"], deck, inputs, step)
    assert live.reshuffled(deck, outputs).cards == step.ciphertexts


# --- group 6: a show (SPEC 5.16) -----------------------------------------------------------


def _show_group() -> Json:
    made: Json = {
        "seat": SHOWER,
        "number": SHOW_NUMBER,
        "positions": list(SHOW.positions),
        "shares": _hexes(SHOW.shares),
        "proof": SHOW.proof.hex(),
    }
    held = PlayerHand.open(HANDS[SHOWER], SECRETS[SHOWER])
    return {
        **_where(),
        "type": "Show",
        "hands": [{"seat": s, "ciphertexts": _hexes(HANDS[s])} for s in ORDER],
        "tests": [
            case(
                f"seat {SHOWER} shows its down card",
                "valid",
                ["Valid"],
                **made,
                secret=scalar_hex(SECRETS[SHOWER]),
                cards=[_card(held.cards[0])],
            ),
            _invalid(made, "checked as another show", "WrongStep", PROOF, number=SHOW_NUMBER + 1),
            _invalid(made, "checked as another seat's", "WrongSeat", PROOF, seat=DRAWER),
            _invalid(made, "no card named", "WrongCount", SHAPE, positions=[], shares=[]),
        ],
    }


def _check_show(group: Json, test: Json) -> None:
    hands = {h["seat"]: _cts(h["ciphertexts"]) for h in group["hands"]}
    keys = {k["seat"]: Point.decode_hex(k["key"]) for k in group["handKeys"]}
    seat = test["seat"]
    show = live.Show(
        tuple(test["positions"]), _points(test["shares"]), DleqBatchProof.from_hex(test["proof"])
    )
    cards = live.check_show(_ctx(group), seat, test["number"], keys[seat], hands[seat], show)
    if "cards" in test:
        assert [_card(c) for c in cards] == test["cards"]


def generate() -> Json:
    return document(
        "live_deck",
        "the live deck of one hand (SPEC 5.12-5.16)",
        NOTES,
        [
            _label_group(),
            _deal_group(),
            _release_group(),
            _discard_group(),
            _reshuffle_group(),
            _show_group(),
        ],
        header=f"SPEC 5.12-5.16. One hand (game 'gameId', hand {HAND}) of three seats, 1, 2 and "
        f"4, dealer 4, after the joint shuffle of SPEC 5.3: deal step 0 gives one card down and "
        f"one up to every seat, burns one and turns one to the board; seat {FOLDER} folds and "
        f"releases; deal step 1 gives seat {DRAWER} a second card down, which then discards its "
        f"first; seat {RESHUFFLER} shuffles first in a reshuffle of stub and muck; seat {SHOWER} "
        "shows its down card. Each group's deck is the state the step before left: 'cards' by "
        "position, 'pointer' the next to deal, 'holders' in shuffle order, 'muck'. Encodings as "
        "in mental.json.",
        errors=ERRORS,
    )


CHECKS: dict[str, Callable[[Json, Json], None]] = {
    "StepLabel": _check_label,
    "DealStep": _check_deal,
    "Release": _check_release,
    "Discard": _check_discard,
    "Reshuffle": _check_reshuffle,
    "Show": _check_show,
}


def check(group: Json, test: Json) -> None:
    CHECKS[group["type"]](group, test)
