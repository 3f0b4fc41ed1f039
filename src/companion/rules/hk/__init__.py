"""`hk`: Hong Kong old style, counted in faan (docs/rules-hk.md).

Four sets and a pair or Thirteen Orphans (seven pairs as a house rule); a 3-faan minimum counted
without the flower faan; a 13-faan maximum that limit hands score alone; one payment is
base x M(faan) on the half-spicy or spicy curve, with full or half gun on a discard.

The checks of a win's circumstances are Singapore's (the same circumstances, heavenly and earthly
hands, a robbed kong entered as a discard), so the profile builds on
`companion.rules.singapore.profile.SingaporeRules`; its pattern table (`patterns`), options
(`options`) and settlement (`profile`, the registered `HK`) are its own.
"""
