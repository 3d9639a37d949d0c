"""How ratings are shown to people: numbers, system titles, the "how is it computed" pages, the calculator, a table's status in words."""
