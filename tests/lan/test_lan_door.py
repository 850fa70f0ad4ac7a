"""A table started with a seat free stays on the LAN's DNS-SD (SPEC 8.7, 8.9): `willow host
--seats 3 --start-with 2` on one laptop, a bot with the join code on another; once the game
runs, a bot on a third laptop that is given no code finds the table by itself, takes the free
seat between hands and plays. Every transcript is the same game and verifies."""

from __future__ import annotations

from pathlib import Path

from lan import Lan
from willow import bot, finished, host, kinds, same_valid_game

HANDS = 10
DEADLINE = 150.0


def test_a_table_started_early_is_found_on_the_lan_and_joined(lan: Lan, tmp_path: Path) -> None:
    first, second, third = (lan.add_laptop() for _ in range(3))
    host_proc, code = host(first, tmp_path, hands=HANDS, seats=3, start_with=2)
    bots = [bot(second, tmp_path, 1, code)]
    host_proc.expect(r"^hand 1: ", DEADLINE)
    bots.append(bot(third, tmp_path, 2, None))  # no code: it browses the LAN
    bots[1].expect(r"takes seat 2 of a game under way", DEADLINE)
    paths = finished([host_proc, *bots], DEADLINE)
    same_valid_game(paths, HANDS, 3, 1000)
    joins = [(seq, body) for seq, kind, body in kinds(paths[0]) if kind == "join"]
    assert len(joins) == 1 and joins[0][1]["buy_in"] == 1000
    assert "joined the table in seat 2" in host_proc.output()
