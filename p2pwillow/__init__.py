"""p2pwillow: Weeping Willow poker, peer to peer, dealt by mental poker."""

__version__ = "0.1.0"
