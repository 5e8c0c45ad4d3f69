"""Which Java releases wrote a table's metadata, as far as its fields tell.

Snapshot JSON fields (`snapshot_fields`) and metadata-record fields (`metadata_records`) in
specs/table_layout.yaml carry the first release that writes them (`since`), and a few the last
(`until`). A table carrying a field was written by a release in that range; the report names
the releases its metadata fits, the field that bounds each end, and the release a snapshot's
`writerVersion` claims (Java after 2.0.0).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from paimon_conform.core.java_releases import AFTER_NEWEST, RELEASES
from paimon_conform.table import table_layout as tl

ORDER = (*RELEASES, AFTER_NEWEST)
OLDEST = "0.9"  # the oldest release the kit models


def line(version: str) -> str:
    """The release line of a spec version: `1.3.0` → `1.3`; a version after the newest release → after-2.0."""
    head = ".".join(version.split(".")[:2])
    return head if head in RELEASES else AFTER_NEWEST


@cache
def _snapshot_fields() -> dict[str, dict]:
    return {f["name"]: f for f in tl.spec()["snapshot_fields"]["fields"]}


@dataclass
class ReleaseFit:
    """The range of releases whose writers write every field seen so far, and what bounds it."""

    low: str = OLDEST
    low_why: str = ""
    high: str = ORDER[-1]
    high_why: str = ""
    claimed: dict[str, str] = field(default_factory=dict)  # writerVersion → the first file that states it

    def see(self, since: str | None, until: str | None, what: str) -> None:
        """Narrow the range by one field: written from `since` and until `until` (spec versions)."""
        if since and ORDER.index(line(since)) > ORDER.index(self.low):
            self.low, self.low_why = line(since), f"{what} (Java {since} and later)"
        if until and ORDER.index(line(until)) < ORDER.index(self.high):
            self.high, self.high_why = line(until), f"{what} (Java {until} and earlier)"

    def snapshot(self, keys: frozenset[str], writer_version: str | None, file: str) -> None:
        """The fields of one snapshot, tag or changelog file."""
        for name in sorted(keys & _snapshot_fields().keys()):
            f = _snapshot_fields()[name]
            self.see(f.get("since"), f.get("until"), f"{name} in {file}")
        if writer_version is not None:
            self.claimed.setdefault(writer_version, file)

    def records(self, present: list[tuple[str, str]], file: str) -> None:
        """The (field path, since) pairs a metadata file's writer schema carries."""
        for path, since in present:
            self.see(since, None, f"{path} in {file}")

    def merge(self, other: ReleaseFit) -> None:
        """Take in what another part of the table (a branch) showed."""
        if ORDER.index(other.low) > ORDER.index(self.low):
            self.low, self.low_why = other.low, other.low_why
        if ORDER.index(other.high) < ORDER.index(self.high):
            self.high, self.high_why = other.high, other.high_why
        for v, file in other.claimed.items():
            self.claimed.setdefault(v, file)

    def describe(self) -> dict[str, object]:
        """The report's account: the releases the metadata fits and why, and any writerVersion claimed."""
        lo, hi = ORDER.index(self.low), ORDER.index(self.high)
        out: dict[str, object] = {
            "fits": list(ORDER[lo : hi + 1]) if lo <= hi else [],
            "oldest_because": self.low_why or f"no field newer than Java {OLDEST}",
        }
        if self.high_why:
            out["newest_because"] = self.high_why
        if self.claimed:
            out["writer_version"] = sorted(self.claimed)
        return out

    def text(self) -> str:
        """One line for the text report."""
        d = self.describe()
        fits = d["fits"]
        span = f"Java {fits[0]} to {fits[-1]}" if fits else "no single Java release"  # type: ignore[index]
        why = f"oldest: {d['oldest_because']}"
        if "newest_because" in d:
            why += f"; newest: {d['newest_because']}"
        claim = f"; writerVersion {', '.join(d['writer_version'])}" if "writer_version" in d else ""  # type: ignore[arg-type]
        return f"metadata fits {span} ({why}){claim}"
