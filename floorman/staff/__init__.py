"""Staff accounts and their access, managed by directors on the Staff page.

Directors create accounts, give and take roles, reset passwords, sign people out
everywhere and (de)activate accounts; everyone changes their own password. Each public
function is one intention: one transaction, one audit entry, nothing written on a
refusal. At least one active director always remains (common.director_kept). Split by
subject: accounts (create, roles, passwords), access (signing out, deactivating),
members (the Staff page's reads), common (what they share).
"""

from floorman.staff.access import access_end, account_active_set
from floorman.staff.accounts import (
    AccountPassword,
    account_create,
    account_password_reset,
    account_roles_set,
    password_change,
)
from floorman.staff.common import ROLE_LABELS, password_generate
from floorman.staff.members import StaffMember, staff_member, staff_members

__all__ = [
    "ROLE_LABELS",
    "AccountPassword",
    "StaffMember",
    "access_end",
    "account_active_set",
    "account_create",
    "account_password_reset",
    "account_roles_set",
    "password_change",
    "password_generate",
    "staff_member",
    "staff_members",
]
