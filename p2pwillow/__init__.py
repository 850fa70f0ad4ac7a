"""p2pwillow: Weeping Willow poker, peer to peer, dealt by mental poker."""

__version__ = "0.1.0"

# Importing the catalogue registers the plain decisions' entry kinds (a bet, a pass, an offer:
# made from the rows of the action table) with the ledger before any module of the package can
# read an entry (p2pwillow.ledger.kinds.KINDS).
from p2pwillow import games as _games  # noqa: F401
