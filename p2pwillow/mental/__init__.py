"""Mental-poker operations of one hand: keys, deck shuffle, private deal, blind trades, layout and
reveals (SPEC 5), as pure functions over frozen values. No I/O; randomness comes in as `rng`.

Theory of operation. Every step has two faces: `make_*` for the acting player, given its secret
and an `rng`, returns the frozen value it publishes; `check_*`, for anyone, takes that value and
the public state before it, verifies every proof, and returns the public state after it or
raises `MentalPokerError` naming the seat, the step, the card position and the reason. The
public state of a hand is plain data: the joint deck (52 ciphertexts), then each seat's hand
(a tuple of ciphertexts under that seat's key alone). A player additionally keeps a
`PlayerHand`: its ciphertexts and the card behind each. Which step comes when, and who acts, is
the rules engine's business; this package only says what each step must prove.

Modules: `context` (proof contexts, step labels, errors), `deal` (hand keys, the deck and its
shuffle, the private deal), `hand` (a player's hand: shuffles, trades, layout, reveals),
`deck` (the live deck: deal steps, fold with release, discards, reshuffles, shows). Import
from `p2pwillow.mental`, which re-exports the public names.
"""

from p2pwillow.limits import DECK_SIZE
from p2pwillow.mental.context import (
    CONTEXT_TAG,
    STEP_DEAL_SHARES,
    STEP_DECK_SHUFFLE,
    STEP_HAND_KEY,
    STEP_LAYOUT,
    HandContext,
    MalformedStep,
    MentalPokerError,
    ProofContext,
    ProofRejected,
    hand_shuffle_step,
    reveal_step,
    trade_give_step,
)
from p2pwillow.mental.deal import (
    DealPlan,
    DealShares,
    DeckShuffle,
    HandKey,
    check_deal_shares,
    check_deck_shuffle,
    check_hand_key,
    deal_plan,
    joint_key,
    make_deal_shares,
    make_deck_shuffle,
    make_hand_key,
    owner_ciphertexts,
    shuffle_order,
    starting_deck,
)
from p2pwillow.mental.deck import (
    BOARD,
    BURN,
    DealRound,
    Dealt,
    Destination,
    LiveDeck,
    Release,
    Reshuffle,
    Show,
    To,
    down,
    live_deck,
    up,
)
from p2pwillow.mental.hand import (
    HandShuffle,
    Layout,
    PlayerHand,
    Reveal,
    TradeGive,
    apply_trade,
    check_hand_shuffle,
    check_layout,
    check_reveal,
    check_trade_give,
    make_hand_shuffle,
    make_layout,
    make_reveal,
    make_trade_give,
    trade_hand,
)

__all__ = [
    "BOARD",
    "BURN",
    "CONTEXT_TAG",
    "DECK_SIZE",
    "STEP_DEAL_SHARES",
    "STEP_DECK_SHUFFLE",
    "STEP_HAND_KEY",
    "STEP_LAYOUT",
    "DealPlan",
    "DealRound",
    "DealShares",
    "Dealt",
    "DeckShuffle",
    "Destination",
    "HandContext",
    "HandKey",
    "HandShuffle",
    "Layout",
    "LiveDeck",
    "MalformedStep",
    "MentalPokerError",
    "PlayerHand",
    "ProofContext",
    "ProofRejected",
    "Release",
    "Reshuffle",
    "Reveal",
    "Show",
    "To",
    "TradeGive",
    "apply_trade",
    "check_deal_shares",
    "check_deck_shuffle",
    "check_hand_key",
    "check_hand_shuffle",
    "check_layout",
    "check_reveal",
    "check_trade_give",
    "deal_plan",
    "down",
    "hand_shuffle_step",
    "joint_key",
    "live_deck",
    "make_deal_shares",
    "make_deck_shuffle",
    "make_hand_key",
    "make_hand_shuffle",
    "make_layout",
    "make_reveal",
    "make_trade_give",
    "owner_ciphertexts",
    "reveal_step",
    "shuffle_order",
    "starting_deck",
    "trade_give_step",
    "trade_hand",
    "up",
]
