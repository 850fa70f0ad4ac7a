"""A person hosting starts the game with the players seated so far: `willow host` of four
seats in a real terminal (tmux), two `willow bot --join CODE` as separate processes; the lobby
offers Enter once they are seated, Enter starts the game with the three, the table screen opens
on them and the first hand is dealt, and the fourth seat stays free (SPEC 8.9)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tmux_pane import (
    Pane,
    host_with_bots,
    leave_screen,
    pane_env,
    stop_bots,
    tmux_or_skip,
    willow_command,
)
from tui_screen import SEATING
from witness import Witness

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry

OFFER = "press Enter to start with the 3 players seated"


def test_enter_starts_the_game_with_the_players_seated(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    pane = Pane(tmux, tmp_path / "tmux.sock", "host", witness)
    home = tmp_path / "ann"
    env = pane_env(home)
    host = willow_command("host", "--name", "Ann", "--seats", "4", "--hands", "2", "--no-advertise")
    host += ["--game", "weeping-willow", "--address", "127.0.0.1"]
    bots: list[subprocess.Popen[str]] = []
    logs = [tmp_path / f"bot{n}.log" for n in (1, 2)]
    try:
        joining = [(f"Bot{n}", tmp_path / f"b{n}", log) for n, log in enumerate(logs, start=1)]
        host_with_bots(pane, env, host, joining, bots, witness)
        text = pane.wait_for(lambda s: OFFER in s, "the offer to start")
        assert re.search(r"Bot[12] \(easy\) sat down in seat 2: 3 of 4 seats taken", text), text
        pane.press("Enter")
        text = pane.wait_for(lambda s: SEATING in s, "the safety code")
        seats = re.search(r"At the table: (.+)", text)
        assert seats is not None, text
        players = [re.sub(r" #[A-Z2-7]{4}", "", p) for p in seats.group(1).strip().split(" · ")]
        assert players[0] == "Ann (you)", players
        assert sorted(players[1:]) == ["Bot1 (easy)", "Bot2 (easy)"], "the fourth seat free"
        code = re.search(r"[A-Z2-7]{5}(?:-[A-Z2-7]{5}){3}", text)
        assert code is not None, text
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
        printed = leave_screen(pane)
    finally:
        pane.kill()
        stop_bots(bots)
    assert "Traceback" not in printed
    assert OFFER in printed
    assert "starting with 3 of 4 seats taken; the others join between hands" in printed
    [game_dir] = (home / "data" / "games").iterdir()
    genesis = decode_entry((game_dir / "transcript.jsonl").read_bytes().splitlines()[0]).body
    assert isinstance(genesis, k.Genesis)
    assert sorted(genesis.identity_keys()) == [0, 1, 2]
    assert genesis.config["seats"] == 4
    for log in logs:
        said = log.read_text(encoding="utf-8")
        assert "Traceback" not in said
        assert f'at "Ann\'s table"; safety code {code.group(0)}' in said, said
