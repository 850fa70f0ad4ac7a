"""The one error family of the rules engine: a bad table setting or an illegal action.

Pure; no I/O. The session layer converts these into its remote-protocol error for peers' entries.
"""

from __future__ import annotations

from collections.abc import Callable


class RulesError(Exception):
    """Anything the rules engine refuses; the message says what was wrong."""


class ConfigError(RulesError, ValueError):
    """A table setting, announcement or hand setup that breaks the rules (SPEC 3.1)."""


class IllegalAction(RulesError):
    """An action or input that the rules do not allow now; nothing changed (SPEC 3.3)."""


def passes(check: Callable[[], object]) -> bool:
    """Whether `check` (a `verify_x` call) accepts: the `can_x` face of an action."""
    try:
        check()
    except IllegalAction:
        return False
    return True
