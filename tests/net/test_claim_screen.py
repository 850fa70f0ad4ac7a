"""A colluding pair's false claim reaches a person's live node, and the person's screen names
who signed it (issue 25, SPEC 7.9). Three nodes on loopback: the host's bot deals, a second
bot is its friend, the person plays through the real prompt_toolkit application. The person
decides; the dealer sits on the decision (its frames never leave the person's node) and, with
its friend's vote, times the person out at once: a real `timeout` entry, signed and sequenced
by the dealer's key, sent in an entries frame from the dealer's transport. The person's node
holds its own decision, refuses the claim and, with no quorum left without the pair, stops the
table; its screen says so, naming both signers.

(The node's notice of the refusal, "refused a false claim … signed by …", is followed at once
by the notice of the game's end, and a client shows its last notice only: the end's panel is
what names the signers where the table stops.)"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from live_helpers import Table, close_all, play_game, until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import SEATING, answer_keys, terminal
from witness import Witness

from p2pwillow.ledger import AuthoredEntry, Entry, Vote
from p2pwillow.ledger import kinds as k
from p2pwillow.net.node import Node
from p2pwillow.net.transport import Transport
from p2pwillow.net.wire import AuthoredFrame, EntriesFrame, decode_frame, encode_frame
from p2pwillow.store import NodeKeys


class SatOn:
    """The dealer sits on the person's decisions: once `armed`, every authored entry the
    person's transport sends is kept here, never sent (to the dealer or to any witness)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, transport: Transport) -> None:
        self.armed = False
        self.kept: list[AuthoredFrame] = []
        send = Transport.send

        def sat_on(sender: Transport, peer: bytes, data: bytes) -> bool:
            if sender is transport and self.armed:
                frame = decode_frame(data)
                if isinstance(frame, AuthoredFrame):
                    self.kept.append(frame)
                    return True
            return send(sender, peer, data)

        monkeypatch.setattr(Transport, "send", sat_on)


def false_timeout(dealer: Node, keys: dict[int, NodeKeys], friend: int, victim: int) -> Entry:
    """The pair's claim at the dealer's head: votes by the dealer and its friend that
    `victim` ran out of time, the `timeout` written and sequenced by the dealer at once."""
    ledger = dealer._play.session.ledger
    records = []
    for voter in (dealer.seat, friend):
        vote = Vote.create(
            keys[voter].identity,
            game=ledger.game or b"",
            hand=ledger.hand,
            head=ledger.head_hash,
            voter=voter,
            seats=(victim,),
        )
        records.append(k.VoteRecord(voter=voter, seats=vote.seats, sig=vote.sig.hex()))
    identity = keys[dealer.seat].identity
    return AuthoredEntry.create(
        identity,
        game=ledger.game or b"",
        hand=ledger.hand,
        author=dealer.seat,
        body=k.Timeout(seats=[victim], votes=records),
        counter=10**6,
        seen=ledger.head_hash,
    ).sequence(ledger.head_seq + 1, ledger.head_hash, identity)


def test_a_false_claim_is_refused_on_the_persons_screen_naming_its_signers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    async def main() -> None:
        # the action clock is long: nobody's clock runs out in this test, only the pair lies
        table = Table(tmp_path, players=3, hands=1, witness=witness)
        nodes = await play_game(table, person=1)
        try:
            await refused_on_screen(table, nodes, monkeypatch)
        finally:
            await close_all(nodes)

    asyncio.run(main())


async def refused_on_screen(
    table: Table, nodes: list[Node], monkeypatch: pytest.MonkeyPatch
) -> None:
    host, person, other = nodes
    keys = {node.seat: table.stores[n][1] for n, node in enumerate(nodes)}
    sat_on = SatOn(monkeypatch, person.transport)
    async with terminal(person, 30, 100) as t:
        await t.wait_for(SEATING)
        t.press("y")
        # the person's first decision of the hand, with the host's node dealing
        text = await t.settled(lambda s: answer_keys(s) is not None and "hand 1" in s)
        hand = host._play.session.hand
        assert hand is not None and hand.dealer == host.seat, "the host's bot deals"
        sat_on.armed = True
        keys_now = answer_keys(text)
        assert keys_now is not None
        t.press(*keys_now)
        await until(lambda: bool(sat_on.kept), "the person decided")
        mine = sat_on.kept[0].entry
        assert mine.author == person.seat
        # the dealer never sequences it; with its friend it times the person out at once
        forced = false_timeout(host, keys, other.seat, person.seat)
        data = encode_frame(EntriesFrame((forced,)))
        assert host.transport.send(keys[person.seat].curve_public, data)
        # the person's screen: the claim refused, both signers named, the table stopped; in
        # the panel of the game's end, which stays, and in the table's log
        who = f"{table.host_name}, bot 2"  # the dealer, then its friend (guest 2)
        # settled: the panel of the end can come before the worker has published the view
        # whose log tells the stop (the screen says "checking proofs" meanwhile)
        screen = await t.settled(lambda s: "Final stacks:" in s)
        flat = " ".join(screen.split())
        assert f"you refused a false claim signed by {who} that" in flat, screen
        assert f"The table stopped: {who} signed a false claim" in flat, screen
    ledger = person._play.session.ledger
    assert ledger.stopped
    stop = ledger.entries[-1]
    assert isinstance(stop.body, k.TableStop) and stop.body.claim == forced
