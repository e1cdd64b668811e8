"""The live-reporting feed of an event (issue 18, item 7), for live-reporting sites and
results databases: its JSON (api.py, documented in the OpenAPI schema), its Atom feed and
the results export (views.py), all read from one place (reads.py). Public, cacheable and
rate-limited; only what the house publishes."""
