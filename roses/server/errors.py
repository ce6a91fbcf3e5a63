"""Errors the server turns into HTTP status codes (and WebSocket error messages).

Messages are meant for the user and never carry hidden information: an illegal action's
message is the rules' own (which must not reveal anything either).
"""

from __future__ import annotations


class ServerError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, errors: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        #: Each fault found, one message each (e.g. every problem of an uploaded file), when
        #: there are several: sent as ``errors`` beside ``detail``.
        self.errors = errors


class BadRequest(ServerError):
    status = 400
    code = "bad_request"


class Unauthorized(ServerError):
    status = 401
    code = "not_logged_in"


class Forbidden(ServerError):
    status = 403
    code = "forbidden"


class NotFound(ServerError):
    status = 404
    code = "not_found"


class Conflict(ServerError):
    status = 409
    code = "conflict"


class StaleVersion(Conflict):
    code = "stale_version"


class Invalid(ServerError):
    """The request is well formed but the game's rules refuse it (illegal action)."""

    status = 422
    code = "illegal_action"


class TooManyRequests(ServerError):
    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ServiceUnavailable(ServerError):
    status = 503
    code = "unavailable"
