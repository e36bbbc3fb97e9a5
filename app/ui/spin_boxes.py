"""Spin boxes over declared ranges (:class:`engine.core.numbers.Range`): how every form offers a number.

A box spans its range and shows its unit, with the decimals its lowest value needs (a 0.0001
rate must not read 0); a whole range gets a QSpinBox. What a form commits is then checked by the
same range (``Range.check``, through the model, the settings or the plan it fills in), so a form
refuses a value with the same code and sentence as the CLI and the project loader.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDoubleSpinBox, QSpinBox

from engine.core.numbers import Range

MIN_DECIMALS = 2  # hundredths, as the forms always showed


def decimals_for(low: float) -> int:
    """Enough decimals that the declared minimum is shown as itself (a 0.0001 rate must not read 0)."""
    decimals = MIN_DECIMALS
    while round(low, decimals) != low:
        decimals += 1
    return decimals


def unit_suffix(allowed: Range) -> str:
    """``allowed``'s unit as a spin box writes it after the number, in the studio's language (" 秒")."""
    return QCoreApplication.translate("units", allowed.suffix) if allowed.suffix else ""


def whole_spin(allowed: Range, special: str = "") -> QSpinBox:
    """A spin box over a whole range; ``special`` is shown for its lowest value when that value
    means something of its own (automatic, off, no cap)."""
    spin = QSpinBox()
    spin.setRange(int(allowed.low), int(allowed.high))
    spin.setSuffix(unit_suffix(allowed))
    spin.setSpecialValueText(special)
    return spin


def number_spin(allowed: Range, step: float = 1.0, decimals: int | None = None, scale: float = 1.0,
                suffix: str | None = None) -> QDoubleSpinBox:
    """A spin box over a range, shown ``scale`` times its values (a fraction as a percent, with
    its own ``suffix``) with ``decimals`` (default: what the lowest value needs)."""
    spin = QDoubleSpinBox()
    spin.setDecimals(decimals_for(allowed.low * scale) if decimals is None else decimals)  # before the range:
    spin.setRange(allowed.low * scale, allowed.high * scale)  # Qt rounds the range to the decimals
    spin.setSingleStep(step)
    spin.setSuffix(unit_suffix(allowed) if suffix is None else suffix)
    return spin
