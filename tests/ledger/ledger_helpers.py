"""Builders for ledger tests: fixed identities, one sample body per kind, a valid game."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from p2pwillow.games import plain
from p2pwillow.ledger import AuthoredEntry, Body, Entry, Identity, Ledger
from p2pwillow.ledger import kinds as k

GAME = bytes.fromhex("5eed0000000000000000000000000001")
OTHER_GAME = bytes.fromhex("5eed0000000000000000000000000002")
SEATS = 4


def seeded_rng(label: bytes) -> Callable[[int], bytes]:
    """A deterministic rng: SHA-512 in counter mode over a label."""
    counter = 0

    def rng(n: int) -> bytes:
        nonlocal counter
        out = b""
        while len(out) < n:
            counter += 1
            out += hashlib.sha512(label + counter.to_bytes(8, "big")).digest()
        return out[:n]

    return rng


IDS = [Identity.generate(seeded_rng(b"player %d" % i)) for i in range(SEATS + 2)]
"""IDS[0..3] sit at the table; IDS[4] and IDS[5] are strangers."""


def hexs(label: str, n_bytes: int) -> str:
    """Deterministic filler hex of n_bytes (the ledger does not interpret crypto values)."""
    return seeded_rng(label.encode())(n_bytes).hex()


def genesis_body(game_players: int = SEATS) -> k.Genesis:
    return k.Genesis(
        name="Monday Night Poker Club",
        config={"starting_stack": 1000, "trade_tokens": 6, "token_value": 5, "betting": "spread"},
        players=[
            k.SeatedPlayer(seat=i, name=f"Player {i}", identity_key=IDS[i].public_key.hex())
            for i in range(game_players)
        ],
    )


class Table:
    """Builds a valid chain entry by entry, as the sequencers would."""

    def __init__(self, game: bytes = GAME) -> None:
        self.game = game
        self.ledger = Ledger()
        self.counters: dict[bytes, int] = {}

    def authored(
        self,
        author: int,
        body: Body,
        *,
        hand: int | None = None,
        key: Identity | None = None,
        counter: int | None = None,
        seen: bytes | None = None,
    ) -> AuthoredEntry:
        """Signed by `key` (the seat's identity by default) with its next counter, having seen
        the head."""
        number = self.ledger.hand if hand is None else hand
        signer = key or IDS[author]
        if counter is None:
            counter = self.counters.get(signer.public_key, -1) + 1
            self.counters[signer.public_key] = counter
        return AuthoredEntry.create(
            signer,
            game=self.game,
            hand=number,
            author=author,
            body=body,
            counter=counter,
            seen=self.ledger.head_hash if seen is None else seen,
        )

    def make(
        self,
        author: int,
        body: Body,
        *,
        hand: int | None = None,
        key: Identity | None = None,
        sequencer: int | None = None,
        seq: int | None = None,
        prev: bytes | None = None,
        counter: int | None = None,
        seen: bytes | None = None,
    ) -> Entry:
        """The entry `author` would write next, sequenced by the expected sequencer."""
        if seen is None and prev is not None:
            seen = prev
        authored = self.authored(author, body, hand=hand, key=key, counter=counter, seen=seen)
        if sequencer is None:
            draft = authored.sequence(0, bytes(32), IDS[author])
            sequencer = self.ledger.expected_sequencer(draft)
        return authored.sequence(
            self.ledger.head_seq + 1 if seq is None else seq,
            self.ledger.head_hash if prev is None else prev,
            IDS[sequencer],
        )

    def add(self, author: int, body: Body, **kwargs: object) -> Entry:
        entry = self.make(author, body, **kwargs)  # type: ignore[arg-type]
        self.ledger.append(entry)
        return entry

    def seat_everyone(self, players: int = SEATS) -> None:
        self.add(0, genesis_body(players), hand=0)
        genesis = self.ledger.hash_of(0).hex()
        for seat in range(players):
            self.add(seat, k.SeatAcceptance(genesis=genesis))


VOTES = [
    k.VoteRecord(voter=v, seats=[s for s in (1, 2) if s != v], sig=hexs(f"vote{v}", 64))
    for v in range(SEATS)
]
"""Vote records (their signatures are filler: the ledger does not check votes, the session
does, SPEC 7.5)."""


def sample_bodies() -> dict[str, Body]:
    """One valid body of every kind."""
    other = Table()
    other.seat_everyone()
    fork = [
        other.make(2, body, sequencer=0)
        for body in (plain("bet", amount=25), plain("bet", amount=50))
    ]
    claim = other.make(0, k.Timeout(seats=[2], votes=[VOTES[0], VOTES[3]]), sequencer=0)
    bodies: list[Body] = [
        genesis_body(),
        k.SeatAcceptance(genesis=hexs("genesis", 32)),
        k.Join(
            name="Late Larry",
            identity_key=IDS[4].public_key.hex(),
            genesis=hexs("g", 32),
            buy_in=1000,
        ),
        k.Admit(seat=4, join=hexs("join", 32)),
        k.Refuse(seat=4, join=hexs("join", 32), reason="the safety codes did not match"),
        k.SitIn(),
        k.Leave(),
        k.HandStart(dealer=1, players=[k.SeatStack(seat=s, stack=1000) for s in range(SEATS)]),
        k.HandEnd(players=[k.SeatStack(seat=s, stack=1000 + 10 * s) for s in range(SEATS)]),
        k.GameEnd(players=[k.SeatStack(seat=s, stack=990 + 5 * s) for s in range(SEATS)]),
        k.HeadSignature(head=hexs("head", 32)),
        k.Abort(blamed=[2], reason="seat 2 stalled the deck shuffle", votes=[VOTES[0], VOTES[3]]),
        k.Equivocation(sequencer=0, first=fork[0], second=fork[1]),
        k.Timeout(seats=[2], votes=[VOTES[0], VOTES[3]]),
        k.SequencerChange(replaced=[1, 2], votes=VOTES),
        k.FalseClaim(claim=claim),
        k.TableStop(claim=claim),
        k.HandKey(key=hexs("Y", 33), proof=hexs("schnorr", 64)),
        k.DeckShuffle(deck=[hexs(f"c{i}", 66) for i in range(52)], proof=hexs("tw", 2000)),
        k.DealShares(
            shares=[k.DealShare(position=p, share=hexs(f"d{p}", 33)) for p in (0, 1, 5, 6)],
            proof=hexs("dleq", 64),
        ),
        k.HandShuffle(
            purpose="layout", trade=0, cards=[hexs(f"h{i}", 66) for i in range(7)], proof="ab"
        ),
        k.TradeGive(
            trade=17,
            to=3,
            cards=[
                k.TradedCard(position=p, card=hexs(f"t{p}", 66), proof=hexs(f"re{p}", 128))
                for p in (1, 4)
            ],
        ),
        k.Reveal(card=0, share=hexs("r", 33), proof=hexs("dleq", 64)),
        k.StreetShares(
            step=1,
            shares=[k.DealShare(position=p, share=hexs(f"s{p}", 33)) for p in (12, 13, 15)],
            proof=hexs("dleq-batch", 64),
        ),
        k.Show(
            cards=[k.ShownCard(position=p, share=hexs(f"v{p}", 33)) for p in (0, 2)],
            proof=hexs("dleq-batch", 64),
        ),
        k.Draw(
            cards=[
                k.TradedCard(position=p, card=hexs(f"d{p}", 66), proof=hexs(f"re{p}", 96))
                for p in (1, 4)
            ]
        ),
        k.FoldRelease(shares=[hexs(f"r{p}", 33) for p in range(30)], proof=hexs("dleq-batch", 64)),
        k.Wash(cards=[], up=[2]),
        k.Cloak(up=[1]),
        k.Flip(down=k.ShownCard(position=0, share=hexs("flip", 33)), up=1, proof=hexs("dleq", 64)),
        k.Declare(commitment=hexs("commitment", 32)),
        k.DeclareOpen(choice="pig", nonce=hexs("nonce", 32)),
        k.PotMatch(answer="match", amount=45),
        k.Announce(deal_size=6, trading_mode="in-turn", closing="orbits", orbits=2),
        k.TimeBank(seconds=30),
        k.Pause(seconds=300),
        k.Resume(),
        k.RulingExtend(seat=2, seconds=30),
        k.RulingSitIn(seat=3),
        k.RulingEnd(),
        k.AnnounceGame(
            game="weeping-willow",
            description=hexs("spec", 32),
            options={
                "deal_size": 6,
                "trading_mode": "free",
                "closing": "dealer-calls",
                "orbits": 0,
            },
        ),
        plain("offer", k=2),
        plain("accept", offer=15),
        plain("decline", offer=15),
        plain("withdraw", offer=15),
        plain("choose_partner", partner=3),
        plain("pass"),
        plain("close_trading"),
        plain("check"),
        plain("wash_call"),
        plain("keep_call"),
        plain("pass_card"),
        plain("keep_card"),
        plain("bet", amount=25),
        plain("call"),
        plain("raise", to=75),
        plain("all_in"),
        plain("fold"),
    ]
    return {body.KIND: body for body in bodies}


def sample_entries() -> dict[str, Entry]:
    """A sequenced, signed entry of every kind (not a valid chain: seq and prev are made up)."""
    out = {}
    for i, (kind, body) in enumerate(sorted(sample_bodies().items())):
        prev = hashlib.sha256(kind.encode()).digest()
        authored = AuthoredEntry.create(
            IDS[1], game=GAME, hand=3, author=1, body=body, counter=7 + i, seen=prev
        )
        out[kind] = authored.sequence(100 + i, prev, IDS[2])
    return out


def play_hand(table: Table, hand_dealer: int = 1) -> None:
    """A short but complete hand: keys, shuffle, trading, betting, end, head signatures."""
    seats = range(SEATS)
    table.add(
        hand_dealer,
        k.HandStart(dealer=hand_dealer, players=[k.SeatStack(seat=s, stack=1000) for s in seats]),
        hand=table.ledger.hand + 1,
    )
    for s in seats:
        table.add(s, k.HandKey(key=hexs(f"Y{s}", 33), proof=hexs(f"pk{s}", 64)))
    for s in seats:
        table.add(s, k.DeckShuffle(deck=[hexs(f"c{s}.{i}", 66) for i in range(52)], proof="00"))
    table.add(
        hand_dealer,
        k.Announce(deal_size=5, trading_mode="free", closing="dealer-calls", orbits=0),
    )
    offer = table.add(2, plain("offer", k=1))
    accept = table.add(3, plain("accept", offer=offer.seq))
    for s, to in ((2, 3), (3, 2)):
        table.add(
            s,
            k.TradeGive(
                trade=accept.seq,
                to=to,
                cards=[k.TradedCard(position=0, card=hexs("x", 66), proof="11")],
            ),
        )
    for s in (2, 3):
        cards = [hexs(f"hs{s}.{i}", 66) for i in range(5)]
        table.add(s, k.HandShuffle(purpose="trade", trade=accept.seq, cards=cards, proof="22"))
    table.add(hand_dealer, plain("close_trading"))
    table.add(0, plain("bet", amount=25))
    table.add(1, plain("fold"))
    table.add(2, plain("call"))
    table.add(3, plain("fold"))
    end = table.add(
        hand_dealer,
        k.HandEnd(players=[k.SeatStack(seat=s, stack=1000) for s in seats]),
    )
    for s in seats:
        table.add(s, k.HeadSignature(head=end.hash.hex()))


def valid_game() -> Table:
    table = Table()
    table.seat_everyone()
    play_hand(table, 1)
    play_hand(table, 2)
    return table
