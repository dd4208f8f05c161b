"""Tournaments: arenas (continuous pairing for a fixed time) and cups (rounds at fixed times, everyone on the same
deal), their scoring, pairing, heats, schedule, and the desk that owns their state (docs/tournaments.md)."""
