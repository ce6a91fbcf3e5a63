"""Where webhooks may go: public addresses only, checked on the address actually connected to.

A user chooses the URL, so without care the server would post to whatever it can reach:
services listening on this machine, the private network, the cloud metadata address. Two
checks close that:

* when the URL is saved (:func:`check_url`): https, and a host that is not this machine or a
  non-public address in *any* spelling an address may take (``127.1``, ``2130706433``,
  ``0x7f000001``, ``017700000001``, ``0``, a trailing dot, IPv4-mapped IPv6, ...);
* when a webhook is sent (:class:`GuardedTransport`): the host name is resolved once, every
  address it resolves to must be public, and the connection goes to that checked address (a
  name that resolves to a private address, or that changes its answer between the check and
  the connection, gets nowhere). TLS still verifies the certificate for the host name.
  Redirects are not followed; proxies from the environment are not used.

``ROSES_WEBHOOK_ALLOW_LOCAL=1`` (tests, local development) also allows loopback addresses
and plain http to them.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import ssl
from typing import Any
from urllib.parse import urlsplit

import certifi
import httpcore
import httpx

from roses.server.errors import BadRequest

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def local_allowed() -> bool:
    return (os.environ.get("ROSES_WEBHOOK_ALLOW_LOCAL") or "").lower() in ("1", "true", "yes", "on")


def literal_address(host: str) -> Address | None:
    """The address ``host`` spells, in any form the resolver would accept, else None."""
    host = host.strip().rstrip(".").strip("[]")
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    try:  # the classic forms: 127.1, 2130706433, 0x7f000001, 017700000001, 0
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, ValueError):
        return None


#: IPv6 prefixes whose last 32 bits are an IPv4 address: NAT64's well-known and local-use
#: prefixes (RFC 6052, RFC 8215) and the IPv4-compatible addresses (``::a.b.c.d``, RFC 4291).
_IPV4_IN_LAST_32 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"),
                    ipaddress.IPv6Network("::/96"))


def _embedded(ip: Address) -> Address:
    """The IPv4 address inside an IPv4-mapped, 6to4, Teredo, NAT64 or IPv4-compatible IPv6
    address (``::`` and ``::1`` are themselves)."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if inner is not None:
            return inner
        if int(ip) > 1 and any(ip in net for net in _IPV4_IN_LAST_32):
            return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip


def address_allowed(ip: Address) -> bool:
    """Public unicast addresses; loopback only with ``ROSES_WEBHOOK_ALLOW_LOCAL``."""
    ip = _embedded(ip)
    if ip.is_loopback:
        return local_allowed()
    return ip.is_global and not ip.is_multicast


def _local_name(host: str) -> bool:
    host = host.rstrip(".")
    return host == "localhost" or host.endswith(".localhost")


def check_url(url: str) -> str:
    """``url`` if a webhook may be sent to it (see the module docs), else :class:`BadRequest`."""
    parts = urlsplit(url)
    try:
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        host = ""
    ip = literal_address(host) if host else None
    local = _local_name(host) or (ip is not None and _embedded(ip).is_loopback)
    if local and local_allowed() and parts.scheme in ("http", "https"):
        return url
    if parts.scheme == "https" and host and not local and (ip is None or address_allowed(ip)):
        return url
    raise BadRequest("A webhook URL is https:// to a public host"
                     + (", or http:// to localhost." if local_allowed() else "."), code="bad_webhook_url")


class NotPublic(httpcore.ConnectError):
    """The webhook's host has no public address (or does not resolve)."""


async def resolve_checked(host: str, port: int) -> str:
    """The address to connect to for ``host``: it resolves, and only to allowed addresses."""
    refusal = f"{host} has no public address to send the webhook to"
    ip = literal_address(host)
    if ip is not None:
        found = [ip]
    else:
        if _local_name(host) and not local_allowed():
            raise NotPublic(refusal)
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            raise NotPublic(refusal) from None  # the same answer as for a private address
        found = []
        for info in infos:
            address = literal_address(str(info[4][0]))
            if address is not None:
                found.append(address)
    if not found or not all(address_allowed(a) for a in found):
        raise NotPublic(refusal)
    return str(found[0])


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to checked addresses."""

    def __init__(self) -> None:
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None, socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        address = await resolve_checked(host, port)
        return await self._inner.connect_tcp(address, port, timeout=timeout, local_address=local_address,
                                             socket_options=socket_options)

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        raise NotPublic("webhooks do not go to local sockets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class GuardedTransport(httpx.AsyncHTTPTransport):
    """An httpx transport whose connections go only to checked public addresses."""

    def __init__(self) -> None:
        super().__init__(trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl.create_default_context(cafile=certifi.where()),
            network_backend=GuardedBackend(), max_connections=20, keepalive_expiry=5.0)


def client(timeout: float) -> httpx.AsyncClient:
    """The HTTP client webhooks are sent with: guarded, no redirects, no proxies."""
    return httpx.AsyncClient(transport=GuardedTransport(), timeout=timeout, follow_redirects=False,
                             trust_env=False, headers={"User-Agent": "Roses-notifier"})
