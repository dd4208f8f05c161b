"""Rooms, races and players: plain synchronous logic. No sockets, no SQL, no asyncio; the clock is injected.

Every request handler returns an `Effect`: the records that must become durable, the changes of rooms, seats and
games as values (`core.live.changes`), and the messages to send once the records are stored. The network adapter
commits the records (one group-commit batch); only then does memory adopt the changes and the messages go out.
A refused write changes nothing in memory and is answered with an error.

Its parts are folders (docs/architecture.md): `live` (rooms, races, seats, games, the clock), `competition`
(ratings, race again, quick races), `records` (dailies, boards, seasons, streaks, the audit), `accounts`, and
`ports` (what the store implements and net may ask).
"""
