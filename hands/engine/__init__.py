"""The hand rules as pure functions: betting, pots, showdown, places, hand-for-hand,
which seats a player on penalty is dealt dead in (away: TDA 71-C, 68).
The button and blinds are the table's: seating.engine.blinds.

No Django here; services feed plain values in and store what comes out.
"""
