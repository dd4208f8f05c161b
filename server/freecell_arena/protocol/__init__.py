"""The wire protocol: pydantic message models (`messages`), decoding (`codec`), and the doc generator."""
