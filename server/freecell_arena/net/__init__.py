"""The websockets adapter: one reader loop per connection that decodes, calls core, commits, then sends."""
