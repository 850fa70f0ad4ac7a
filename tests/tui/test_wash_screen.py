"""The wash of the house's stud games (SPEC 3.17) on the table screen, read back from a pyte
terminal while a person plays along at an in-process table of three bots: the panel says the
prices, numbers all the person's cards face down first and then face up (the wash's own
positions), a digit picks one card, Enter washes it; a face-up card washed leaves the seat's
up cards and a new one is dealt face up; the key that keeps the cards; the log tells washes.
Car Wash: the panel says up to two cards may be washed and that washing is free; digits pick
a face-down and a face-up card, a third is refused, and Enter sends the wash of both; the
dealer's announcement sets the price of a wash with one key."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tui_screen import (
    ANNOUNCE,
    SIZES,
    WASH,
    WASHING,
    bots_client,
    play_until,
    seated_until,
    take_seat,
    terminal,
)

from p2pwillow.client import Decision
from p2pwillow.games.car_wash import CAR_WASH, WASH_PRICE
from p2pwillow.inprocess import InProcessClient
from p2pwillow.rules import ActionKind, Phase, TableConfig
from p2pwillow.tui.draw import HELP_TEXT
from p2pwillow.view import TableView


def _my_wash(text: str, view: TableView) -> bool:
    return WASH in text and view.wash is not None and view.action(ActionKind.DRAW).legal


def _redealt(before: TableView) -> Callable[[str, TableView], bool]:
    """The view once the wash's redeal is dealt (the betting after it, or the hand's end)."""

    def done(text: str, view: TableView) -> bool:
        return view.hand == before.hand and (
            (view.phase is Phase.BETTING and view.betting_round > before.betting_round)
            or not view.hand_running
        )

    return done


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_washing_a_face_up_card(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, "seattle-six")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, _my_wash)
            wash = view.wash
            mine = view.mine
            assert wash is not None and mine is not None
            assert wash.up == mine.showing and wash.up, (wash, mine)
            prompt = f"{WASH}{wash.price} chips"
            if wash.price_down != wash.price:
                prompt += f" (face down: {wash.price_down})"
            assert f"{prompt}: none yet" in text, text
            assert "[s] keep your cards" in text and "[Enter] wash it" in text, text
            numbered = " ".join(f"{i}:{c.unicode}" for i, c in enumerate(wash.cards, start=1))
            assert numbered.split(" ")[-1] in text, text
            first_up = len(wash.down) + 1
            washed = wash.cards[first_up - 1]
            assert f"up {first_up}:{washed.unicode}" in text, text
            stack = mine.stack

            t.press(str(first_up))
            text = await t.settled(f"pay {wash.price}, wash it")
            assert f"{prompt}: {washed.unicode} (face up)" in text, text
            t.press("\r")

            def redealt(text: str, now: TableView) -> bool:
                # the betting right after this wash's redeal (no street dealt since), or the end
                return now.hand == view.hand and (
                    (now.phase is Phase.BETTING and now.betting_round == view.betting_round)
                    or not now.hand_running
                )

            text, after = await play_until(t, c, redealt)
            me = after.mine
            assert me is not None
            assert washed not in me.showing, (washed, me.showing)
            assert me.showing[:-1] == wash.up[1:] and len(me.showing) == len(wash.up), me
            assert me.stack <= stack - wash.price
            assert after.wash is None
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            assert f"{me.name} pays {wash.price} and washes {washed}" in log, log

    asyncio.run(main())


def test_keeping_the_cards_at_a_wash(tmp_path: Path) -> None:
    c = bots_client(tmp_path, "seattle-six")

    async def main() -> None:
        async with terminal(c, 32, 100) as t:
            _, view = await seated_until(t, c, _my_wash)
            mine = view.mine
            assert mine is not None
            t.press("\r")  # nothing picked: Enter says how to keep the cards
            await t.settled("pick a card to wash, or [s] to keep your cards")
            t.press("s")
            _, after = await play_until(t, c, _redealt(view))
            me = after.mine
            assert me is not None and me.showing == mine.showing
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            assert f"{me.name} keeps its cards" in log, log

    asyncio.run(main())


def test_help_lists_the_wash_keys() -> None:
    cards = next(line for line in HELP_TEXT if line.startswith("Cards "))
    assert "[Enter] give / lay out / wash, [s] keep" in cards, cards
    assert all(len(line) <= 78 for line in HELP_TEXT)


class _Recording(InProcessClient):
    """The in-process table that also writes down every decision the screen sends."""

    def __init__(self, transcript: Path, **kwargs: Any) -> None:
        super().__init__(transcript, **kwargs)
        self.decided: list[Decision] = []

    def decide(self, decision: Decision) -> None:
        self.decided.append(decision)
        super().decide(decision)


def _recording(tmp_path: Path, game: str, seed: int = 3) -> _Recording:
    c = bots_client(tmp_path, game, seed=seed, client=_Recording)
    assert isinstance(c, _Recording)
    return c


def _wash_of_three(text: str, view: TableView) -> bool:
    """The person's Car Wash wash with a face-down card and two face-up ones at least, both
    of its washes left (the washes before it kept: `answer_keys` keeps the cards)."""
    wash = view.wash
    return (
        WASHING.search(text) is not None
        and wash is not None
        and wash.most == 2
        and len(wash.down) >= 1
        and len(wash.up) >= 2
    )


def test_washing_two_cards_one_down_one_up_in_car_wash(tmp_path: Path) -> None:
    c = _recording(tmp_path, CAR_WASH.name)

    async def main() -> None:
        async with terminal(c, 32, 100) as t:
            text, view = await seated_until(t, c, _wash_of_three)
            wash = view.wash
            mine = view.mine
            assert wash is not None and mine is not None and wash.free, wash
            assert view.action(ActionKind.DRAW).high == 2
            # Car Wash's wash is free by default: the panel names no price
            assert "Wash up to 2 cards, free: none yet" in text, text
            assert "chips" not in text.split("Wash up to 2 cards")[1].splitlines()[0], text
            assert f"[1-{len(wash.cards)}] pick up to 2" in text, text
            assert "[Enter] wash them" in text, text
            down, up = wash.down[0], wash.up[0]
            first_up = len(wash.down) + 1
            decided = len(c.decided)

            t.press("1", str(first_up))
            text = await t.settled(f"{up.unicode} (face up)")
            assert f"free: {down.unicode} (face down), {up.unicode} (face up)" in text, text
            # a third card while two are picked is refused, and says so
            t.press(str(first_up + 1))
            text = await t.settled("you may wash 2 cards now")
            assert f"{down.unicode} (face down), {up.unicode} (face up)" in text, text
            assert f"{wash.up[1].unicode} (face up)" not in text, text
            t.press("\r")

            def redealt(text: str, now: TableView) -> bool:
                # the betting right after this wash's redeal (no street dealt since), or the end
                return now.hand == view.hand and (
                    (now.phase is Phase.BETTING and now.betting_round == view.betting_round)
                    or not now.hand_running
                )

            text, after = await play_until(t, c, redealt)

            # the wash's own positions: the first face-down card and the first face-up one
            sent = c.decided[decided]
            assert sent == Decision(ActionKind.DRAW, positions=(0, len(wash.down))), sent
            me = after.mine
            assert me is not None
            assert up not in me.showing and len(me.showing) == len(wash.up), (up, me.showing)
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            assert f"{me.name} washes a card face down" in log, log
            assert f"{me.name} washes {up}" in log, log

    asyncio.run(main())


def test_the_dealer_sets_car_washs_price_of_a_wash(tmp_path: Path) -> None:
    c = _recording(tmp_path, CAR_WASH.name)

    async def main() -> None:
        async with terminal(c, 32, 100) as t:
            text, view = await seated_until(t, c, lambda s, v: ANNOUNCE in s)
            assert "[p] wash price free" in text, text
            t.press("p", "p")
            text = await t.settled("[p] wash price 2 antes a card")
            t.press("\r")
            text, view = await play_until(t, c, lambda s, v: v.wash is not None)
            a, wash = view.announcement, view.wash
            assert a is not None and a.number(WASH_PRICE.name) == 2, a
            ante = TableConfig().ante
            assert wash is not None and (wash.price, wash.price_down) == (2 * ante, 2 * ante)
            assert f"Wash up to 2 cards for {2 * ante} chips each: none yet" in text, text
            assert f"[1-{len(wash.cards)}] pick up to 2" in text, text
            t.press("1")
            text = await t.settled(f"pay {2 * ante}, wash it")
            assert f"{wash.cards[0].unicode} (face down)" in text, text

    asyncio.run(main())


def test_the_price_key_goes_round_to_free(tmp_path: Path) -> None:
    """After the most the option takes, the next press makes the wash free again."""
    c = _recording(tmp_path, CAR_WASH.name)

    async def main() -> None:
        async with terminal(c, 32, 100) as t:
            await take_seat(t)
            await play_until(t, c, lambda s, v: ANNOUNCE in s)
            t.press(*"p" * WASH_PRICE.high)
            await t.settled(f"[p] wash price {WASH_PRICE.high} antes a card")
            t.press("p")
            await t.settled("[p] wash price free")

    asyncio.run(main())


def _gfb_wash(text: str, view: TableView) -> bool:
    """The person's Go for Broke wash, the cloak offered, with a face-up card to cloak."""
    wash = view.wash
    return _my_wash(text, view) and wash is not None and wash.cloak is not None and bool(wash.up)


def test_cloaking_a_face_up_card_in_go_for_broke(tmp_path: Path) -> None:
    c = _recording(tmp_path, "go-for-broke")

    async def main() -> None:
        async with terminal(c, 32, 100) as t:
            text, view = await seated_until(t, c, _gfb_wash)
            wash, mine = view.wash, view.mine
            assert wash is not None and wash.cloak is not None and mine is not None
            action = view.action(ActionKind.CLOAK)
            assert action.legal and action.amount == wash.cloak, action
            # Go for Broke's cloak: eight antes (SPEC 3.13.13)
            assert wash.cloak == 8 * TableConfig().ante
            assert f"[c] cloak a face-up card ({wash.cloak})" in text, text
            # a face-down card is no card to cloak: the key says so and sends nothing
            decided = len(c.decided)
            t.press("1", "c")
            await t.settled("pick one card showing to cloak")
            assert len(c.decided) == decided
            first_up = len(wash.down) + 1
            cloaked = wash.cards[first_up - 1]
            t.press(str(first_up))
            text = await t.settled(f"[c] pay {wash.cloak}, cloak it")
            t.press("c")

            def redealt(text: str, now: TableView) -> bool:
                return now.hand == view.hand and (now.wash is None and now.phase is not Phase.DRAW)

            text, after = await play_until(t, c, redealt)
            assert c.decided[decided] == Decision(ActionKind.CLOAK, positions=(first_up - 1,))
            me = after.mine
            assert me is not None and cloaked not in me.showing, (cloaked, me)
            if after.hand_running:
                # the card is dealt again face down: one more face-down card, one fewer up
                assert len(me.showing) == len(wash.up) - 1, me
                assert me.face_down == len(wash.down) + 1, me
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            said = f"{me.name} pays {wash.cloak} and cloaks {cloaked}: another comes face down"
            assert said in log, log

    asyncio.run(main())


def _my_call(text: str, view: TableView) -> bool:
    return view.action(ActionKind.KEEP_CALL).legal


def test_five_by_two_a_person_says_it_washes_then_must_name_a_card(tmp_path: Path) -> None:
    """Five by Two (SPEC 3.17, washers named first): the person's turn to say shows no wash
    panel and the keys w and n; w says it washes; once every player has said, the panel asks
    for a card and keeping the cards is refused with the reason."""
    c = bots_client(tmp_path, "five-by-two", seed=5)

    async def main() -> None:
        async with terminal(c, 30, 100) as t:
            text, view = await seated_until(t, c, _my_call)
            assert view.wash is None and WASHING.search(text) is None, text
            assert "[w] say you wash" in text and "[n] say you keep your cards" in text, text
            t.press("w")
            text, view = await play_until(t, c, _my_wash)
            me = view.you
            assert me is not None
            assert f"{view.name(me)} will wash" in text, text
            t.press("s")
            refused = await t.wait_for(lambda s: "said it washes" in s)
            assert "names a card" in refused, refused
            t.press("1", "\r")
            await t.wait_for(lambda s: f"{view.name(me)} pays" in s)

    asyncio.run(main())


def test_five_by_two_a_person_flips_a_face_down_card_up(tmp_path: Path) -> None:
    """Five by Two's flip (SPEC 3.17): after w, the wash panel offers [f] with its price; with
    only a face-up card picked, f says what to pick and sends nothing; a face-down and a
    face-up card picked, Enter says that f flips them and sends nothing, and f sends the flip
    of both: the face-down card is face up after it, the face-up one gone, the new card face
    down, and the log tells it."""
    c = _recording(tmp_path, "five-by-two", seed=5)

    async def main() -> None:
        async with terminal(c, 30, 100) as t:
            await take_seat(t)
            await play_until(t, c, _my_call)
            t.press("w")
            text, view = await play_until(t, c, _my_wash)
            wash, action = view.wash, view.action(ActionKind.FLIP)
            assert wash is not None and wash.flip is not None, wash
            # the first wash's price of a face-up card: two antes (SPEC 3.13.15)
            assert wash.flip == wash.price == 2 * TableConfig().ante
            assert action.legal and action.amount == wash.flip, action
            assert f"[f] flip ({wash.flip}): pick a face-down card to turn up" in text, text
            assert len(wash.down) == 1 and wash.up, wash
            first_up = len(wash.down) + 1
            down, up = wash.down[0], wash.up[0]
            decided = len(c.decided)
            t.press(str(first_up), "f")
            await t.settled("pick a face-down card to turn up and a face-up card to wash")
            assert len(c.decided) == decided
            t.press("1")  # the face-up card stays picked: one card of each kind
            text = await t.settled(f"[f] pay {wash.flip}, flip them")
            assert f"{down.unicode} (face down), {up.unicode} (face up)" in text, text
            t.press("\r")
            await t.settled("[f] flips these two, or press one again to wash the other")
            assert len(c.decided) == decided
            t.press("f")

            def redealt(text: str, now: TableView) -> bool:
                return now.hand == view.hand and (now.wash is None and now.phase is not Phase.DRAW)

            text, after = await play_until(t, c, redealt)
            assert c.decided[decided] == Decision(ActionKind.FLIP, positions=(0, first_up - 1))
            me = after.mine
            assert me is not None and up not in me.showing and down in me.showing, me
            if after.hand_running:
                # one card fewer face up but the card turned up; the new card face down
                assert len(me.showing) == len(wash.up), me
                assert me.face_down == 1, me
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            said = f"{me.name} pays {wash.flip} and flips {down} face up, washes {up}"
            assert said + ": another comes face down" in log, log

    asyncio.run(main())
