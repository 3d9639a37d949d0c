"""An import must not give a member an EGD PIN or FIDE ID another member holds.

The ids are unique among members; a player chosen as "new" (or matched to a member without
the id) whose file gives an id already taken would fail at the database with an
IntegrityError. Found here, it is an error the preview lists like any other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _

from clubsite.batches import in_batches
from clubsite.models import Member
from tournaments.formats.model import FilePlayer

IDS = (("egd_pin", "EGD PIN"), ("fide_id", "FIDE ID"))


def identity_errors(
    players: Iterable[FilePlayer], resolved: Mapping[str, Member | None]
) -> list[str]:
    """One message per file id that the import would give to a second member."""
    players = list(players)
    errors: list[str] = []
    for field, label in IDS:
        wanted = {getattr(p, field) for p in players if getattr(p, field)}
        holders = {getattr(m, field): m for m in in_batches(Member.objects.all(), field, wanted)}
        given: dict[str, str] = {}
        for player in players:
            value = getattr(player, field)
            if not value or player.key not in resolved:
                continue
            member = resolved[player.key]
            if member is not None and getattr(member, field):
                continue  # he keeps his own id; the file's is not written
            holder = holders.get(value)
            if holder is not None and (member is None or holder.pk != member.pk):
                errors.append(
                    _("%(player)s: %(label)s %(value)s belongs to %(member)s (#%(pk)s); "
                      "choose that member instead.")
                    % {"player": player.name, "label": label, "value": value,
                       "member": holder.full_name, "pk": holder.pk}
                )  # fmt: skip
            elif value in given:
                errors.append(
                    _("%(player)s and %(other)s have the same %(label)s %(value)s.")
                    % {"player": player.name, "other": given[value], "label": label,
                       "value": value}
                )  # fmt: skip
            given.setdefault(value, player.name)
    return errors
