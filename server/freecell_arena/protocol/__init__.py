"""The wire protocol: pydantic message models, one module a topic (`rooms`, `play`, ...) gathered by `registry`;
decoding (`codec`), and the doc generator.

Nothing is imported here on purpose: importing one topic should load that topic and what it needs, not them all.
"""
