"""The crosstable's rows drawn in Python (`{% crosstable_rows %}`) are the markup the
template's loop drew: the same bytes, escaped and localized alike, in English and Ukrainian
(issue 18)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from ratings.crosstable import crosstable_with_ratings
from ratings.models import RatingHistory
from tests.factories import GameFactory, MemberFactory, ParticipantFactory
from tests.web.data import rated_tournament
from tournaments.models import Game, Participant

pytestmark = pytest.mark.django_db

# The loop `_crosstable.html` had before its rows were drawn in Python.
TEMPLATE_ROWS = """{% load i18n rating_format %}{% for row in crosstable.rows %}
    <tr>
      <td class="num sticky-col sticky-place">{{ row.participant.place|default:row.number }}</td>
      <td class="sticky-col sticky-name"><a href="{% url 'player_detail' row.participant.member_id %}">{{ row.participant.member.full_name }}</a></td>
      <td class="grade-cell">{{ row.participant.grade|default:"" }}</td>
      <td class="club-cell" title="{% if row.participant.team %}{% translate 'as the results file gives it' %}{% if row.participant.member.club %}; {% translate 'member of' %} {{ row.participant.member.club.name }}{% endif %}{% else %}{{ row.participant.member.club.name|default:'' }}{% endif %}">{% if row.participant.team %}{{ row.participant.team }}{% else %}{{ row.participant.member.club.name|default:"" }}{% endif %}</td>
      {% for cell in row.cells %}<td class="text-center round-cell {{ cell.css }}"{% if cell.opponent %} title="{{ cell.opponent.member.full_name }}"{% endif %}>{{ cell.text }}</td>{% endfor %}
      <td class="num points-cell"><strong>{{ row.points|floatformat:"-1" }}</strong></td>
      {% for c in row.changes %}<td class="num small text-nowrap change-cell">{% if c is None %}—{% elif c.rated %}<span class="change-before">{{ c.before|rating:c.system }} → </span>{% show_rating c.after c.system c.provisional %} <span class="{{ c.change|change_class }}">{{ c.change|change:c.system }}</span>{% else %}<span class="muted">{% translate "not rated" %}</span>{% endif %}</td>{% endfor %}
    </tr>
  {% endfor %}"""  # noqa: E501


@pytest.fixture
def odd_table(world):
    """A rated table with what needs escaping or a branch: a team, a player without club or
    grade or place, a name with markup, a draw (half points), a bye, a forfeit, a game
    played but not rated, a change not rated and a player without a change."""
    players = world.players[:3]
    players[0].family_name = '<i>O\'Brien & "Sons"</i>'
    players[0].save()
    players[2].club = None
    players[2].save()
    tournament = rated_tournament(
        world.rating_list, players, day=dt.date(2024, 10, 1), name="Odd Open", sequence=3
    )
    Participant.objects.filter(tournament=tournament, member=players[1]).update(
        team="Team <Kyiv> & Co"
    )
    Participant.objects.filter(tournament=tournament, member=players[2]).update(
        place=None, grade=None
    )
    late = MemberFactory(given_name="Late", family_name="Comer", club=None)
    ParticipantFactory(tournament=tournament, member=late, place=None, grade=None)
    GameFactory(tournament=tournament, round=4, white=players[0], black=players[1],
                result=Game.Result.DRAW)  # fmt: skip
    GameFactory(tournament=tournament, round=4, white=late, black=None, kind=Game.Kind.BYE_HALF)
    GameFactory(tournament=tournament, round=5, white=players[1], black=players[2],
                result=Game.Result.BLACK, kind=Game.Kind.FORFEIT)  # fmt: skip
    GameFactory(tournament=tournament, round=5, white=players[0], black=late,
                result=Game.Result.WHITE, kind=Game.Kind.UNRATED)  # fmt: skip
    RatingHistory.objects.filter(tournament=tournament, member=players[2]).update(rated=False)
    return tournament


@pytest.mark.parametrize("language", ["en", "uk"])
def test_rows_are_the_templates_markup(client, odd_table, language):
    table = crosstable_with_ratings(odd_table)
    with translation.override(language):
        request = RequestFactory().get("/")
        context = Context({"crosstable": table, "request": request}, autoescape=True)
        drawn = Template(TEMPLATE_ROWS).render(context)
        ours = Template("{% load crosstable_rows %}{% crosstable_rows crosstable %}").render(
            context
        )
    assert ours == drawn
    assert "&lt;i&gt;O&#x27;Brien &amp; &quot;Sons&quot;&lt;/i&gt;" in drawn
    assert "Team &lt;Kyiv&gt; &amp; Co" in drawn and ("0=" in drawn and "!" in drawn)
    assert ("<strong>0,5<" if language == "uk" else "<strong>0.5<") in drawn  # the half bye
    page = client.get(
        reverse("tournament_detail", args=[odd_table.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert drawn in page.content.decode()


def test_no_players_yet(client, world):
    tournament = world.tournaments[0]
    Participant.objects.filter(tournament=tournament).delete()
    html = client.get(reverse("tournament_detail", args=[tournament.pk])).content.decode()
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert body == '\n  \n    <tr><td colspan="6" class="muted">No players yet.</td></tr>\n  \n  '
