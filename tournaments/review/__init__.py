"""The referee's review of a submitted table: its conversation, what changed since he last saw it, identity proposals, the mail it sends."""
