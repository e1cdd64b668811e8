"""The floor's rules as pure functions: bet interpretation, pot-limit amounts, pots and
odd chips, the chip race, the rule book index. No Django here.

Where the hands app already holds a rule (minimum raise, re-opening, pot-limit maximum,
side pots, odd chips) these modules call hands.engine rather than repeat it, and
seating.engine.blinds for the order from the button, so a tablet and a floor calculator
always agree.
"""
