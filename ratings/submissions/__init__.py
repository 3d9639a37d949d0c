"""Where a results table meets the rating lists: the file imported for a list, each list's decision, approval with its recompute, the referee's queue."""
