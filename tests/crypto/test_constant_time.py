"""Secret scalars never reach variable-time code (SPEC 4.1.4).

Every prover and every step that uses a secret (hand keys, deck and hand shuffles, deal shares,
trade re-encryptions, opening one's own cards, layouts, reveals, and each crypto prover) runs
here with libsecp256k1's variable-time multiplication patched to raise, and with the
public-scalar API (`Point.mul_public`) patched to raise too, so that not even a public factor
in a prover takes that path. The constant-time library functions are spied on, to show they
did the work. Verifiers run outside the patch, and a check shows the patch does bite them.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from p2pwillow import mental
from p2pwillow.crypto import elgamal, group, proofs
from p2pwillow.crypto import shuffle as shuffles
from p2pwillow.crypto.group import OPS, G, Point, Rng, card_point, random_scalar
from p2pwillow.games.roll_your_own import LAYOUT
from p2pwillow.mental import HandContext, PlayerHand


class VariableTimeReached(AssertionError):
    pass


def _rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


@pytest.fixture
def secret_only(monkeypatch: pytest.MonkeyPatch) -> Callable[[], Any]:
    """A context manager: inside it, variable-time multiplication raises; it counts the calls
    of the constant-time functions secp256k1_ecdh and secp256k1_ec_pubkey_create."""
    calls = {"ecdh": 0, "ecmult_gen": 0}
    real_ecdh, real_gen = group._ecdh, group._ecmult_gen

    def ecdh(*args: Any) -> Any:
        calls["ecdh"] += 1
        return real_ecdh(*args)

    def ecmult_gen(*args: Any) -> Any:
        calls["ecmult_gen"] += 1
        return real_gen(*args)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise VariableTimeReached("a secret path reached variable-time multiplication")

    @contextmanager
    def patched() -> Iterator[dict[str, int]]:
        with monkeypatch.context() as m:
            m.setattr(group, "_ecmult_var", refuse)
            m.setattr(Point, "mul_public", refuse)
            m.setattr(group, "_ecdh", ecdh)
            m.setattr(group, "_ecmult_gen", ecmult_gen)
            before = OPS.snapshot()
            start = dict(calls)
            yield calls
            mul, mul_ct, base_mul = (
                a - b for a, b in zip(OPS.snapshot()[:3], before[:3], strict=True)
            )
            assert mul == 0
            # every constant-time multiplication counted was a real library call
            assert calls["ecdh"] - start["ecdh"] == mul_ct
            assert calls["ecmult_gen"] - start["ecmult_gen"] == base_mul

    return patched


def test_the_patch_bites_a_verifier(secret_only: Callable[[], Any]) -> None:
    x = random_scalar(_rng("bite"))
    proof = proofs.prove_key(x, b"ctx")
    with secret_only(), pytest.raises(VariableTimeReached):
        proofs.verify_key(G.mul_secret(x), proof, b"ctx")
    proofs.verify_key(G.mul_secret(x), proof, b"ctx")  # and is gone afterwards


def test_crypto_provers_are_constant_time(secret_only: Callable[[], Any]) -> None:
    rng = _rng("provers")
    xa, xb = random_scalar(rng), random_scalar(rng)
    ya, yb = G.mul_secret(xa), G.mul_secret(xb)
    base = card_point(7)
    bases = [card_point(i) for i in range(9)]
    made: dict[str, Any] = {}
    with secret_only() as calls:
        ct = elgamal.encrypt(3, ya, rng)
        made["reencrypt"] = elgamal.reencrypt(ct, ya, random_scalar(rng))
        r = random_scalar(rng)
        made["after"] = after = elgamal.reencrypt_to(ct, xa, yb, r)
        made["share"] = elgamal.decryption_share(ct, xa)
        assert elgamal.decrypt(ct, xa) == 3
        made["key"] = proofs.prove_key(xa, b"k", rng)
        made["dleq"] = proofs.prove_dleq(xa, base, b"d", rng)
        made["batch"] = proofs.prove_dleq_batch(xa, bases, b"b", rng)
        made["re"] = proofs.prove_reencryption(xa, r, yb, ct, after, b"r", rng)
        deck = [elgamal.encrypt(i, ya, rng) for i in range(6)]
        outputs, witness = shuffles.shuffle(ya, deck, rng)
        made["shuffle"] = shuffles.prove_shuffle(ya, deck, outputs, witness, b"s", rng)
    assert calls["ecdh"] > 50 and calls["ecmult_gen"] > 40
    # what was made under the patch verifies (outside it)
    proofs.verify_key(ya, made["key"], b"k")
    proofs.verify_dleq(ya, base, base.mul_secret(xa), made["dleq"], b"d")
    shares = [b.mul_secret(xa) for b in bases]
    proofs.verify_dleq_batch(ya, bases, shares, made["batch"], b"b")
    proofs.verify_reencryption(ya, yb, ct, after, made["re"], b"r")
    shuffles.verify_shuffle(ya, deck, outputs, made["shuffle"], b"s")
    assert elgamal.decrypt(after, xb) == 3


def test_every_mental_poker_step_with_a_secret_is_constant_time(
    secret_only: Callable[[], Any],
) -> None:
    """A whole 3-player hand: each step that takes a secret runs under the patch."""
    rng = _rng("hand")
    ctx = HandContext(b"constant-time", 1)
    seats = (0, 1, 2)
    plan = mental.deal_plan(seats, 0, 5)
    secrets, keys = {}, {}
    for seat in seats:
        with secret_only():
            secrets[seat], made_key = mental.make_hand_key(ctx, seat, rng)
        mental.check_hand_key(ctx, seat, made_key)
        keys[seat] = made_key.public
    joint = mental.joint_key(keys.values())
    deck = mental.starting_deck(joint)
    for seat in mental.shuffle_order(seats, 0):
        with secret_only():
            step = mental.make_deck_shuffle(ctx, seat, joint, deck, rng)
        deck = mental.check_deck_shuffle(ctx, seat, joint, deck, step)
    shares = {}
    for seat in seats:
        with secret_only():
            shares[seat] = mental.make_deal_shares(ctx, seat, secrets[seat], plan, deck, rng)
        mental.check_deal_shares(ctx, seat, keys[seat], plan, deck, shares[seat])
    public = {s: mental.owner_ciphertexts(plan, deck, shares, s) for s in seats}
    held: dict[int, PlayerHand] = {}
    for seat in seats:
        with secret_only():
            held[seat] = PlayerHand.open(public[seat], secrets[seat])

    a, b, trade = 1, 2, 5
    gives = {}
    for giver, receiver in ((a, b), (b, a)):
        with secret_only():
            gives[giver] = mental.make_trade_give(
                ctx, giver, trade, secrets[giver], held[giver], (0, 3), keys[receiver], rng
            )
        mental.check_trade_give(
            ctx, giver, trade, keys[giver], keys[receiver], public[giver], 2, gives[giver]
        )
    for owner, other in ((a, b), (b, a)):
        before = mental.apply_trade(public[owner], gives[owner].positions, gives[other].ciphertexts)
        with secret_only():
            mine = mental.trade_hand(
                held[owner], secrets[owner], gives[owner].positions, gives[other].ciphertexts
            )
            shuffled, held[owner] = mental.make_hand_shuffle(
                ctx, owner, trade, secrets[owner], mine, rng
            )
        public[owner] = mental.check_hand_shuffle(ctx, owner, trade, keys[owner], before, shuffled)

    for seat in seats:
        chosen = held[seat].cards[:LAYOUT]
        with secret_only():
            laid, held[seat] = mental.make_layout(ctx, seat, secrets[seat], held[seat], chosen, rng)
        layout = mental.check_layout(ctx, seat, keys[seat], public[seat], laid, LAYOUT)
        for index in range(LAYOUT):
            with secret_only() as calls:
                reveal = mental.make_reveal(ctx, seat, secrets[seat], layout, index, rng)
            card = mental.check_reveal(ctx, seat, keys[seat], layout, index, reveal)
            assert card == held[seat].cards[index]
    assert calls["ecdh"] > 1000 and calls["ecmult_gen"] > 500


def test_an_interrupt_inside_the_constant_time_callback_is_raised_not_swallowed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A Ctrl-C can land while libsecp256k1 runs the Python callback of secp256k1_ecdh; the
    # exception cannot cross the C frames, so it must come out of mul_secret afterwards
    # rather than as a failed (or wrong) multiplication.
    point = card_point(7)
    good = point.mul_secret(12345)

    def interrupted(output: Any, x32: Any, y32: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(group, "_copy_xy", interrupted)
    with pytest.raises(KeyboardInterrupt):
        point.mul_secret(12345)
    monkeypatch.undo()
    assert point.mul_secret(12345) == good
