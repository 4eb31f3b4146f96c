"""Least recently used first, as a Python policy: reproduces odr-sim's built-in ``lru``.

A pack's use is its arrival, every request that includes it, and the end of its last
access; victims are taken from the least recent, skipping packs that are not candidates of
the demand (held, awaited, of another app). Run it with::

    odr-sim replay Scenarios/traces/zipf-20k.csv --capacity 10% \\
        --policy-plugin examples/plugins/lru.py:LRU --policy LRU --policy lru

or from Python: ``odrsim.replay("Scenarios/traces/zipf-20k.csv", capacity="10%", policy=LRU)``.
"""
from collections import OrderedDict


class LRU:
    """The packs on the device, least recently used first (an ordered dict of pack ids)."""

    def __init__(self, **options):
        self.order = OrderedDict()

    def _use(self, pack):
        self.order[pack.id] = None
        self.order.move_to_end(pack.id)

    def stored(self, pack):
        self._use(pack)

    def accessed(self, pack):
        self._use(pack)

    def released(self, pack):
        self._use(pack)

    def removed(self, pack):
        self.order.pop(pack.id, None)

    def select_victims(self, view):
        """Pack ids in removal order, freeing at least ``view.bytes``."""
        victims, freed = [], 0
        for pack in self.order:
            if freed >= view.bytes:
                break
            size = view.size(pack)
            if size is not None:
                victims.append(pack)
                freed += size
        return victims
