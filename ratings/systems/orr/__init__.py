"""The Open Russian Rating (`orr`): the standard algorithm (`rating`), the newcomer formulas
(`newcomers`) and the reading of its params and history (`inputs`)."""
