"""The Singapore profiles, `sg` (docs/rules.md) and `sg-table` (docs/rules-sg-table.md): their
pattern tables (`patterns`), their options, each declared once for both (`options`), sg-table's
payout charts (`chart`) and the profiles with what they settle alike (`profile`)."""
