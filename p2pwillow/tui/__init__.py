"""The terminal client: a full-screen prompt_toolkit application over any `Client` (DESIGN 7).

The only package that imports prompt_toolkit. `state` is the screen's state without the
screen, `draw` turns it into rows of text, `layout` places them, `keys` binds the keys.
"""

from p2pwillow.tui.app import ClientApp, Terminal, run_client, run_client_async

__all__ = ["ClientApp", "Terminal", "run_client", "run_client_async"]
