"""A list started from a published rating list: the list read, its rows matched to members, the baseline written."""
