#!/usr/bin/env python3
"""Inventory management for a small warehouse.

Used by the chunker tests as a realistic Python module.
"""

from __future__ import annotations

import argparse
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

logger = logging.getLogger(__name__)

DEFAULT_CAPACITY = 1000
SKU_PREFIX = "SKU-"


@dataclass
class Item:
    """A stocked item."""

    sku: str
    name: str
    quantity: int = 0
    tags: list[str] = field(default_factory=list)


class InventoryError(Exception):
    pass


class Warehouse:
    """A warehouse holds items up to a capacity.

    Items are keyed by SKU.
    """

    capacity: int

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = capacity
        self._items: dict[str, Item] = {}

    def add(self, item: Item) -> None:
        """Add an item, merging quantities when the SKU exists."""
        if not item.sku.startswith(SKU_PREFIX):
            raise InventoryError(f"bad sku {item.sku!r}")
        if item.sku in self._items:
            self._items[item.sku].quantity += item.quantity
        else:
            self._items[item.sku] = item
        if self.total() > self.capacity:
            raise InventoryError("over capacity")

    def remove(self, sku: str, quantity: int = 1) -> Item:
        """Take quantity units of sku out of stock."""
        item = self._items.get(sku)
        if item is None:
            raise InventoryError(f"unknown sku {sku!r}")
        if item.quantity < quantity:
            raise InventoryError(f"only {item.quantity} of {sku!r} left")
        item.quantity -= quantity
        if item.quantity == 0:
            del self._items[sku]
        return item

    def total(self) -> int:
        return sum(i.quantity for i in self._items.values())

    @property
    def skus(self) -> list[str]:
        """The stocked SKUs, sorted."""
        return sorted(self._items)

    def find(self, tag: str) -> list[Item]:
        # Linear scan: warehouses are small.
        return [i for i in self._items.values() if tag in i.tags]

    def save(self, path: Path) -> None:
        """Write the inventory as JSON."""
        data = {
            "capacity": self.capacity,
            "items": [
                {"sku": i.sku, "name": i.name, "quantity": i.quantity, "tags": i.tags}
                for i in self._items.values()
            ],
        }
        path.write_text(json.dumps(data, indent=2))
        logger.info("saved %d items to %s", len(self._items), path)

    @classmethod
    def load(cls, path: Path) -> "Warehouse":
        """Read an inventory written by save."""
        data = json.loads(path.read_text())
        w = cls(data.get("capacity", DEFAULT_CAPACITY))
        for raw in data.get("items", []):
            w.add(Item(raw["sku"], raw["name"], raw["quantity"], raw.get("tags", [])))
        return w

    def restock(self, threshold: int, amount: int) -> list[str]:
        """Top up every item below threshold by amount.

        Returns the SKUs that were restocked.
        """
        restocked = []
        for sku, item in sorted(self._items.items()):
            if item.quantity < threshold:
                item.quantity += amount
                restocked.append(sku)
        return restocked

    def report(self) -> str:
        lines = [f"{'SKU':<12} {'Name':<24} {'Qty':>6}"]
        for item in sorted(self._items.values(), key=lambda i: i.sku):
            lines.append(f"{item.sku:<12} {item.name:<24} {item.quantity:>6}")
        return "\n".join(lines)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, sku: object) -> bool:
        return sku in self._items


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse command-line arguments."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("inventory", type=Path)
    p.add_argument("--capacity", type=int, default=DEFAULT_CAPACITY)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    w = Warehouse.load(args.inventory)
    print(f"{len(w)} SKUs, {w.total()} units")
    return 0


try:
    from _inventory_speedups import checksum
except ImportError:

    def checksum(skus: list[str]) -> int:
        """A checksum of the SKUs, order-sensitive, for comparing two
        inventories without sending them whole."""
        total = 0
        for position, sku in enumerate(skus, start=1):
            for char in sku:
                total = (total * 31 + ord(char) * position) % 1_000_000_007
        return total


if __name__ == "__main__":
    raise SystemExit(main())
