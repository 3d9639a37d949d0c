"""Players browsing the site: rating lists, profiles, tournaments (issue 18's load test).

Run by scripts/loadtest.sh (Locust, headless). Every user first learns some player and
tournament ids from the API and the tournament list, then browses with short pauses.
"""

from __future__ import annotations

import os
import random
import re

from locust import HttpUser, between, events, task

SLUG = os.environ.get("LOADTEST_LIST", "bench-egd")
PLAYERS: list[int] = []
TOURNAMENTS: list[int] = []


@events.test_start.add_listener
def learn_ids(environment, **_kwargs):  # noqa: ANN001 - Locust's hook
    import requests

    host = environment.host
    players = requests.get(f"{host}/api/lists/{SLUG}/", params={"limit": 2000}, timeout=60)
    PLAYERS.extend(p["id"] for p in players.json()["players"])
    for page in (1, 2, 5, 20):
        html = requests.get(f"{host}/tournaments/", params={"page": page}, timeout=60).text
        TOURNAMENTS.extend(int(t) for t in re.findall(r'href="/tournaments/(\d+)/"', html))


class Browser(HttpUser):
    wait_time = between(0.5, 2.0)

    @task(4)
    def rating_list(self) -> None:
        query = random.choice(
            [{}, {"page": random.randint(1, 400)}, {"country": "UA"}, {"sort": "name"},
             {"grade_min": "5k", "grade_max": "1d"}, {"active": "all", "page": 3}]
        )  # fmt: skip
        self.client.get(f"/ratings/{SLUG}/", params=query, name="/ratings/[list]")

    @task(4)
    def profile(self) -> None:
        if PLAYERS:
            self.client.get(f"/players/{random.choice(PLAYERS)}/", name="/players/[id]")

    @task(2)
    def tournaments(self) -> None:
        self.client.get(
            "/tournaments/", params={"page": random.randint(1, 50)}, name="/tournaments/"
        )

    @task(2)
    def tournament(self) -> None:
        if TOURNAMENTS:
            self.client.get(f"/tournaments/{random.choice(TOURNAMENTS)}/", name="/tournaments/[id]")

    @task(1)
    def home(self) -> None:
        self.client.get("/", name="/")
