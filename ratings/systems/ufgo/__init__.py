"""The UFGO rating system (`ufgo`): the rating (`rating`), its grade rules (`grades`), the
published tables 2-5 (`tables`) and its parameters (`rules`)."""
