"""The prize money rules as pure Python: `money` (exact splits), `payouts` (places paid,
the payout curve) and `deals` (ICM, chip chop). No Django here."""
