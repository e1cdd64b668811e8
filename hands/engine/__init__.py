"""The hand rules as pure functions: button and blinds, betting, pots, showdown, places.

No Django here; services feed plain values in and store what comes out.
"""
