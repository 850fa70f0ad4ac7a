"""The packed record of one identity's signatures by counter (SPEC 6.4, 8.4)."""

from __future__ import annotations

import random
import sys

import pytest

from p2pwillow.ledger.signatures import MAX_GAP, SIGNATURE_BYTES, Signatures


def sig(n: int) -> bytes:
    return n.to_bytes(4, "big") * (SIGNATURE_BYTES // 4)


def test_it_answers_as_a_dict_of_the_same_counters_would() -> None:
    """Random sets, overwrites and deletes, dense and far apart: every answer is a dict's."""
    rng = random.Random(7)
    for _ in range(200):
        packed, plain = Signatures(), dict[int, bytes]()
        start = rng.randrange(0, 1000)
        for _ in range(rng.randrange(1, 60)):
            roll = rng.random()
            if roll < 0.7:
                c = start + rng.randrange(0, 20)
            elif roll < 0.9:
                c = start + rng.randrange(-5, 3 * MAX_GAP)
            else:
                c = rng.randrange(0, 5000)
            if c < 0:
                continue
            if plain and rng.random() < 0.15:
                gone = rng.choice(sorted(plain))
                del packed[gone], plain[gone]
                continue
            packed[c] = plain[c] = sig(rng.randrange(1, 1 << 30))
        assert dict(packed) == plain
        assert sorted(packed) == sorted(plain) and len(packed) == len(plain)
        assert packed.last == max(plain, default=-1)
        for c in range(-2, 5100, 7):
            assert (c in packed) == (c in plain)
            assert packed.get(c) == plain.get(c)
        assert packed == plain


def test_a_counter_missing_in_the_run_is_not_held() -> None:
    packed = Signatures({5: sig(1), 8: sig(2)})
    assert 6 not in packed and packed.get(7) is None and list(packed) == [5, 8]
    with pytest.raises(KeyError):
        packed[6]
    with pytest.raises(KeyError):
        del packed[7]
    assert Signatures().last == -1


def test_what_it_refuses() -> None:
    packed = Signatures()
    with pytest.raises(ValueError):
        packed[1] = bytes(SIGNATURE_BYTES)  # all zero: the mark of an empty slot
    with pytest.raises(ValueError):
        packed[1] = b"short"
    with pytest.raises(ValueError):
        packed[-1] = sig(1)
    assert len(packed) == 0


def test_it_takes_far_less_memory_than_a_dict() -> None:
    """The point of it: a long game's counters cost 64 bytes each (and the bytearray's
    spare room), not a dict's ~160."""
    n = 20_000
    packed = Signatures((c, sig(c + 1)) for c in range(n))
    plain = {c: sig(c + 1) for c in range(n)}
    packed_size = sys.getsizeof(packed._data)
    plain_size = sys.getsizeof(plain) + sum(
        sys.getsizeof(c) + sys.getsizeof(s) for c, s in plain.items()
    )
    assert packed_size < 80 * n < plain_size
