"""The payout table's rules as pure Python: `money` (exact splits) and `payouts` (places
paid, the payout curve, a hand-typed table's problems). No Django here."""
