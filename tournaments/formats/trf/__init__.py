"""FIDE Tournament Report File, TRF16 and TRF26 (chess).

Layout: `shared/spec/formats.md` §2. Fixed columns, counted from 1; a line's
first three characters are its record code. The `001` player record is the
same in both versions; TRF26 adds `###` comment lines and new records.
"""

from tournaments.formats.trf.layout import Version
from tournaments.formats.trf.reading import parse
from tournaments.formats.trf.writing import write

__all__ = ["Version", "parse", "write"]
