"""A table started with a seat free stays on the LAN's DNS-SD (SPEC 8.7, 8.9): `willow host
--seats 3 --start-with 2` on one laptop, a bot with the join code on another; once the game
runs, a bot on a third laptop that is given no code finds the table by itself, takes the free
seat between hands and plays. Every transcript is the same game and verifies.

The two first are started held (tests/net/held_willow.py): hand 1 waits, its cards dealt,
until the third has found the table, been seated and caught up, and they deal hand 2 only a
while after hand 1 ends, so the third joins after hand 1 however long all that takes on a
loaded machine."""

from __future__ import annotations

from pathlib import Path

from lan import Lan
from willow import DEEP, bot, finished, host, kinds, same_valid_game

HANDS = 4
DEADLINE = 150.0


def test_a_table_started_early_is_found_on_the_lan_and_joined(lan: Lan, tmp_path: Path) -> None:
    first, second, third = (lan.add_laptop() for _ in range(3))
    gate = tmp_path / "hold"
    gate.touch()
    try:
        host_proc, code = host(first, tmp_path, hands=HANDS, seats=3, start_with=2, gate=gate)
        bots = [bot(second, tmp_path, 1, code, gate=gate)]
        host_proc.expect(r"^hand 1: ", DEADLINE)
        bots.append(bot(third, tmp_path, 2, None))  # no code: it browses the LAN
        bots[1].expect(r"takes seat 2 of a game under way", DEADLINE)
        bots[1].expect(r"^hand 1: .* deals$", DEADLINE)  # caught up with the hand that waits
    finally:
        gate.unlink(missing_ok=True)
    paths = finished([host_proc, *bots], DEADLINE)
    same_valid_game(paths, HANDS, 3, DEEP)
    joins = [(hand, body) for hand, kind, body in kinds(paths[0]) if kind == "join"]
    assert len(joins) == 1 and joins[0][1]["buy_in"] == DEEP
    starts = [body for _, kind, body in kinds(paths[0]) if kind == "hand_start"]
    assert 2 in {p["seat"] for p in starts[-1]["players"]}, "the newcomer plays the last hand"
    assert "joined the table in seat 2" in host_proc.output()
