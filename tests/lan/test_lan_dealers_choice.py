"""Dealer's choice on a LAN of namespaces with real `willow` processes: `willow host --auto
--games seven-card-stud,five-card-stud,holdem,omaha,five-card-draw` on one laptop and a bot on
each of three others play a game of several hands, each hand's dealer calling one of the five
games. Each bot calls a game of its own choosing, at random, so a game of a few hands may
leave one out: every game it did not deal is then dealt in a one-hand game of two laptops
(`--games NAME`).
Every transcript is the same on every laptop, `willow verify` accepts it, no chip is lost,
and each hand's game is one the table named; between them the games deal all five."""

from __future__ import annotations

import time
from pathlib import Path

from lan import Lan, Laptop, Proc
from willow import DEEP, ENV, SAMPLES, WILLOW, bot, finished, same_valid_game

LIVE_DECK = ("seven-card-stud", "five-card-stud", "holdem", "omaha", "five-card-draw")
"""The games dealt from the live deck that a table of four deals."""
HANDS = 6
PLAYERS = 4
DEADLINE = 150.0
"""Seconds for the dealer's-choice game (its hands on a loaded machine); the test's own goal
is under a minute."""


def dealers_choice_host(
    laptop: Laptop, tmp: Path, who: str, *, games: str, hands: int, seats: int
) -> tuple[Proc, str]:
    """`willow host --auto --games GAMES` on `laptop`, its files under tmp/WHO; the process
    and its join code."""
    proc = laptop.run(
        [*WILLOW, "host", "--auto", "--games", games, "--hands", str(hands), "--seats",
         str(seats), "--clock", "30", "--stack", str(DEEP), "--name", "Ann", "--samples",
         SAMPLES, "--address", laptop.address, "--home", str(tmp / who), "--no-advertise",
         "--events", str(tmp / f"{who}-events.jsonl")],
        name=who, env=ENV,
    )  # fmt: skip
    line = proc.expect(r"^willow join [a-z2-7-]+$", 30)
    return proc, line.split()[-1]


def test_a_dealers_choice_game_deals_every_live_deck_game(lan: Lan, tmp_path: Path) -> None:
    started = time.monotonic()
    laptops = [lan.add_laptop() for _ in range(PLAYERS)]
    host_proc, code = dealers_choice_host(
        laptops[0], tmp_path, "host", games=",".join(LIVE_DECK), hands=HANDS, seats=PLAYERS
    )
    said = host_proc.expect(r"^dealer's choice: ", 10)
    assert said == (
        "dealer's choice: Seven-Card Stud, Five-Card Stud, Texas Hold'em, Omaha, Five-Card Draw"
    )
    bots = [bot(laptops[n], tmp_path, n, code) for n in range(1, PLAYERS)]
    paths = finished([host_proc, *bots], DEADLINE)
    report = same_valid_game(paths, HANDS, PLAYERS, DEEP)
    called = [hand["game"] for hand in report["hands"]]
    assert set(called) <= set(LIVE_DECK), called
    # every game the dealers left out is dealt too: one hand, two laptops, the game alone
    for n, game in enumerate(g for g in LIVE_DECK if g not in called):
        who = f"host-{game}"
        alone, its_code = dealers_choice_host(
            laptops[0], tmp_path, who, games=game, hands=1, seats=2
        )
        guest = bot(laptops[1], tmp_path, 10 + n, its_code)
        one = same_valid_game(finished([alone, guest], DEADLINE), 1, 2, DEEP)
        called += [hand["game"] for hand in one["hands"]]
    assert set(called) == set(LIVE_DECK), called
    print(f"games dealt: {called}; {time.monotonic() - started:.1f} s")


SPLIT = ("omaha-high-low", "seattle-six", "go-for-broke")
"""Split-pot games, two of them with a wash: the declaration and the wash over the wire."""


def test_split_pot_games_declare_and_wash_between_laptops(lan: Lan, tmp_path: Path) -> None:
    laptops = [lan.add_laptop() for _ in range(3)]
    host_proc, code = dealers_choice_host(
        laptops[0], tmp_path, "host", games=",".join(SPLIT), hands=3, seats=3
    )
    bots = [bot(laptops[n], tmp_path, n, code) for n in (1, 2)]
    paths = finished([host_proc, *bots], DEADLINE)
    report = same_valid_game(paths, 3, 3, DEEP)
    hands = report["hands"]
    assert {hand["game"] for hand in hands} <= set(SPLIT)
    # the chips and any pot carried over add up in every copy (same_valid_game compared them)
    assert all("carried" in hand for hand in hands)
    declared = [hand.get("declared") for hand in hands]
    print(f"games dealt: {[hand['game'] for hand in hands]}; declarations: {declared}")
