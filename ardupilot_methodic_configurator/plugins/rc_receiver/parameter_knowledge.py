# SPDX-FileCopyrightText: 2026 The amc-rc-receiver authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the guided test knows of the vehicle's parameters: the values and the names it wants.

A value comes from the host's download where the host has one (the methodic configurator fills it
at connect) and else from the check's own reads; the names wanted depend on the vehicle family,
on the channels the receiver delivers and on RCMAP_*, which are among the values themselves, so
the names of the last lookup are looked up again, and once more only if the values found want
others.  Both are worked out at most once per snapshot (reading a large download for every
RC_CHANNELS would cost more than the poll itself), and again after a PARAM_VALUE answered: the
host may change its download between two polls, never during one.  None of the mappings is ever
written: the same object while nothing moved.
"""

from __future__ import annotations

from collections.abc import Mapping

from .evidence import ChannelSpans
from .firmware import RCMAP_DEFAULTS, VehicleFamily, wanted_parameters
from .host_facts import NO_VALUES, HostFacts, HostLookup
from .parameter_reads import ParameterReader
from .vehicle_identity import VehicleIdentity

# A family's names with and without a throttle channel known, and a few more: plenty.
_MAX_WANTED_MEMO = 16


class ParameterKnowledge:
    """The parameter values known and the names wanted, as of this snapshot."""

    def __init__(
        self, host: HostFacts, reader: ParameterReader, identity: VehicleIdentity, spans: ChannelSpans
    ) -> None:
        self._host = host
        self._reader = reader
        self._identity = identity
        self._spans = spans
        self._lookup = HostLookup()
        # The names the host's download was last looked up for, and the merge's parts and result.
        self._looked_up: tuple[str, ...] = ()
        self._merge: tuple[object, object, Mapping[str, float]] = (None, None, NO_VALUES)
        self._derived: tuple[Mapping[str, float], Mapping[str, float]] | None = None
        self._reads: tuple[int, Mapping[str, float]] = (-1, NO_VALUES)
        self._wanted_memo: dict[tuple[object, ...], tuple[str, ...]] = {}
        # The last answer and what it was for: asked twice a poll with the very same objects.
        self._last_wanted: tuple[object, VehicleFamily | None, int | None, tuple[str, ...]] = (
            None,
            None,
            -1,
            (),
        )

    def forget(self) -> None:
        """Work the values and the vehicle's family out again when next asked: the host (or a read,
        a HEARTBEAT, the banner) may have changed them since."""
        self._derived = None
        self._identity.forget_family()

    def host_and_values(self) -> tuple[Mapping[str, float], Mapping[str, float]]:
        """The host's numbers and all values known (the host's win), worked out once per snapshot."""
        if self._derived is None:
            version = self._reader.version
            if self._reads[0] != version:  # the reads are copied again only after they changed
                self._reads = (version, self._reader.values)
            self._derived = self._derive(self._identity.family(), self._reads[1])
        return self._derived

    def _derive(
        self, family: VehicleFamily, reads: Mapping[str, float]
    ) -> tuple[Mapping[str, float], Mapping[str, float]]:
        download = self._host.download()
        if not download:
            return NO_VALUES, reads
        names = self._looked_up or self.wanted(family, NO_VALUES)
        for _attempt in range(2):
            host = self._lookup.numbers(download, names)
            values = self._merged(reads, host)
            more = self.wanted(family, values)
            if more is names or more == names:
                break
            names = more
        self._looked_up = names
        return host, values

    def _merged(self, reads: Mapping[str, float], host: Mapping[str, float]) -> Mapping[str, float]:
        if self._merge[0] is not reads or self._merge[1] is not host:
            self._merge = (reads, host, {**reads, **host} if reads else host)
        return self._merge[2]

    def values(self) -> Mapping[str, float]:
        return self.host_and_values()[1]

    def wanted(self, family: VehicleFamily, values: Mapping[str, float]) -> tuple[str, ...]:
        """`wanted_parameters`, again only when the family, a stick channel or the number of
        channels the receiver delivers changed."""
        delivered = self._spans.delivered
        last = self._last_wanted
        # The mappings are never written, so the same one holds the same RCMAP_* values.
        if last[0] is values and last[1] is family and last[2] == delivered:
            return last[3]
        key = (family, delivered, *(values.get(name) for name in RCMAP_DEFAULTS))
        wanted = self._wanted_memo.get(key)
        if wanted is None:
            if len(self._wanted_memo) >= _MAX_WANTED_MEMO:
                self._wanted_memo.clear()
            wanted = self._wanted_memo[key] = wanted_parameters(family, dict(values), delivered)
        self._last_wanted = (values, family, delivered, wanted)
        return wanted
