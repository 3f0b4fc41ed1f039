"""The running-totals chart's axis labels."""

from companion.web.table_chart import tick_label


def test_tick_labels_carry_thousands_separators() -> None:
    assert tick_label(25000.0) == "25,000"
    assert tick_label(-12500.0) == "-12,500"
    assert tick_label(1000000.0) == "1,000,000"


def test_small_and_fractional_ticks_are_unchanged() -> None:
    assert tick_label(0.0) == "0"
    assert tick_label(-0.0) == "0"
    assert tick_label(2.5) == "2.5"
    assert tick_label(100.0) == "100"
    assert tick_label(1250.25) == "1,250.25"
