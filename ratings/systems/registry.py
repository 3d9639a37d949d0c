"""The registry: system code -> `RatingSystem` (title, parameters with defaults, `rate`).

Each system module exposes `SYSTEM`; register it with one import and one entry below.
"""

from __future__ import annotations

from ratings.systems import egf, uscf
from ratings.systems.model import RatingSystem
from ratings.systems.orr import rating as orr
from ratings.systems.rivne import rating as rivne
from ratings.systems.ufgo import rating as ufgo

SYSTEMS: dict[str, RatingSystem] = {
    egf.SYSTEM.code: egf.SYSTEM,
    orr.SYSTEM.code: orr.SYSTEM,
    rivne.SYSTEM.code: rivne.SYSTEM,
    ufgo.SYSTEM.code: ufgo.SYSTEM,
    uscf.SYSTEM.code: uscf.SYSTEM,
}
