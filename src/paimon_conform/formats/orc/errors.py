"""The one error of the ORC readers."""

from __future__ import annotations

from paimon_conform.core.errors import UsageError


class OrcError(UsageError):
    """The file's ORC structure cannot be decoded where the kit reads it itself (damaged, or a feature the
    readers lack)."""
