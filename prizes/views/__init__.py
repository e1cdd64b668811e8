"""The prize pages: `payouts` (the payout table, public results) and `results` (places,
payments, deals)."""
