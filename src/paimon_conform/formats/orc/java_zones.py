"""Java's time zones as java.util.TimeZone resolves an ID: offsets from the IANA database (zoneinfo) with
Java's rules on top (before 1900 the zone's standard offset, Java's own IDs: three-letter IDs, `GMT+hh:mm`;
GMT for an ID Java does not know), and ORC's conversions between a writer and a reader zone."""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo
from dataclasses import dataclass

import numpy as np

from paimon_conform.formats.orc.errors import OrcError

UTC1900_MS = -2208988800000  # ZoneInfo has no transitions before 1900: the raw offset applies
_CYCLE_SECONDS = 146097 * 86400  # 400 Gregorian years: rules after the last transition repeat
_MAX_SECONDS = 253402214400  # 9999-12-31T00:00:00Z, inside datetime's range in every zone
# Java's old three-letter IDs (sun.util.calendar.ZoneInfoFile, sun.timezone.ids.oldmapping=false)
JAVA_OLD_IDS = {
    "ACT": "Australia/Darwin",
    "AET": "Australia/Sydney",
    "AGT": "America/Argentina/Buenos_Aires",
    "ART": "Africa/Cairo",
    "AST": "America/Anchorage",
    "BET": "America/Sao_Paulo",
    "BST": "Asia/Dhaka",
    "CAT": "Africa/Harare",
    "CNT": "America/St_Johns",
    "CST": "America/Chicago",
    "CTT": "Asia/Shanghai",
    "EAT": "Africa/Addis_Ababa",
    "ECT": "Europe/Paris",
    "IET": "America/Indiana/Indianapolis",
    "IST": "Asia/Kolkata",
    "JST": "Asia/Tokyo",
    "MIT": "Pacific/Apia",
    "NET": "Asia/Yerevan",
    "NST": "Pacific/Auckland",
    "PLT": "Asia/Karachi",
    "PNT": "America/Phoenix",
    "PRT": "America/Puerto_Rico",
    "PST": "America/Los_Angeles",
    "SST": "Pacific/Guadalcanal",
    "VST": "Asia/Ho_Chi_Minh",
}
JAVA_FIXED_IDS = {"EST": -5 * 3600, "MST": -7 * 3600, "HST": -10 * 3600}
_CUSTOM_ID = re.compile(r"GMT([+-])(\d{1,2})(?::?(\d{2}))?")
_ETC_ID = re.compile(r"Etc/GMT([+-])(\d{1,2})")
_UTC_IDS = {"UTC", "GMT", "UCT", "Universal", "Zulu", "Greenwich", "GMT0", "GMT+0", "GMT-0"}
_UTC_IDS |= {f"Etc/{z}" for z in (*_UTC_IDS, "GMT+0", "GMT-0")}


@dataclass(frozen=True)
class JavaZone:
    """A java.util.TimeZone as Java resolves an ID: IANA rules, or a fixed offset."""

    id: str
    tz: dt.tzinfo
    raw_seconds: int  # getRawOffset(): the offset Java applies before 1900

    def offset_ms(self, millis: np.ndarray) -> np.ndarray:
        """TimeZone.getOffset(millis) for every value (int64 ms)."""
        millis = np.asarray(millis, dtype=np.int64)
        out = np.full(millis.shape, self.raw_seconds * 1000, dtype=np.int64)
        if isinstance(self.tz, dt.timezone) or not millis.size:
            return out
        late = millis >= UTC1900_MS
        secs = np.floor_divide(millis[late], 1000)
        hours = np.floor_divide(secs, 3600)
        uniq, inverse = np.unique(hours, return_inverse=True)
        starts = np.array([self._offset_s(int(h) * 3600) for h in uniq], dtype=np.int64)
        ends = np.array([self._offset_s(int(h) * 3600 + 3599) for h in uniq], dtype=np.int64)
        result = starts[inverse]
        mixed = np.flatnonzero((starts != ends)[inverse])  # a transition inside that hour
        for i in mixed:
            result[i] = self._offset_s(int(secs[i]))
        out[late] = result * 1000
        return out

    def _offset_s(self, secs: int) -> int:
        if secs > _MAX_SECONDS:  # past the last transition the rules repeat every 400 years
            secs -= -(-(secs - _MAX_SECONDS) // _CYCLE_SECONDS) * _CYCLE_SECONDS
        off = dt.datetime.fromtimestamp(secs, self.tz).utcoffset()
        return int(off.total_seconds()) if off is not None else 0


def _fixed(zone_id: str, seconds: int) -> JavaZone:
    return JavaZone(zone_id, dt.timezone(dt.timedelta(seconds=seconds)), seconds)


@functools.cache
def java_zone(zone_id: str) -> JavaZone:
    """The zone `TimeZone.getTimeZone(zone_id)` gives (GMT for an ID Java does not know)."""
    if zone_id in JAVA_FIXED_IDS:
        return _fixed(zone_id, JAVA_FIXED_IDS[zone_id])
    m = _CUSTOM_ID.fullmatch(zone_id)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours <= 23 and minutes <= 59:
            return _fixed(zone_id, (1 if m.group(1) == "+" else -1) * (hours * 3600 + minutes * 60))
        return _fixed("GMT", 0)
    key = JAVA_OLD_IDS.get(zone_id, zone_id)
    if key in _UTC_IDS:
        return _fixed(zone_id, 0)
    m = _ETC_ID.fullmatch(key)
    if m and int(m.group(2)) <= 14:  # POSIX signs: Etc/GMT-8 is eight hours east
        return _fixed(zone_id, (-1 if m.group(1) == "+" else 1) * int(m.group(2)) * 3600)
    try:
        tz = zoneinfo.ZoneInfo(key)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        if not _have_tz_database():
            raise OrcError(f"no IANA time zone database to resolve {zone_id!r}: install the tzdata package") from None
        return _fixed("GMT", 0)
    jan = dt.datetime(2100, 1, 15, tzinfo=dt.UTC).astimezone(tz).utcoffset()
    jul = dt.datetime(2100, 7, 15, tzinfo=dt.UTC).astimezone(tz).utcoffset()
    raw = int(min(jan, jul).total_seconds()) if jan is not None and jul is not None else 0
    return JavaZone(zone_id, tz, raw)


@functools.cache
def _have_tz_database() -> bool:
    try:
        zoneinfo.ZoneInfo("America/New_York")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def java_offset_ms(zone_id: str, millis: np.ndarray) -> np.ndarray:
    """Java's `TimeZone.getTimeZone(zone_id).getOffset(millis)` for every value."""
    return java_zone(zone_id).offset_ms(millis)


def orc_epoch(zone: JavaZone) -> int:
    """ORC's base: 2015-01-01 00:00:00 in the zone, as epoch seconds."""
    local = 1420070400
    guess = local - int(zone.offset_ms(np.array([local * 1000]))[0] // 1000)
    return local - int(zone.offset_ms(np.array([guess * 1000]))[0] // 1000)


def convert_between(writer: JavaZone, reader: JavaZone, millis: np.ndarray) -> np.ndarray:
    """ORC's SerializationUtils.convertBetweenTimezones: the shift from writer to reader wall clock."""
    w = writer.offset_ms(millis)
    adjusted = millis + w - reader.offset_ms(millis)
    return w - reader.offset_ms(adjusted)
