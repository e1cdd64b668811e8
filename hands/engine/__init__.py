"""The hand rules as pure functions: betting, pots, showdown, places, hand-for-hand.
The button and blinds are the table's: seating.engine.blinds.

No Django here; services feed plain values in and store what comes out.
"""
