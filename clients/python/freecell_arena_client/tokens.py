"""Keep a player's secret token in a file, so a bot that restarts comes back as the same player.

The file is JSON, one entry per server URL (a token only means something to the server that issued it), written
atomically and readable by its owner only: the token is the identity.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


class TokenFile:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def load(self, server: str) -> str | None:
        entry = self._read().get(_key(server))
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) else None

    def save(self, server: str, token: str, player_id: str) -> None:
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
