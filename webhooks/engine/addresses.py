"""Where a webhook may be sent (issue 22, item 4: no server-side request forgery).

A receiver names its URL; Floorman's server makes the request. Left alone, a director
(or a stolen director's key) could make the server reach what only it can reach: the
database, Redis, a cloud's metadata service at 169.254.169.254, the admin of a router.
So only http and https, and only public addresses, unless the house names the host
in its allow list (a server on the venue's own network). The check is made at
registration on the name's addresses, and again at each delivery on the address
actually connected to (floorman's transport pins it: DNS cannot switch it after the
check, `webhooks.transport`).
"""

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

SCHEMES = ("http", "https")
URL_MAX_LENGTH = 500

# Refusal codes; the services turn them into messages.
BAD_SCHEME = "scheme"
NO_HOST = "no_host"
CREDENTIALS = "credentials"
BAD_PORT = "port"
TOO_LONG = "too_long"
ADDRESS = "address"


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # lower case, no brackets
    port: int
    path: str  # with the query, "/" at least


def url_parse(url: str) -> Target | str:
    """The target of `url`, or the code of its refusal."""
    if len(url) > URL_MAX_LENGTH:
        return TOO_LONG
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return BAD_PORT
    if parts.scheme.lower() not in SCHEMES:
        return BAD_SCHEME
    if not parts.hostname:
        return NO_HOST
    if parts.username is not None or parts.password is not None:
        return CREDENTIALS  # a secret in the URL would show on every page that lists it
    if port == 0:
        return BAD_PORT
    scheme = parts.scheme.lower()
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme, parts.hostname.lower(), port or (443 if scheme == "https" else 80), path)


def address_refusal(address: str) -> str | None:
    """Why `address` may not be reached, or None for a public address.

    Refused: loopback, private (RFC 1918, fc00::/7), link-local (169.254/16, fe80::/10:
    the clouds' metadata services), shared (100.64/10), reserved, multicast and the
    unspecified address, IPv4 and IPv6, an IPv4 address wrapped in IPv6
    (::ffff:127.0.0.1, 6to4, Teredo) judged as the IPv4 address it carries. In short,
    everything that is not global."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone
    except ValueError:
        return "not an address"
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None:
            refusal = address_refusal(str(inner))
            if refusal:
                return refusal
    for name in ("loopback", "private", "link_local", "multicast", "unspecified", "reserved"):
        if getattr(ip, f"is_{name}"):
            return name
    if not ip.is_global:
        return "not global"
    return None


def host_allowed(host: str, allowed: tuple[str, ...] | list[str]) -> bool:
    """Whether the house allows `host` whatever its addresses (its allow list, names
    or addresses as written in URLs; case does not matter)."""
    host = host.lower().strip("[]").rstrip(".")
    return any(host == name.lower().strip("[]").rstrip(".") for name in allowed if name)


def addresses_refusal(host: str, addresses: list[str], allowed) -> str | None:
    """Why a host with these `addresses` may not be reached: any refused address refuses
    the host (a name that answers with a public and a private address could be made to
    reach the private one), unless the house allows the host."""
    if host_allowed(host, allowed):
        return None
    for address in addresses:
        if address_refusal(address):
            return ADDRESS
    return None
