"""`tw`: the mahjchina Taiwanese 16-tile profile, as docs/rules-tw.md reads it.

Five sets and a pair (17 structural tiles) or seven different pairs and a triplet; tai add up
without a cap; payments are in rule points (base + per tai), with dealer tai on the payments
that involve the dealer. The pattern table is `patterns`, the options `options`, the checks and
the settlement `profile` (the registered `TW`).
"""
