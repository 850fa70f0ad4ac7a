"""The split world of issue 31, played with the stock `willow` programs on the LAN of
namespaces, the victim's screens read from a real terminal (tmux) whose server runs inside the
victim's laptop.

Bots play every seat but Bob's. Ann hosts her table on one laptop, a bot of hers seated, a
game under way. On the attacker's
laptop, Mallory opens a table of the same name under the same host name (a bot of hers
seated, a game under way there too), and her relay joins Ann's real table under the victim's
name (a bot seat: the stock programs name a headless seat "Bob (normal)"). Bob, on a third
laptop, runs `willow join` without a code: his screen lists both tables, each with its host's
fingerprint, and warns in words that two tables share the name. He picks Mallory's. He is
asked, on a screen of its own, to compare the new safety code aloud with everyone at the
table, the whole code, before any card is dealt to him; the names there carry fingerprints,
and the code is not the one Ann's table reached with the relay. He answers no: the screen
says he left because the codes did not match, and his transcript holds no hand dealt to him."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path

from lan import Lan, Laptop, Proc
from tmux_pane import Pane, pane_env, tmux_or_skip, willow_command
from willow import ENV, SAMPLES, WILLOW, bot, host, kinds
from witness import Witness

DEADLINE = 60.0
POLL = 0.1
HOSTING = r"^you host as Ann \(normal\) (#[A-Z2-7]{4})"
LISTED = re.compile(r"^  (\d)\. \"Ann's table\" hosted by Ann \(normal\) (#[A-Z2-7]{4}) at ", re.M)
ASKED = re.compile(r"You join \"Ann's table\" in seat (\d+)")
NEW_CODE = r"compare the new safety code ([A-Z2-7]{5}(?:-[A-Z2-7]{5}){3}) aloud"
CODE = re.compile(r"^\s*([A-Z2-7]{5}(?:-[A-Z2-7]{5}){3})\s*$", re.M)
CARD = re.compile(r"[♠♥♦♣▮]")
LEFT = "You left the table: the safety codes did not match."
PASS = "Does everyone see the same code?"
SAID_NO = "did not take the seat: the safety codes did not match"
MY_SEAT = re.compile(r"Bob #[A-Z2-7]{4} \(you\)")


def my_cards(screen: str) -> list[str]:
    """What the screen draws of Bob's own cards: the hand panel, and the two rows under his
    name in his seat's box (his stack, then his cards or why he holds none)."""
    lines = screen.splitlines()
    drawn = [line for line in lines if "Your cards " in line]
    for n, line in enumerate(lines):
        if MY_SEAT.search(line) and "At the table: " not in line:
            drawn += [row for row in lines[n + 1 : n + 3] if CARD.search(row)]
    return drawn


class LaptopPane(Pane):
    """A tmux session whose server, and so the command it runs, is started inside a laptop's
    namespace; its screen is read and keys are sent through its socket from outside."""

    def __init__(
        self, laptop: Laptop, tmux: str, socket: Path, name: str, witness: Witness
    ) -> None:
        super().__init__(tmux, socket, name, witness)
        self.laptop = laptop

    def start(self, command: str, env: dict[str, str], size: tuple[int, int] = (100, 30)) -> None:
        sets = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
        self.laptop.sh(
            self.tmux, "-u", "-S", str(self.socket), "new-session", "-d", "-s", self.name,
            "-x", str(size[0]), "-y", str(size[1]), *sets, command,
        )  # fmt: skip


def open_table(laptop: Laptop, tmp: Path) -> tuple[Proc, str, str]:
    """`willow host --auto --name Ann` on `laptop` (three seats, starting with two): the host
    process, its join code and its fingerprint."""
    tmp.mkdir()
    proc, code = host(laptop, tmp, hands=0, seats=3, start_with=2)
    found = re.match(HOSTING, proc.expect(HOSTING, DEADLINE))
    assert found is not None
    return proc, code, found.group(1)


def screens_until(pane: Pane, test: re.Pattern[str]) -> list[str]:
    """Every screen the pane shows, each once, until one `test` finds something in (the
    last of them); an AssertionError with the last screen if none does before the deadline."""
    seen: list[str] = []
    end = time.monotonic() + DEADLINE
    while True:
        text = pane.text()
        if not seen or text != seen[-1]:
            seen.append(text)
        if test.search(text):
            return seen
        if time.monotonic() > end:
            raise AssertionError(f"the screen never showed {test.pattern!r}; it shows:\n{text}")
        time.sleep(POLL)


def test_the_victim_of_a_relay_compares_before_any_card_and_refuses(
    lan: Lan, tmp_path: Path, witness: Witness
) -> None:
    tmux = tmux_or_skip()
    ann, mallory, bob = (lan.add_laptop() for _ in range(3))
    real, real_code, real_host = open_table(ann, tmp_path / "real")
    copy, copy_code, copy_host = open_table(mallory, tmp_path / "copy")
    assert real_host != copy_host, "two keys, two fingerprints"
    # a bot of the same laptop sits at each: both games start (the copy, too, is under way)
    bot(ann, tmp_path / "real", 1, real_code)
    bot(mallory, tmp_path / "copy", 1, copy_code)
    for table in (real, copy):
        table.expect(r"^hand 1: ", DEADLINE)

    pane = LaptopPane(bob, tmux, tmp_path / "tmux.sock", "bob", witness)
    join = shlex.join(willow_command("join", "--name", "Bob"))
    pane.start(f"{join}; echo willow-exited $?; sleep 600", pane_env(tmp_path / "bob"))
    try:
        listing = pane.wait_for(lambda s: "join which table (1-2" in s, "the tables found")
        rows = {fingerprint: number for number, fingerprint in LISTED.findall(listing)}
        assert set(rows) == {real_host, copy_host}, "both tables listed, each host's fingerprint"
        warning = listing.split("warning: ", 1)[1]
        assert warning.startswith('2 tables are called "Ann\'s table"'), warning
        assert "a name proves nothing" in warning
        assert "ask your host which fingerprint is theirs, or for the join code" in warning
        assert "the join code the host prints (willow join CODE) is the safe way to join" in warning

        # Mallory's relay takes a seat at Ann's real table under Bob's name
        relay = mallory.run(
            [*WILLOW, "bot", "--join", real_code, "--name", "Bob", "--samples", SAMPLES,
             "--home", str(tmp_path / "relay")],
            name="relay", env=ENV,
        )  # fmt: skip
        pane.press(rows[copy_host], "Enter")  # Bob picks the copy
        screens = screens_until(pane, ASKED)
        asked = screens[-1]
        before = [s for s in screens[:-1] if "Willow " in s.splitlines()[0]]
        assert before and all("watching" in s.splitlines()[0] for s in before), before[-1:]
        assert any(f"Ann (normal) {copy_host}" in s for s in before), "the host's fingerprint"
        assert not [my_cards(s) for s in screens if my_cards(s)], "no card of Bob's is drawn"
        # a screen of its own: the whole code, with everyone, aloud
        assert "a newcomer: compare the new code" in asked.splitlines()[0]
        assert "Compare it aloud with everyone at the table: each of you reads" in asked
        assert "the whole code from their own screen, all four groups." in asked
        assert PASS in asked
        assert "[y] yes, the same: take my seat" in asked and "[n] no, leave the table" in asked
        assert not CARD.search(asked), "no card on the screen that asks"
        shown = CODE.search(asked)
        assert shown is not None, asked
        code = shown.group(1)
        groups = "   ".join(" ".join(g) for g in code.split("-"))
        assert groups in asked, "the code large, in its box"
        at_table = re.search(r"At the table: (.+)$", asked, re.M)
        assert at_table is not None
        names = at_table.group(1).strip().split(" · ")
        assert names[0] == f"Ann (normal) {copy_host}", "the host's fingerprint: the copy's"
        assert real_host not in asked
        me = re.fullmatch(r"Bob (#[A-Z2-7]{4}) \(you\)", names[-1])
        assert me is not None, names
        assert all(re.fullmatch(r".+ #[A-Z2-7]{4}( \(you\))?", n) for n in names), names

        # the copy asks for the code Bob sees; Ann's table, with the relay, is on another one
        seat = ASKED.search(asked)
        assert seat is not None
        took = f"Bob {me.group(1)} takes seat {seat.group(1)}: {NEW_CODE}"
        at_copy = re.search(NEW_CODE, copy.expect(took, DEADLINE))
        assert at_copy is not None and at_copy.group(1) == code
        relayed = re.search(NEW_CODE, relay.expect(r"^you take seat \d+: " + NEW_CODE, DEADLINE))
        assert relayed is not None and relayed.group(1) != code
        impostor = real.expect(r"^Bob \(normal\) #[A-Z2-7]{4} takes seat \d+: compare", DEADLINE)
        assert me.group(1) not in impostor, "the relay's fingerprint is not Bob's"

        pane.press("n")  # the codes differ: Bob refuses
        # (the log's line of his no may be gone already: a hand of the others has begun)
        refused = pane.wait_for(lambda s: LEFT in s, "why Bob is not dealt in")
        assert PASS not in refused and not my_cards(refused)
        copy.expect(f"^Bob {me.group(1)} {SAID_NO}; it plays no hand", DEADLINE)
        copy.expect(r"^hand \d+: \S.* deals$", DEADLINE)  # the copy goes on without him
        after = pane.text()
        assert LEFT in after and "the table changed" not in after, "no code of a table he left"
        pane.press("q")
        printed = pane.wait_for(lambda s: "willow-exited" in s, "the command's end")
    finally:
        pane.kill()
    assert "willow-exited 0" in printed and "Traceback" not in printed, printed
    assert "the safety codes did not match" in printed
    path = re.search(r"^transcript: (.+)$", printed, re.M)
    assert path is not None, printed
    chain = kinds(Path(path.group(1)))
    mine = int(seat.group(1))
    refusals = [body for _, kind, body in chain if kind == "refuse"]
    assert [r["seat"] for r in refusals] == [mine], refusals
    assert [r["reason"] for r in refusals] == ["the safety codes did not match"]
    dealt = [body for _, kind, body in chain if kind == "hand_start"]
    assert dealt, "Bob watched the hands of the game under way"
    assert not any(mine in {p["seat"] for p in body["players"]} for body in dealt), (
        "no hand dealt Bob a card"
    )
