"""Which frames the server compresses: permessage-deflate only where it pays (`FREECELL_ARENA_COMPRESSION`).

The rule for a message and the reasons for it are the SDK's (`freecell_arena_client.compression`: both sides send
by it, and the server may build on the SDK, never the other way round); here is the server's side of it. The
default policy, `large`: permessage-deflate is negotiated with the clients that ask for it (browsers do), and a
message is compressed only when its payload has at least `compression_min_bytes` (1,024 by default), smaller ones
going as they are (`LargeFramesDeflate`). Each compressed message stands alone (`server_no_context_takeover`), and
the client is asked for the same (`client_no_context_takeover`), so no zlib state outlives a message on either
side: an idle connection holds none. That costs some ratio on the large frames (the dictionary starts empty each
time) and a fresh zlib stream per compressed message (a few microseconds, against tens for the compression
itself), paid only on the rare large frames and on what a compressing client sends. `deflate` is the previous
behaviour (every frame compressed, context kept; websockets' defaults), `none` never negotiates the extension.
A browser compresses everything it sends once the extension is negotiated; the server reads both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from websockets.extensions.base import Extension, ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
    enable_server_permessage_deflate,
)
from websockets.typing import ExtensionParameter

from freecell_arena_client.compression import COMPRESS_SETTINGS, DEFAULT_MIN_BYTES, Compression, LargeFramesDeflate

__all__ = ["DEFAULT_MIN_BYTES", "Compression", "LargeFramesDeflate", "LargeFramesDeflateFactory", "extensions",
           "plain_below", "serve_options"]  # fmt: skip
"""With the SDK's names the rest of the server uses: net reads the policy here."""

WINDOW_BITS = 12  # websockets' defaults (enable_server_permessage_deflate): a 4 KiB window, memLevel 5


class LargeFramesDeflateFactory(ServerPerMessageDeflateFactory):
    """Negotiates permessage-deflate as websockets' server does, with no context kept on either side, and hands
    the connection a `LargeFramesDeflate`."""

    def __init__(self, min_bytes: int) -> None:
        super().__init__(
            server_no_context_takeover=True,
            client_no_context_takeover=True,
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings=dict(COMPRESS_SETTINGS),
        )
        self.min_bytes = min_bytes

    def process_request_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> tuple[list[ExtensionParameter], PerMessageDeflate]:
        response, negotiated = super().process_request_params(params, accepted_extensions)
        return response, LargeFramesDeflate(negotiated, self.min_bytes)


def extensions(compression: Compression, min_bytes: int = DEFAULT_MIN_BYTES) -> list[ServerExtensionFactory]:
    """The extension factories a server offers under a policy (websockets' sans-I/O `ServerProtocol` takes them)."""
    if compression == "deflate":
        return list(enable_server_permessage_deflate(None))
    return [LargeFramesDeflateFactory(min_bytes)] if compression == "large" else []


def plain_below(compression: Compression, min_bytes: int = DEFAULT_MIN_BYTES) -> int:
    """Once a policy's extension is negotiated, payloads shorter than this leave it unchanged: `large` sends them
    uncompressed, websockets' own deflate compresses every one (0)."""
    return min_bytes if compression == "large" else 0


def serve_options(compression: Compression, min_bytes: int = DEFAULT_MIN_BYTES) -> dict[str, Any]:
    """The keyword arguments of websockets' `serve` for a policy (the game server and the bench's echoes use the
    same, so that a comparison measures the same frames)."""
    return {"compression": None, "extensions": extensions(compression, min_bytes)}
