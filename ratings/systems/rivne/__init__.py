"""The Rivne Go club rating system (`rivne`): the rating (`rating`) and the reading of its
params and history (`inputs`)."""
