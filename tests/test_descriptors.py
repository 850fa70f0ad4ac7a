"""The process's descriptors while a transport runs (SPEC 8.3): the soft limit is a wall
RESERVE below the hard one; an ordinary open stops at it, the node's own opens go on in the
reserve, one descriptor at a time, and the wall stands again after each. Run in a child
process with a small limit of its own (the test runner's limits are left alone)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

resource = pytest.importorskip("resource")

CHILD = textwrap.dedent(
    """
    import errno, os, resource
    from p2pwillow import descriptors
    from p2pwillow.descriptors import RESERVE

    HARD = 256
    resource.setrlimit(resource.RLIMIT_NOFILE, (HARD, HARD))
    descriptors.hold()
    wall = descriptors.wall()
    assert wall == HARD - RESERVE, wall
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (wall, HARD)
    held = []
    try:
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))
    except OSError as exc:
        assert exc.errno == errno.EMFILE, exc
    assert max(held) == wall - 1, (max(held), wall)
    mine = [descriptors.opening(lambda: os.open(os.devnull, os.O_RDONLY)) for _ in range(3)]
    assert mine == [wall, wall + 1, wall + 2], mine
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (wall, HARD)
    try:
        os.open(os.devnull, os.O_RDONLY)
        raise AssertionError("an ordinary open went past the wall")
    except OSError as exc:
        assert exc.errno == errno.EMFILE, exc
    for fd in held:
        os.close(fd)
    descriptors.release()
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (HARD, HARD)
    print("ok")
    """
)


def test_a_wall_below_the_limit_and_the_nodes_own_opens_in_the_reserve() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
