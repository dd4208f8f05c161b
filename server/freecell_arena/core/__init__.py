"""Rooms, races and players: plain synchronous logic. No sockets, no SQL, no asyncio; the clock is injected.

Every request handler returns an `Effect`: the records that must become durable, the changes of rooms, seats and
games as values (`core.live.changes`), and the messages to send once the records are stored. The network adapter
commits the records (one group-commit batch); only then does memory adopt the changes and the messages go out.
A refused write changes nothing in memory and is answered with an error.

Its parts are folders and a few top-level modules, in layers, each importing only those below it
(docs/architecture.md, tests/test_import_graph.py): `ports` (records the store takes, rows it reads back), the
kernel (`effects`, `events`, `clock`, `identity`, `variant_request`), `accounts`, `records` (dailies, boards,
seasons, streaks, ranking and ratings, series tallies, tournaments as stored, the audit), `moderation`, `live`
(rooms, races, seats, games, the clock), `competition` (race again, quick races, the tournaments' desk), and at the
top what net may ask (`seams`, `server_store`) and the `arena`.
"""
