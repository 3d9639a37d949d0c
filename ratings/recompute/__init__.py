"""The recompute: what a replay reads, the replay through the engine (whole or only a change's cone), and what it stores."""
