"""What a node's clock keeps when its chain is cut back (SPEC 6.8): what it saw itself and no
transcript says; the rewound head's stretch and votes stay as replayed."""

from __future__ import annotations

from p2pwillow.session.state import Clock


def test_a_cut_keeps_what_the_node_saw_and_nothing_of_the_old_head() -> None:
    old = Clock(head=b"old", periods=2, elapsed=40.0, now=123.0, moved=100.0)
    old.voted, old.voted_hand = {b"old": frozenset({2})}, 4
    old.slept, old.behind, old.unvouched = 4, True, b"crash"
    new = Clock(head=b"rewound", periods=0, elapsed=5.0, now=90.0)
    new.keep_local(old)
    assert (new.now, new.moved) == (123.0, 100.0)
    assert (new.voted, new.voted_hand) == ({b"old": frozenset({2})}, 4)
    assert (new.slept, new.behind, new.unvouched) == (4, True, b"crash")
    # the stretch is the rewound head's
    assert (new.head, new.periods, new.elapsed) == (b"rewound", 0, 5.0)
