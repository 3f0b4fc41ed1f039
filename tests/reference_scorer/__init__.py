"""TEST ONLY: the scorer as it was before the redesign of the hot path (issue 16).

A frozen copy of `companion.scoring`, `companion.settlement`, `companion.shapes` and
`companion.rules`, importing only the unchanged parts of the engine (tiles, hands, contexts,
requests, errors). `tests/test_differential.py` scores the same seeded hands with it and with
the engine and compares every field of the results. It is never imported by `companion`, and it
goes away once the full differential run has been clean.
"""
