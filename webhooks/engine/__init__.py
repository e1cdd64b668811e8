"""The webhooks' rules as pure Python (issue 22): which audit entries become which
webhook events, which addresses a delivery may reach, and when it is tried again."""
