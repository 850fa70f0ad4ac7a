"""The screen's layout: prompt_toolkit containers, each drawing one part of the state with
the functions of `draw`. Does terminal I/O only through prompt_toolkit's renderer.

Every window is redrawn from the state at each render, at the size it has then, so a
resized terminal is simply drawn again at its new size.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

from p2pwillow.tui import draw
from p2pwillow.tui.draw import Glyphs, Row
from p2pwillow.tui.state import ScreenState

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "title.text": "reverse",
        "card.red": "fg:ansired bold",
        "card.black": "bold",
        "back": "fg:ansiblue",
        "marker": "fg:ansiyellow bold",
        "toact": "fg:ansiyellow bold",
        "you": "fg:ansicyan bold",
        "name": "bold",
        "dim": "fg:#8a8a8a",
        "button": "reverse bold",
        "bet": "fg:ansiyellow",
        "win": "fg:ansigreen bold",
        "felt": "fg:ansigreen",
        "felt.head": "bold",
        "pot": "fg:ansiyellow bold",
        "offer": "fg:ansicyan",
        "key": "fg:ansicyan bold",
        "key.off": "fg:#6c6c6c",
        "error": "fg:ansired bold",
        "info": "fg:ansigreen",
        "status": "reverse",
        "status.code": "reverse bold",
        "status.link": "reverse fg:ansigreen",
        "status.warn": "reverse fg:ansired",
        "status.busy": "reverse fg:ansiyellow bold",
        "code": "reverse bold",
        "strong": "bold",
        "label": "bold",
        "picked": "reverse bold",
        "num": "fg:ansicyan",
        "chosen": "reverse bold",
        "field": "reverse bold",
        "turned": "underline",
    }
)


class Drawing(UIControl):
    """A control whose lines are drawn for the width and height it is given."""

    def __init__(self, rows: Callable[[int, int], list[Row]]) -> None:
        self._rows = rows

    def create_content(self, width: int, height: int) -> UIContent:
        rows = self._rows(width, height)
        return UIContent(
            get_line=lambda i: list(rows[i]) if i < len(rows) else [],
            line_count=len(rows),
            show_cursor=False,
        )

    def is_focusable(self) -> bool:
        return False


def _window(rows: Callable[[int, int], list[Row]], height: int | None = None) -> Window:
    dim = Dimension.exact(height) if height is not None else Dimension(min=3, weight=1)
    return Window(Drawing(rows), height=dim, dont_extend_height=height is not None)


def build_layout(state: ScreenState, g: Glyphs) -> Layout:
    body = HSplit(
        [
            _window(lambda w, h: [draw.title_row(state, w, g)], 1),
            _window(lambda w, h: draw.body_rows(state, w, h, g)),
            _window(lambda w, h: draw.hand_rows(state, w, g), 2),
            _window(lambda w, h: draw.action_rows(state, w, g), 3),
            _window(lambda w, h: [draw.clock_row(state, w, g)], 1),
            _window(lambda w, h: [draw.message_row(state, w, g)], 1),
            _window(lambda w, h: [draw.status_row(state, w, g)], 1),
        ]
    )
    help_box = Frame(
        _window(lambda w, h: draw.help_rows(w, g), len(draw.HELP_TEXT) + 4),
        width=Dimension(preferred=78),
    )
    quit_box = Frame(_window(lambda w, h: draw.quit_rows(w, g), 4), width=Dimension(preferred=70))
    end_box = Frame(
        _window(lambda w, h: draw.end_rows(state, w, g), 4), width=Dimension(preferred=70)
    )
    leave_box = Frame(_window(lambda w, h: draw.leave_rows(w, g), 4), width=Dimension(preferred=74))
    root = FloatContainer(
        body,
        floats=[
            Float(ConditionalContainer(help_box, Condition(lambda: state.help_open))),
            Float(ConditionalContainer(quit_box, Condition(lambda: state.quit_asked))),
            Float(ConditionalContainer(end_box, Condition(lambda: state.end_asked))),
            Float(ConditionalContainer(leave_box, Condition(lambda: state.leave_asked))),
        ],
    )
    return Layout(root)
