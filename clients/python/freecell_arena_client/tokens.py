"""Keep a player's secret token in a file, so a bot that restarts comes back as the same player.

Two forms. A bot account's API token (`fcb_...`, made on the account page of the player who owns the bot:
docs/bots.md) is written by its owner as the file's only content: it is read as is, for whatever server, and
never rewritten. Otherwise the file is JSON the runner keeps, one entry per server URL (an unsaved player's
token only means something to the server that issued it), written atomically and readable by its owner only:
the token is the identity.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

BOT_TOKEN_PREFIX = "fcb_"
"""How a bot account's API token begins (the server marks such a player a bot, whatever `hello` says)."""


def is_bot_token(token: str | None) -> bool:
    return token is not None and token.startswith(BOT_TOKEN_PREFIX)


class TokenFile:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def bot_token(self) -> str | None:
        """The bot account's token when the file holds one (its only content), else None."""
        try:
            text = self.path.read_text().strip()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise ValueError(f"cannot read the token file {self.path}: {error}") from error
        return text if is_bot_token(text) and len(text.split()) == 1 else None

    def load(self, server: str) -> str | None:
        fixed = self.bot_token()
        if fixed is not None:
            return fixed
        entry = self._read().get(_key(server))
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) else None

    def save(self, server: str, token: str, player_id: str) -> None:
        if self.bot_token() is not None:
            return  # the owner's file: the bot account's token stays as they wrote it
        entries = self._read()
        entries[_key(server)] = {"token": token, "player_id": player_id}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            with os.fdopen(handle, "w") as out:
                json.dump(entries, out, indent=2)
            os.chmod(temporary, 0o600)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def forget(self, server: str) -> None:
        if self.bot_token() is not None:
            return
        entries = self._read()
        if entries.pop(_key(server), None) is not None:
            self.path.write_text(json.dumps(entries, indent=2))

    def _read(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            raise ValueError(f"cannot read the token file {self.path}: {error}") from error
        return data if isinstance(data, dict) else {}


def _key(server: str) -> str:
    """`ws://host:8765` and `ws://host:8765/` are the same server."""
    return server.rstrip("/")
