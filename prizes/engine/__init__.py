"""The prize money rules as pure Python: `deals` (ICM, chip chop). The exact splits and
the payout table's rules are `payouts.engine`'s. No Django here."""
