"""The lobby screens: the clock, the seating board beside it, the payouts; they tie the
clock, seating and prize money together."""
