"""The profiles the shared scorer runs: every registered one but those that read their own
requests (riichi, whose engine is tested in tests/test_riichi*.py). The tests of the shared
request, its contexts, the compiled tables and the agreed counts run over these."""

from __future__ import annotations

from companion.rules import profiles
from companion.rules.profile import AnyProfile

SHARED: dict[str, AnyProfile] = {
    key: profile for key, profile in profiles().items() if not profile.reads_own_requests
}
