"""Settle-up: the fewest transfers that square a table's totals."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.ledger.errors import LedgerError
from companion.settlement import format_amount

# ---------------------------------------------------------------------------------------------
# Settle-up


@dataclass(frozen=True)
class Transfer:
    payer: int
    payee: int
    amount: Fraction


def settle_up(totals: Sequence[Fraction]) -> list[Transfer]:
    """The fewest transfers that bring every total to zero.

    With n players owed or owing, the fewest transfers are n minus the largest number of groups
    the players split into with each group summing to zero; inside a group of k, paying the
    largest debt to the largest credit settles it in k - 1 transfers. The split is searched
    exactly (a table has four players)."""
    if sum(totals, Fraction(0)) != 0:
        raise LedgerError("the totals do not sum to zero: the record is inconsistent")
    open_players = [index for index, total in enumerate(totals) if total != 0]
    best: list[list[int]] = []
    for partition in _partitions(open_players):
        if len(partition) > len(best) and all(
            sum((totals[i] for i in block), Fraction(0)) == 0 for block in partition
        ):
            best = partition
    transfers: list[Transfer] = []
    for block in best:
        transfers.extend(_settle_block({index: totals[index] for index in block}))
    return sorted(transfers, key=lambda t: (t.payer, t.payee))


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1 :]]


def _settle_block(balance: dict[int, Fraction]) -> list[Transfer]:
    transfers: list[Transfer] = []
    while any(balance.values()):
        payer = min(balance, key=lambda i: (balance[i], i))
        payee = max(balance, key=lambda i: (balance[i], -i))
        amount = min(-balance[payer], balance[payee])
        transfers.append(Transfer(payer, payee, amount))
        balance[payer] += amount
        balance[payee] -= amount
    return transfers


def transfer_text(players: Sequence[str], transfer: Transfer) -> str:
    return (
        f"{players[transfer.payer]} pays {players[transfer.payee]} {format_amount(transfer.amount)}"
    )
