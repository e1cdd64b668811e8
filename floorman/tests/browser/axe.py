"""axe-core in the browser tests (issue 21): the WCAG 2.2 AA scan of a page as it stands.

axe-core comes bundled with axe-playwright-python (a pinned dev dependency); it is put
into the page under test and run there, over the whole document.
"""

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()
SEVERE = ("serious", "critical")  # what fails a test; "moderate" and "minor" are listed only
# WCAG 2.0, 2.1 and 2.2, levels A and AA, and axe's best practices (landmarks, headings).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def violations(page: Page, *, impacts=SEVERE) -> list[str]:
    """Each violation of the given impacts on the page, as one readable line per element:
    the rule, its impact, where and axe's summary of what to fix."""
    page.wait_for_load_state("networkidle")
    found = AXE.run(
        page, options={"resultTypes": ["violations"], "runOnly": {"type": "tag", "values": TAGS}}
    ).response["violations"]
    return [
        f"{rule['id']} ({rule['impact']}) at {node['target']}: "
        f"{fix_summary(node)} — {node['html'][:160]}"
        for rule in found
        if rule["impact"] in impacts
        for node in rule["nodes"]
    ]


def fix_summary(node: dict) -> str:
    """The last line of axe's failure summary: what to fix (it may give none)."""
    return (node.get("failureSummary") or "").strip().rpartition("\n")[2]
