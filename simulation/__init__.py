"""A whole tournament run through Floorman's own services, for `manage.py simulate`.

`simulate(Config(...))` sells the field (re-entries, alternates), draws the seats,
plays rounds of hands at every table with the clock moved on by their time, breaks
and balances tables as the table map proposes, plays hand-for-hand on the bubble,
draws the final table, plays to a winner or a deal and pays every prize, checking
the invariants (`invariants`) after every step. The same seed gives the same event.

An installed app (for its command): Django imports this package before the models are
ready, so it imports nothing; `simulate` is in `run`, `Config` in `config`.
"""
