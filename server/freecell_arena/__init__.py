"""FreeCell Arena: a server-authoritative FreeCell racing server."""

__version__ = "0.1.0"
