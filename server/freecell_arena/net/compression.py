"""Which frames are compressed: permessage-deflate only where it pays (`FREECELL_ARENA_COMPRESSION`).

A game server's frames are mostly small: a `move_accepted` is 420-470 bytes, a `progress` 160. Deflating such a
frame halves it, but both sizes fit one TCP segment, so the player gains no packet and no round trip; the server
pays for it on every move (about a quarter of a move's CPU when every frame was compressed), and a compressor kept
between messages (context takeover) holds 30-40 KiB per connection, idle or not. Large frames are another matter:
a replay (1-9 KB), a whole game's state (1.5 KB), a race's start with its board, a long autoplay shrink to a fifth
to a third of their size, which spares a slow link whole packets.

So the default policy, `large`: permessage-deflate is negotiated with the clients that ask for it (browsers do),
and a message is compressed only when its payload has at least `compression_min_bytes` (1,024 by default);
smaller ones go as they are, with RSV1 unset, which RFC 7692 (section 6) allows on a connection that negotiated
the extension. Each compressed message stands alone (`server_no_context_takeover`), and the client is asked for
the same (`client_no_context_takeover`), so no zlib state outlives a message on either side: an idle connection
holds none. That costs some ratio on the large frames (the dictionary starts empty each time) and a fresh zlib
stream per compressed message (a few microseconds, against tens for the compression itself), paid only on the
rare large frames and on what a compressing client sends. `deflate` is the previous behaviour (every frame
compressed, context kept; websockets' defaults), `none` never negotiates the extension.

The same rule holds for what a client sends: the Python SDK (and bench/load.py's clients, which stand for bots
built on it) offers permessage-deflate so that large frames reach it compressed, but sends its own messages, all
small (a move is 30-60 bytes), as they are (`client_extensions`). Compressing a 40-byte move costs the bot a fresh
zlib stream per message and the server an inflate, to save a dozen bytes of a packet that is sent anyway. A
browser compresses everything it sends once the extension is negotiated; the server reads both.

Built on websockets' own extension (`PerMessageDeflate`): only `encode` is narrowed, so decoding, negotiation and
the frames' format stay the library's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from websockets.extensions.base import ClientExtensionFactory, Extension, ServerExtensionFactory
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
    enable_client_permessage_deflate,
    enable_server_permessage_deflate,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

Compression = Literal["large", "deflate", "none"]
DEFAULT_MIN_BYTES = 1024  # under this a frame fits one TCP segment compressed or not
WINDOW_BITS = 12  # websockets' defaults (enable_server_permessage_deflate): a 4 KiB window, memLevel 5
COMPRESS_SETTINGS = {"memLevel": 5}


class LargeFramesDeflate(PerMessageDeflate):
    """permessage-deflate that sends a whole message under `min_bytes` uncompressed (RSV1 unset)."""

    def __init__(self, negotiated: PerMessageDeflate, min_bytes: int) -> None:
        super().__init__(
            negotiated.remote_no_context_takeover,
            negotiated.local_no_context_takeover,
            negotiated.remote_max_window_bits,
            negotiated.local_max_window_bits,
            negotiated.compress_settings,
        )
        self.min_bytes = min_bytes

    def encode(self, frame: Frame) -> Frame:
        """Small whole messages as they are; the rest (and every fragment of a message begun compressed) as the
        library compresses them. Only unfragmented messages are skipped, so a continuation frame always follows
        a first frame that was compressed, as `PerMessageDeflate.encode` expects."""
        whole_data = frame.fin and (frame.opcode is Opcode.TEXT or frame.opcode is Opcode.BINARY)
        if whole_data and len(frame.data) < self.min_bytes:
            return frame
        return super().encode(frame)


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


class LargeFramesClientDeflateFactory(ClientPerMessageDeflateFactory):
    """Offers permessage-deflate as websockets' client does, promising to keep no context of its own (so a
    connection holds no compressor between messages), and hands the connection a `LargeFramesDeflate`."""

    def __init__(self, min_bytes: int) -> None:
        super().__init__(client_no_context_takeover=True, compress_settings=dict(COMPRESS_SETTINGS))
        self.min_bytes = min_bytes

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        return LargeFramesDeflate(super().process_response_params(params, accepted_extensions), self.min_bytes)


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


def client_extensions(compression: Compression, min_bytes: int = DEFAULT_MIN_BYTES) -> list[ClientExtensionFactory]:
    """The extension factories a client offers under a policy: `large` is the SDK's default, `deflate` websockets'
    own (every frame compressed, context kept)."""
    if compression == "deflate":
        return list(enable_client_permessage_deflate(None))
    return [LargeFramesClientDeflateFactory(min_bytes)] if compression == "large" else []


def connect_options(compression: Compression = "large", min_bytes: int = DEFAULT_MIN_BYTES) -> dict[str, Any]:
    """The keyword arguments of websockets' `connect` for a client's policy (the SDK's and the load clients')."""
    return {"compression": None, "extensions": client_extensions(compression, min_bytes)}
