"""Mental-poker operations (SPEC 5): whole hands in memory, every cheat rejected, privacy."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import pytest

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto import elgamal, proofs
from p2pwillow.crypto import shuffle as shuffles
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import CARD_POINTS, G, L, Point, Rng, card_point, random_scalar
from p2pwillow.games.roll_your_own import LAYOUT
from p2pwillow.mental import (
    DealPlan,
    DealShares,
    DeckShuffle,
    HandContext,
    Layout,
    MalformedStep,
    MentalPokerError,
    PlayerHand,
    ProofContext,
    ProofRejected,
    Reveal,
    TradeGive,
)

GAME = b"game-0001"


def make_rng(seed: str) -> Rng:
    """A deterministic rng, so every run of the suite deals the same cards."""
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


# --- an in-memory table: every step made by its player and checked once, publicly ----------


@dataclass
class Table:
    ctx: HandContext
    plan: DealPlan
    secrets: dict[int, int]
    keys: dict[int, Point]
    joint: Point
    decks: list[tuple[Ciphertext, ...]]
    deck_steps: dict[int, DeckShuffle]
    shares: dict[int, DealShares] = field(default_factory=dict)
    public: dict[int, tuple[Ciphertext, ...]] = field(default_factory=dict)
    held: dict[int, PlayerHand] = field(default_factory=dict)
    # what a plaintext tracker (the test) expects each hand to hold
    expected: dict[int, list[Card]] = field(default_factory=dict)
    received: dict[int, set[Card]] = field(default_factory=dict)
    layouts: dict[int, Layout] = field(default_factory=dict)
    layout_cards: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    revealed: dict[int, list[Card]] = field(default_factory=dict)
    published: list[Ciphertext] = field(default_factory=list)
    # every published decryption share, with the c1 it was made for (public knowledge)
    published_shares: list[tuple[Point, Point]] = field(default_factory=list)
    trades: int = 0

    @property
    def seats(self) -> tuple[int, ...]:
        return self.plan.order


def deal_table(
    seats: list[int], cards_each: int, seed: str, dealer: int | None = None, hand_no: int = 1
) -> Table:
    rng = make_rng(seed)
    ctx = HandContext(GAME, hand_no)
    dealer = seats[0] if dealer is None else dealer
    plan = mental.deal_plan(seats, dealer, cards_each)
    secrets: dict[int, int] = {}
    keys: dict[int, Point] = {}
    for seat in plan.order:
        secret, hand_key = mental.make_hand_key(ctx, seat, rng)
        mental.check_hand_key(ctx, seat, hand_key)
        secrets[seat], keys[seat] = secret, hand_key.public
    joint = mental.joint_key(keys[s] for s in plan.order)
    decks = [mental.starting_deck(joint)]
    steps: dict[int, DeckShuffle] = {}
    for seat in mental.shuffle_order(seats, dealer):
        step = mental.make_deck_shuffle(ctx, seat, joint, decks[-1], rng)
        decks.append(mental.check_deck_shuffle(ctx, seat, joint, decks[-1], step))
        steps[seat] = step
    table = Table(ctx, plan, secrets, keys, joint, decks, steps)
    for deck in decks:
        table.published.extend(deck)
    for seat in plan.order:
        shares = mental.make_deal_shares(ctx, seat, secrets[seat], plan, decks[-1], rng)
        mental.check_deal_shares(ctx, seat, keys[seat], plan, decks[-1], shares)
        table.shares[seat] = shares
        bases = [decks[-1][p].c1 for p in plan.shared_positions(seat)]
        table.published_shares.extend(zip(bases, shares.shares, strict=True))
    everyone = sum(secrets.values()) % L
    truth = [Card.from_index(elgamal.decrypt(ct, everyone)) for ct in decks[-1]]
    for seat in plan.order:
        cts = mental.owner_ciphertexts(plan, decks[-1], table.shares, seat)
        table.public[seat] = cts
        table.published.extend(cts)
        table.held[seat] = PlayerHand.open(cts, secrets[seat])
        table.expected[seat] = [truth[p] for p in plan.positions(seat)]
        table.received[seat] = set()
    return table


def do_trade(table: Table, a: int, b: int, k: int, rng: Rng) -> None:
    t = table.trades
    table.trades += 1
    ctx = table.ctx
    gives: dict[int, TradeGive] = {}
    for giver, receiver in ((a, b), (b, a)):
        # k positions of the giver's hand, chosen at random
        picks = sorted(range(len(table.held[giver].cards)), key=lambda _: rng(8))[:k]
        gives[giver] = mental.make_trade_give(
            ctx, giver, t, table.secrets[giver], table.held[giver], picks, table.keys[receiver], rng
        )
    for giver, receiver in ((a, b), (b, a)):
        got = mental.check_trade_give(
            ctx,
            giver,
            t,
            table.keys[giver],
            table.keys[receiver],
            table.public[giver],
            k,
            gives[giver],
        )
        table.published.extend(got)
        assert got == gives[giver].ciphertexts
    moved = {
        giver: [table.held[giver].cards[p] for p in gives[giver].positions] for giver in (a, b)
    }
    for owner, other in ((a, b), (b, a)):
        given = gives[owner].positions
        received = gives[other].ciphertexts
        public = mental.apply_trade(table.public[owner], given, received)
        held = mental.trade_hand(table.held[owner], table.secrets[owner], given, received)
        assert held.ciphertexts == public
        assert list(held.cards[len(held.cards) - k :]) == moved[other]  # receiver learns them
        step, held = mental.make_hand_shuffle(ctx, owner, t, table.secrets[owner], held, rng)
        table.public[owner] = mental.check_hand_shuffle(
            ctx, owner, t, table.keys[owner], public, step
        )
        table.published.extend(table.public[owner])
        table.held[owner] = held
        table.expected[owner] = [c for c in table.expected[owner] if c not in moved[owner]]
        table.expected[owner] += moved[other]
        table.received[owner] |= set(moved[other])


def do_layouts(table: Table, rng: Rng) -> None:
    for seat in table.seats:
        held = table.held[seat]
        # a layout in an order that differs from the hand's: highest card first
        chosen = tuple(sorted(held.cards, reverse=True)[:LAYOUT])
        step, after = mental.make_layout(table.ctx, seat, table.secrets[seat], held, chosen, rng)
        layout = mental.check_layout(
            table.ctx, seat, table.keys[seat], table.public[seat], step, LAYOUT
        )
        assert after.cards[:LAYOUT] == chosen
        assert after.ciphertexts == layout.cards + layout.discards
        table.layouts[seat], table.layout_cards[seat], table.held[seat] = layout, chosen, after
        table.public[seat] = after.ciphertexts
        table.published.extend(after.ciphertexts)
        table.revealed[seat] = []


def do_reveals(table: Table, rng: Rng, upto: dict[int, int] | None = None) -> None:
    for seat in table.seats:
        count = LAYOUT if upto is None else upto.get(seat, LAYOUT)
        for r in range(count):
            reveal = mental.make_reveal(
                table.ctx, seat, table.secrets[seat], table.layouts[seat], r, rng
            )
            card = mental.check_reveal(
                table.ctx, seat, table.keys[seat], table.layouts[seat], r, reveal
            )
            table.revealed[seat].append(card)
            table.published_shares.append((table.layouts[seat].cards[r].c1, reveal.share))


def assert_hands_consistent(table: Table) -> None:
    seen: list[Card] = []
    for seat in table.seats:
        held = table.held[seat]
        assert sorted(held.cards) == sorted(table.expected[seat])
        assert held.ciphertexts == table.public[seat]
        for ct, card in zip(table.public[seat], held.cards, strict=True):
            assert elgamal.decrypt(ct, table.secrets[seat]) == card.index
        seen += held.cards
    assert len(seen) == len(set(seen)) == table.plan.dealt


# --- whole hands -------------------------------------------------------------------------

HANDS = [  # (players, cards each): every deal size, both extremes of players and of deck use
    (2, 5),
    (2, 6),
    (2, 7),
    (3, 7),
    (4, 6),
    (5, 5),
    (6, 5),
    (7, 7),
    (8, 6),
    (9, 5),
    (10, 5),
]


@pytest.mark.parametrize(("players", "cards_each"), HANDS, ids=[f"{n}x{c}" for n, c in HANDS])
def test_whole_hand(players: int, cards_each: int) -> None:
    seats = list(range(players))
    dealer = players // 2
    table = deal_table(seats, cards_each, f"hand/{players}/{cards_each}", dealer=dealer)
    rng = make_rng(f"play/{players}/{cards_each}")

    # every dealt card distinct; each player learns exactly its own cards
    dealt = [c for s in seats for c in table.held[s].cards]
    assert len(set(dealt)) == players * cards_each
    for seat in seats:
        assert list(table.held[seat].cards) == table.expected[seat]
        for other in seats:
            if other != seat:
                for ct in table.public[other]:
                    with pytest.raises(ValueError):
                        elgamal.decrypt(ct, table.secrets[seat])

    # trades between neighbours, k = 1, 2, 3, ... (bounded by the hand size)
    for i in range(players - 1):
        do_trade(table, seats[i], seats[i + 1], 1 + i % min(3, cards_each), rng)
    assert_hands_consistent(table)

    do_layouts(table, rng)
    do_reveals(table, rng)
    for seat in seats:
        assert tuple(table.revealed[seat]) == table.layout_cards[seat]


def test_shuffle_order_and_deal_plan() -> None:
    assert mental.shuffle_order([0, 1, 2, 3], 1) == (2, 3, 0, 1)
    assert mental.shuffle_order([3, 0, 2, 1], 3) == (0, 1, 2, 3)
    assert mental.shuffle_order([7, 2, 5], 5) == (7, 2, 5)
    with pytest.raises(MentalPokerError):
        mental.shuffle_order([0, 1, 2], 4)
    with pytest.raises(MentalPokerError):
        mental.shuffle_order([0], 0)
    plan = mental.deal_plan([0, 1, 2], 0, 5)
    assert plan.order == (1, 2, 0)
    assert plan.positions(1) == (0, 3, 6, 9, 12)
    assert plan.positions(0) == (2, 5, 8, 11, 14)
    assert [plan.owner(p) for p in range(4)] == [1, 2, 0, 1]
    assert plan.shared_positions(2) == tuple(p for p in range(15) if p % 3 != 1)
    with pytest.raises(MentalPokerError):
        mental.deal_plan(range(8), 0, 7)
    with pytest.raises(MentalPokerError):
        DealPlan((1, 1), 5)


def test_proof_context_encoding() -> None:
    base = ProofContext(GAME, 3, 2, "trade/1/give")
    variants = [
        base,
        dataclasses.replace(base, game_id=b"game-0002"),
        dataclasses.replace(base, hand=4),
        dataclasses.replace(base, seat=3),
        dataclasses.replace(base, step="trade/1/take"),
        ProofContext(b"g", 1, 0, "reveal/0"),
        ProofContext(b"g\x00\x00\x00\x01", 1, 0, "reveal/0"),
    ]
    assert len({v.encode() for v in variants}) == len(variants)
    assert base.encode() == (
        b"\x00\x00\x00\x13p2pwillow/v1/mental"
        + b"\x00\x00\x00\x09game-0001"
        + b"\x00\x00\x00\x03\x00\x00\x00\x02"
        + b"\x00\x00\x00\x0ctrade/1/give"
    )
    for bad in (
        {"game_id": b""},
        {"game_id": "text"},
        {"hand": -1},
        {"seat": 2**32},
        {"step": "Trade"},
        {"step": ""},
        {"hand": True},
    ):
        with pytest.raises(MentalPokerError):
            dataclasses.replace(base, **bad)
    assert mental.reveal_step(4) == "reveal/4"
    assert mental.reveal_step(6) == "reveal/6"  # a hand holds at most seven cards
    assert mental.trade_give_step(2**40) == "trade/1099511627776/give"
    assert mental.hand_shuffle_step(0) == "hand-shuffle/0"
    for bad_index in (7, -1, True):
        with pytest.raises(MentalPokerError):
            mental.reveal_step(bad_index)
    for bad_trade in (-1, 2**63, "1"):
        with pytest.raises(MentalPokerError):
            mental.trade_give_step(bad_trade)  # type: ignore[arg-type]


# --- cheating: every step's check rejects tampered input ----------------------------------


@pytest.fixture(scope="module")
def table() -> Table:
    """Three players, 6 cards each, dealt and checked; one trade and the layouts done."""
    t = deal_table([0, 1, 2], 6, "cheats", dealer=2)
    rng = make_rng("cheats/play")
    do_trade(t, 0, 1, 2, rng)
    return t


def _rejects(exc: type[MentalPokerError], call: Callable[[], object]) -> MentalPokerError:
    with pytest.raises(exc) as info:
        call()
    return info.value


def test_hand_key_cheats(table: Table) -> None:
    ctx, rng = table.ctx, make_rng("key-cheats")
    secret, key = mental.make_hand_key(ctx, 1, rng)
    mental.check_hand_key(ctx, 1, key)
    _, other = mental.make_hand_key(ctx, 2, rng)
    for bad_ctx, seat in (
        (HandContext(b"other-game", 1), 1),
        (HandContext(GAME, 2), 1),
        (ctx, 2),
    ):
        err = _rejects(ProofRejected, functools.partial(mental.check_hand_key, bad_ctx, seat, key))
        assert err.step == "hand-key"
    # somebody else's key with my proof, and a key without knowledge of its secret
    _rejects(
        ProofRejected,
        lambda: mental.check_hand_key(ctx, 1, dataclasses.replace(key, public=other.public)),
    )
    rogue = dataclasses.replace(other, public=other.public - table.joint)
    _rejects(ProofRejected, lambda: mental.check_hand_key(ctx, 2, rogue))
    # a key without its proof: the missing proof is the tampering under test
    no_proof = cast(proofs.KeyProof, None)
    _rejects(
        MalformedStep,
        lambda: mental.check_hand_key(ctx, 1, dataclasses.replace(key, proof=no_proof)),
    )
    assert secret


def test_deck_shuffle_cheats(table: Table) -> None:
    ctx, joint = table.ctx, table.joint
    first = table.plan.order[0]
    before, honest = table.decks[0], table.deck_steps[first]
    assert mental.check_deck_shuffle(ctx, first, joint, before, honest) == table.decks[1]
    rng = make_rng("deck-cheats")
    outputs, witness = shuffles.shuffle(joint, list(before), rng)
    # a "shuffle" that duplicates one card over another (dropping the one replaced)
    perm = list(witness.permutation)
    perm[3] = perm[5]
    rand = list(witness.randomness)
    bad = list(outputs)
    bad[3] = elgamal.reencrypt(before[perm[3]], joint, rand[3])
    ctxb = ctx.at(first, "deck-shuffle").encode()
    try:
        bad_witness = dataclasses.replace(witness, permutation=tuple(perm))
        bad_proof = shuffles.prove_shuffle(joint, list(before), bad, bad_witness, ctxb, rng)
    except Exception:  # a careful prover refuses; the cheat then reuses an honest proof
        bad_proof = shuffles.prove_shuffle(joint, list(before), list(outputs), witness, ctxb, rng)
    dup = DeckShuffle(tuple(bad), bad_proof)
    err = _rejects(ProofRejected, lambda: mental.check_deck_shuffle(ctx, first, joint, before, dup))
    assert err.seat == first and err.step == "deck-shuffle"
    # a made-up card in place of one, with the honest proof
    fake = list(honest.ciphertexts)
    fake[0] = elgamal.encrypt(51, joint, rng)
    _rejects(
        ProofRejected,
        lambda: mental.check_deck_shuffle(
            ctx, first, joint, before, dataclasses.replace(honest, ciphertexts=tuple(fake))
        ),
    )
    # two outputs swapped
    swapped = list(honest.ciphertexts)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    _rejects(
        ProofRejected,
        lambda: mental.check_deck_shuffle(
            ctx, first, joint, before, dataclasses.replace(honest, ciphertexts=tuple(swapped))
        ),
    )
    # a card dropped: 51 outputs
    _rejects(
        MalformedStep,
        lambda: mental.check_deck_shuffle(
            ctx,
            first,
            joint,
            before,
            dataclasses.replace(honest, ciphertexts=honest.ciphertexts[1:]),
        ),
    )
    # replayed into another seat, hand, game, or onto another input deck
    for c, s, b in (
        (ctx, table.plan.order[1], before),
        (HandContext(GAME, 2), first, before),
        (HandContext(b"other", 1), first, before),
        (ctx, first, table.decks[1]),
    ):
        _rejects(
            ProofRejected, functools.partial(mental.check_deck_shuffle, c, s, joint, b, honest)
        )


def test_deal_share_cheats(table: Table) -> None:
    ctx, plan, deck = table.ctx, table.plan, table.decks[-1]
    seat = plan.order[0]
    key, honest = table.keys[seat], table.shares[seat]
    mental.check_deal_shares(ctx, seat, key, plan, deck, honest)

    def check(s: DealShares, c: HandContext = ctx, who: int = seat) -> None:
        mental.check_deal_shares(c, who, table.keys[who], plan, deck, s)

    shares = list(honest.shares)
    shares[2] = shares[2] + G  # a wrong key-switch share for one card
    _rejects(ProofRejected, lambda: check(dataclasses.replace(honest, shares=tuple(shares))))
    shares = list(honest.shares)
    shares[0], shares[1] = shares[1], shares[0]
    _rejects(ProofRejected, lambda: check(dataclasses.replace(honest, shares=tuple(shares))))
    _rejects(MalformedStep, lambda: check(dataclasses.replace(honest, shares=honest.shares[:-1])))
    # the shares of someone else, and replays into another hand, game or seat
    _rejects(ProofRejected, lambda: check(table.shares[plan.order[1]]))
    _rejects(ProofRejected, lambda: check(honest, who=plan.order[1]))
    _rejects(ProofRejected, lambda: check(honest, c=HandContext(GAME, 9)))
    _rejects(ProofRejected, lambda: check(honest, c=HandContext(b"x", 1)))
    # a wrong share would have given the owner garbage: the check is what protects it
    victim = plan.owner(plan.shared_positions(seat)[2])
    bad = dict(table.shares)
    shares = list(honest.shares)
    shares[2] = shares[2] + G
    bad[seat] = dataclasses.replace(honest, shares=tuple(shares))
    cts = mental.owner_ciphertexts(plan, deck, bad, victim)
    with pytest.raises(MentalPokerError):
        PlayerHand.open(cts, table.secrets[victim])
    with pytest.raises(MentalPokerError):
        mental.owner_ciphertexts(plan, deck, {seat: honest}, victim)


def _give(table: Table, giver: int, receiver: int, trade: int, picks: list[int]) -> TradeGive:
    return mental.make_trade_give(
        table.ctx,
        giver,
        trade,
        table.secrets[giver],
        table.held[giver],
        picks,
        table.keys[receiver],
        make_rng(f"give/{giver}/{trade}"),
    )


def test_trade_cheats(table: Table) -> None:
    ctx = table.ctx
    a, b, t = 1, 2, 5
    honest = _give(table, a, b, t, [0, 3])

    def check(
        give: TradeGive,
        *,
        trade: int = t,
        seat: int = a,
        count: int = 2,
        hand: tuple[Ciphertext, ...] | None = None,
    ) -> tuple[Ciphertext, ...]:
        held = table.public[seat] if hand is None else hand
        return mental.check_trade_give(
            ctx, seat, trade, table.keys[seat], table.keys[b], held, count, give
        )

    received = check(honest)
    cards = PlayerHand.open(received, table.secrets[b]).cards
    assert cards == (table.held[a].cards[0], table.held[a].cards[3])
    rng = make_rng("trade-cheats")
    # a made-up card (the ace of spades) handed over in place of position 3
    made_up = elgamal.encrypt(51, table.keys[b], rng)
    _rejects(
        ProofRejected,
        lambda: check(dataclasses.replace(honest, ciphertexts=(honest.ciphertexts[0], made_up))),
    )
    # a card the giver does not hold: a ciphertext of another hand, re-encrypted with a proof
    other = table.public[0][0]
    r = random_scalar(rng)
    stolen = elgamal.reencrypt_to(other, table.secrets[a], table.keys[b], r)
    proof = proofs.prove_reencryption(
        table.secrets[a],
        r,
        table.keys[b],
        other,
        stolen,
        ctx.at(a, mental.trade_give_step(t)).encode(),
        rng,
    )
    err = _rejects(
        ProofRejected,
        lambda: check(
            dataclasses.replace(
                honest,
                ciphertexts=(honest.ciphertexts[0], stolen),
                proofs=(honest.proofs[0], proof),
            )
        ),
    )
    assert err.position == 3 and err.seat == a
    # ... and the same ciphertext the giver really holds, re-encrypted to someone else
    _rejects(
        ProofRejected,
        lambda: mental.check_trade_give(
            ctx, a, t, table.keys[a], table.keys[0], table.public[a], 2, honest
        ),
    )
    # positions: repeated, out of range, wrong count
    for positions in ((0, 0), (3, 0), (0, 99), (0,)):

        def with_positions(p: tuple[int, ...] = positions) -> object:
            return check(dataclasses.replace(honest, positions=p))

        _rejects(MalformedStep, with_positions)
    _rejects(MalformedStep, lambda: check(honest, count=3))
    # naming other positions than the ones given
    _rejects(ProofRejected, lambda: check(dataclasses.replace(honest, positions=(1, 3))))
    # replay into another trade, seat, hand, or the giver's hand after a shuffle
    _rejects(ProofRejected, lambda: check(honest, trade=t + 1))
    _rejects(
        ProofRejected,
        lambda: mental.check_trade_give(
            HandContext(GAME, 2), a, t, table.keys[a], table.keys[b], table.public[a], 2, honest
        ),
    )
    _rejects(MalformedStep, lambda: check(dataclasses.replace(honest, proofs=honest.proofs[:1])))


def test_hand_shuffle_and_layout_cheats(table: Table) -> None:
    ctx, seat = table.ctx, 2
    key, before, held = table.keys[seat], table.public[seat], table.held[seat]
    rng = make_rng("shuffle-cheats")
    step, after = mental.make_hand_shuffle(ctx, seat, 7, table.secrets[seat], held, rng)
    assert mental.check_hand_shuffle(ctx, seat, 7, key, before, step) == after.ciphertexts
    assert sorted(after.cards) == sorted(held.cards)
    swapped = list(step.ciphertexts)
    swapped[0], swapped[-1] = swapped[-1], swapped[0]
    made_up = list(step.ciphertexts)
    made_up[1] = elgamal.encrypt(0, key, rng)
    for bad in (
        dataclasses.replace(step, ciphertexts=tuple(swapped)),
        dataclasses.replace(step, ciphertexts=tuple(made_up)),
    ):
        _rejects(
            ProofRejected,
            functools.partial(mental.check_hand_shuffle, ctx, seat, 7, key, before, bad),
        )
    for c, s, t in ((ctx, seat, 8), (ctx, 1, 7), (HandContext(GAME, 5), seat, 7)):
        _rejects(
            ProofRejected,
            functools.partial(
                mental.check_hand_shuffle,
                c,
                s,
                t,
                table.keys[s],
                table.public[s] if s != seat else before,
                step,
            ),
        )
    # a hand shuffle is not a layout, and the other way round
    _rejects(ProofRejected, lambda: mental.check_layout(ctx, seat, key, before, step, LAYOUT))

    chosen = tuple(held.cards[:5])[::-1]
    lay, laid = mental.make_layout(ctx, seat, table.secrets[seat], held, chosen, rng)
    layout = mental.check_layout(ctx, seat, key, before, lay, LAYOUT)
    assert laid.cards[:5] == chosen
    # changing the layout order after the fact
    reordered = list(lay.ciphertexts)
    reordered[0], reordered[1] = reordered[1], reordered[0]
    _rejects(
        ProofRejected,
        lambda: mental.check_layout(
            ctx, seat, key, before, dataclasses.replace(lay, ciphertexts=tuple(reordered)), LAYOUT
        ),
    )
    _rejects(ProofRejected, lambda: mental.check_hand_shuffle(ctx, seat, 7, key, before, lay))
    with pytest.raises(MentalPokerError):
        mental.make_layout(ctx, seat, table.secrets[seat], held, (), rng)
    with pytest.raises(MentalPokerError):
        mental.make_layout(ctx, seat, table.secrets[seat], held, (chosen[0],) * 5, rng)
    with pytest.raises(MentalPokerError):
        foreign = next(c for c in table.held[0].cards if c not in held.cards)
        mental.make_layout(ctx, seat, table.secrets[seat], held, (*chosen[:4], foreign), rng)

    # reveals
    secret = table.secrets[seat]
    for r in range(5):
        reveal = mental.make_reveal(ctx, seat, secret, layout, r, rng)
        assert mental.check_reveal(ctx, seat, key, layout, r, reveal) == chosen[r]
    first = mental.make_reveal(ctx, seat, secret, layout, 0, rng)
    # revealing layout card 1 in round 0 (a different card, or a changed order)
    second = mental.make_reveal(ctx, seat, secret, layout, 1, rng)
    _rejects(ProofRejected, lambda: mental.check_reveal(ctx, seat, key, layout, 0, second))
    # the proof of card 0 shown for card 1
    _rejects(ProofRejected, lambda: mental.check_reveal(ctx, seat, key, layout, 1, first))
    # revealing a discard as layout card 0
    discard = layout.discards[0]
    share = discard.c1.mul_public(secret)
    dproof = proofs.prove_dleq(secret, discard.c1, ctx.at(seat, "reveal/0").encode(), rng)
    _rejects(
        ProofRejected, lambda: mental.check_reveal(ctx, seat, key, layout, 0, Reveal(share, dproof))
    )
    # a share for a different card, with the honest proof; a share made with a wrong secret
    target = card_point(0)
    lie = layout.cards[0].c2 - target
    _rejects(
        ProofRejected,
        lambda: mental.check_reveal(
            ctx, seat, key, layout, 0, dataclasses.replace(first, share=lie)
        ),
    )
    wrong = mental.make_reveal(ctx, seat, secret + 1, layout, 0, rng)
    _rejects(ProofRejected, lambda: mental.check_reveal(ctx, seat, key, layout, 0, wrong))
    # replay into another seat, hand or game
    for c, s in ((ctx, 1), (HandContext(GAME, 2), seat), (HandContext(b"g2", 1), seat)):
        _rejects(ProofRejected, functools.partial(mental.check_reveal, c, s, key, layout, 0, first))
    for beyond in (5, 7):  # past the five laid out, and past any hand
        _rejects(
            MentalPokerError,
            functools.partial(mental.check_reveal, ctx, seat, key, layout, beyond, first),
        )
    # bytes where the proof belongs: the wrong type is the tampering under test
    junk_proof = cast(proofs.DleqProof, b"junk")
    _rejects(
        MalformedStep,
        lambda: mental.check_reveal(
            ctx, seat, key, layout, 0, dataclasses.replace(first, proof=junk_proof)
        ),
    )


def test_errors_name_the_place() -> None:
    err = MentalPokerError("bad share", seat=3, step="deal-shares", position=17)
    assert str(err) == "seat 3, step deal-shares, position 17: bad share"
    assert isinstance(ProofRejected("x"), ValueError)


def test_bad_local_input_is_one_error_family(table: Table) -> None:
    ctx, seat, rng = table.ctx, 0, make_rng("local")
    held, secret = table.held[seat], table.secrets[seat]
    layout = Layout.split(held.ciphertexts, 5)
    for bad_secret in (0, -1, L, 1.5, True):
        with pytest.raises(MentalPokerError):
            mental.make_reveal(ctx, seat, bad_secret, layout, 0, rng)  # type: ignore[arg-type]
    with pytest.raises(MentalPokerError):  # the wrong secret opens no card
        PlayerHand.open(held.ciphertexts, table.secrets[1])
    with pytest.raises(MentalPokerError):
        mental.make_trade_give(ctx, seat, 0, secret, held, [0, 0], table.keys[1], rng)
    with pytest.raises(MentalPokerError):
        mental.make_trade_give(ctx, seat, 0, secret, held, [len(held.cards)], table.keys[1], rng)
    with pytest.raises(MentalPokerError):
        mental.joint_key([])
    with pytest.raises(MentalPokerError):
        mental.joint_key([table.keys[0], -table.keys[0]])
    with pytest.raises(MentalPokerError):
        HandContext(b"", 1)


# --- privacy: a spy with every published value and every secret but one ------------------


def _spy_finds(table: Table, known: list[int], targets: set[Point]) -> set[Point]:
    """Try every published ciphertext with every sum of known secrets and every subset of the
    published shares made for its c1; return the target card points that appear."""
    shares_for: dict[Point, list[Point]] = {}
    for c1, share in table.published_shares:
        shares_for.setdefault(c1, []).append(share)
    sums = {sum(sub) for n in range(len(known) + 1) for sub in itertools.combinations(known, n)}
    found: set[Point] = set()
    for ct in set(table.published):
        own = shares_for.get(ct.c1, [])
        for s in sums:
            base = ct.c2 - ct.c1.mul_public(s) if s else ct.c2
            for n in range(len(own) + 1):
                for subset in itertools.combinations(own, n):
                    point = base
                    for d in subset:
                        point = point - d
                    if point in targets:
                        found.add(point)
    return found


def test_spy_learns_nothing_of_the_victims_hidden_cards() -> None:
    seats = [0, 1, 2]
    victim = 1
    table = deal_table(seats, 7, "privacy", dealer=0)
    rng = make_rng("privacy/play")
    do_trade(table, 0, 1, 2, rng)
    do_trade(table, 1, 2, 1, rng)
    do_layouts(table, rng)
    do_reveals(table, rng, upto={victim: 2})  # the victim folds after round 2
    hidden = set(table.held[victim].cards) - table.received[victim] - set(table.revealed[victim])
    assert len(hidden) >= 3  # discards and unrevealed layout cards dealt to the victim
    targets = {CARD_POINTS[c.index] for c in hidden}
    spies = [table.secrets[s] for s in seats if s != victim]
    assert _spy_finds(table, spies, targets) == set()
    # the same search with the victim's secret finds every hidden card: it is a real search
    assert _spy_finds(table, [*spies, table.secrets[victim]], targets) == targets
