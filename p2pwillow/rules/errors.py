"""The one error family of the rules engine: a bad table setting or an illegal action.

Pure; no I/O. The session layer converts these into its remote-protocol error for peers' entries.
"""

from __future__ import annotations


class RulesError(Exception):
    """Anything the rules engine refuses; the message says what was wrong."""


class ConfigError(RulesError, ValueError):
    """A table setting, announcement or hand setup that breaks the rules (SPEC 3.1)."""


class IllegalAction(RulesError):
    """An action or input that the rules do not allow now; nothing changed (SPEC 3.3)."""
