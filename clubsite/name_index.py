"""A name's skeleton (Шевчук, Ševčuk and Shevchuk are one name: see `skeleton`), and every
member's name by its skeleton, held in memory: one index for the duplicate
detector (whole names) and the search (each word, by prefix) (issues 14 and 56).

Built from one query over the members and kept per process while the members are
unchanged. Whether they changed is read from their highest id and last history row (every
save and delete through the ORM writes one; bulk creation moves the id): three index
lookups, where rebuilding at EGD scale (45,000 members) takes seconds (2-10 s measured on
a busy 2-core machine) and holds about 50 MB per process. A rename
by a bulk `update()` writes no history and is missed until the next change: none of the
application's writes renames that way.
"""

from __future__ import annotations

import bisect
import re
import threading
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Max

from clubsite.models import Member

# Ukrainian and Russian letters, each as one Latin spelling; the skeleton folds the rest.
CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "h", "ґ": "g", "д": "d", "е": "e", "є": "ie",
    "ё": "io", "ж": "zh", "з": "z", "и": "y", "і": "i", "ї": "i", "й": "i", "к": "k",
    "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "",
    "ы": "y", "ь": "", "э": "e", "ю": "iu", "я": "ia", "'": "", "’": "", "ʼ": "",
}  # fmt: skip
# Longest first: what different transliterations write for one sound.
FOLDS = [
    ("shch", "s"), ("sch", "s"), ("sz", "s"), ("sh", "s"), ("zh", "z"), ("ch", "c"),
    ("cz", "c"), ("tsch", "c"), ("tch", "c"), ("ts", "c"), ("tz", "c"), ("kh", "h"),
    ("ck", "k"), ("q", "k"), ("x", "ks"), ("w", "v"), ("ph", "f"), ("h", "g"), ("y", "i"),
    ("j", "i"), ("ie", "e"), ("ye", "e"), ("ii", "i"), ("iu", "u"), ("yu", "u"), ("ia", "a"),
    ("ya", "a"),
]  # fmt: skip


def skeleton(text: str) -> str:
    """A name as the transliterations agree on it (see the module's docstring)."""
    lowered = "".join(CYRILLIC.get(ch, ch) for ch in (text or "").lower())
    plain = "".join(
        ch for ch in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(ch)
    )
    plain = plain.replace("ł", "l").replace("ß", "ss")
    letters = re.sub(r"[^a-z0-9]", "", plain)
    for written, folded in FOLDS:
        letters = letters.replace(written, folded)
    # Doubled letters fold; doubled digits are another number ("Guest 11" is not "Guest 1").
    return re.sub(r"([a-z])\1+", r"\1", letters)


def name_keys(family_name: str, given_name: str) -> set[str]:
    """Both orders of the name: files write "Family Given" and "Given Family"."""
    family, given = skeleton(family_name), skeleton(given_name)
    if not family:
        return set()
    return {f"{family} {given}", f"{given} {family}"}


def native_keys(native_name: str) -> set[str]:
    parts = (native_name or "").split()
    if len(parts) < 2:
        return set()
    return name_keys(parts[0], " ".join(parts[1:])) | name_keys(parts[-1], " ".join(parts[:-1]))


# A word's skeleton this short matches too many names to be a search by itself.
MIN_PREFIX = 2


def word_key(word: str) -> str:
    """One word of a name for the search: its skeleton (digits kept: Family03)."""
    return skeleton(word)


@dataclass
class NameIndex:
    token: tuple[object, ...]
    by_key: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    by_word: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    words: list[str] = field(default_factory=list)  # sorted, for prefix search
    # "family given" as written (casefolded), to order results and find the exact one
    names: dict[int, str] = field(default_factory=dict)
    natives: dict[int, str] = field(default_factory=dict)

    def add(self, pk: int, family: str, given: str, native: str) -> None:
        self.names[pk] = " ".join(f"{family} {given}".casefold().split())
        if native:
            self.natives[pk] = " ".join(native.casefold().split())
        for key in name_keys(family, given) | native_keys(native):
            self.by_key[key].add(pk)
        for text in (family, given, native):
            for word in text.replace("-", " ").split():
                folded = word_key(word)
                if folded:
                    self.by_word[folded].add(pk)

    def ids_for_word(self, word: str) -> set[int]:
        """Members one of whose names' words starts as `word` does, in any spelling."""
        folded = word_key(word)
        if len(folded) < MIN_PREFIX:
            return set(self.by_word.get(folded, set())) if folded else set()
        found: set[int] = set()
        at = bisect.bisect_left(self.words, folded)
        while at < len(self.words) and self.words[at].startswith(folded):
            found |= self.by_word[self.words[at]]
            at += 1
        return found

    def ids_for(self, text: str) -> set[int]:
        """Members whose names hold every word of `text` (as a prefix, in any spelling)."""
        words = text.replace("-", " ").split()[:4]
        if not words:
            return set()
        found = self.ids_for_word(words[0])
        for word in words[1:]:
            found &= self.ids_for_word(word)
        return found


_lock = threading.Lock()
_cached: NameIndex | None = None


def _token() -> tuple[object, ...]:
    """Whether the members changed: each of these is one step down an index."""
    last = Member.objects.aggregate(last=Max("id"))["last"]
    history = Member.history.aggregate(last=Max("history_id"), at=Max("history_date"))
    return (last, history["last"], history["at"])


def member_name_index() -> NameIndex:
    """The index of the members as they are now (rebuilt only when they changed)."""
    global _cached
    token = _token()
    cached = _cached
    if cached is not None and cached.token == token:
        return cached
    with _lock:
        if _cached is not None and _cached.token == token:  # built while we waited
            return _cached
        index = NameIndex(token)
        rows = Member.objects.values_list("id", "family_name", "given_name", "native_name")
        for pk, family, given, native in rows.iterator(chunk_size=5000):
            index.add(pk, family, given, native)
        index.words = sorted(index.by_word)
        _cached = index
    return index


def forget_name_index() -> None:
    """Drop the cached index (tests roll back and reuse ids, which the token cannot see)."""
    global _cached
    _cached = None
