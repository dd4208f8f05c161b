"""Which frames are compressed: permessage-deflate only where it pays, a client's side and the rule both sides share.

A game's frames are mostly small: a `move_accepted` is 420-470 bytes, a `progress` 160, a move a client sends
30-60. Deflating such a frame halves it, but both sizes fit one TCP segment, so nobody gains a packet or a round
trip, and the sender pays for it on every move (on the server, about a quarter of a move's CPU when every frame was
compressed); a compressor kept between messages (context takeover) holds 30-40 KiB per connection, idle or not.
Large frames are another matter: a replay (1-9 KB), a whole game's state (1.5 KB), a race's start with its board,
a long autoplay shrink to a fifth to a third of their size, which spares a slow link whole packets.

So `large`, the default: a message is compressed only when its payload has at least `min_bytes` (1,024 by
default); smaller ones go as they are, with RSV1 unset, which RFC 7692 (section 6) allows on a connection that
negotiated the extension (`LargeFramesDeflate`). Each compressed message stands alone (no context takeover), so no
zlib state outlives a message: an idle connection holds none. `deflate` is websockets' own (every frame compressed,
context kept), `none` never negotiates the extension.

This SDK (and bench/load.py's clients, which stand for bots built on it) offers permessage-deflate so that large
frames reach it compressed, but sends its own messages, all small, as they are (`client_extensions`): compressing a
40-byte move costs the bot a fresh zlib stream per message and the server an inflate, to save a dozen bytes of a
packet that is sent anyway. The server's side (`freecell_arena.net.compression`, `FREECELL_ARENA_COMPRESSION`)
sends its frames by the same rule, so it takes `LargeFramesDeflate` from here: the server may build on the SDK,
never the other way round.

Built on websockets' own extension (`PerMessageDeflate`): only `encode` is narrowed, so decoding, negotiation and
the frames' format stay the library's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from websockets.extensions.base import ClientExtensionFactory, Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
    enable_client_permessage_deflate,
)
from websockets.frames import Frame, Opcode
from websockets.typing import ExtensionParameter

Compression = Literal["large", "deflate", "none"]
DEFAULT_MIN_BYTES = 1024  # under this a frame fits one TCP segment compressed or not
COMPRESS_SETTINGS = {"memLevel": 5}  # websockets' defaults (enable_server_permessage_deflate)


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


def client_extensions(compression: Compression, min_bytes: int = DEFAULT_MIN_BYTES) -> list[ClientExtensionFactory]:
    """The extension factories a client offers under a policy: `large` is the SDK's default, `deflate` websockets'
    own (every frame compressed, context kept)."""
    if compression == "deflate":
        return list(enable_client_permessage_deflate(None))
    return [LargeFramesClientDeflateFactory(min_bytes)] if compression == "large" else []


def connect_options(compression: Compression = "large", min_bytes: int = DEFAULT_MIN_BYTES) -> dict[str, Any]:
    """The keyword arguments of websockets' `connect` for a client's policy (the SDK's and the load clients')."""
    return {"compression": None, "extensions": client_extensions(compression, min_bytes)}
