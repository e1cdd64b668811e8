"""Forms of the prize pages: `payouts` (the payout table) and `results` (places, payments,
deals)."""
