"""Rooms, races and players: plain synchronous logic. No sockets, no SQL, no asyncio; the clock is injected.

Every request handler returns an `Effect`: the records that must become durable, and the messages to send
once they are. The network adapter commits the records (one group-commit batch), then sends the messages,
or calls the effect's rollback and answers with an error.
"""
