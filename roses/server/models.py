"""Request and response bodies of the JSON API (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Error(BaseModel):
    detail: str = Field(description="What went wrong, for a person to read.")
    code: str = Field(description="A stable machine-readable code, e.g. stale_version, illegal_action.")


class Health(BaseModel):
    status: str
    database: str
    version: str
    schema_revision: str | None = Field(default=None, description="Alembic revision of the database.")


class SignupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=2, max_length=30)
    password: str = Field(min_length=1, max_length=1024)
    email: str | None = Field(default=None, max_length=254)


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=100)
    password: str = Field(max_length=1024)


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)
    keep_tokens: bool = Field(default=False, description=(
        "Keep the account's API tokens valid; by default a password change revokes them all."))


class Me(BaseModel):
    id: int
    name: str
    is_admin: bool
    csrf_token: str | None = Field(default=None, description="Send it back in X-CSRF-Token on cookie-authenticated writes.")


class TokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)


class TokenOut(BaseModel):
    id: int
    name: str
    created_at: float
    last_used: float | None = None
    token: str | None = Field(default=None, description="Only in the answer to its creation: keep it.")


class ScenarioOut(BaseModel):
    id: str
    name: str
    roles: list[str]


class RulesOut(BaseModel):
    id: str
    title: str
    scenarios: list[ScenarioOut]
    options: dict[str, Any]
    preview: bool = Field(default=False, description=(
        "In development: games of it are created only with preview=true (the lobby's preview switch)."))
    umpire: str | None = Field(default=None, description="The role of the game's umpire's seat, if it has one.")
    rounds: bool = Field(default=False, description="Played in rounds, with a gazette of each.")
    client: str | None = Field(default=None, description="The browser client's module for this game's views.")


class CreateGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, description="Game id (GET /api/rules lists them).")
    scenario: str | None = Field(default=None, max_length=80)
    options: dict[str, Any] = Field(default_factory=dict)
    title: str | None = Field(default=None, max_length=120)
    private: bool = Field(default=False, description="Private games are seen only with the invite token.")
    role: str | None = Field(default=None, max_length=40,
                             description="Seat to take at once: a role, 'random', or none.")
    bots: dict[str, str] = Field(default_factory=dict, description="Bots by role, e.g. {'Lancaster': 'random'}.")
    pace: str | None = Field(default=None, max_length=16)
    preview: bool = Field(default=False, description="Allow a game still in development (RulesOut.preview).")


class SeatOut(BaseModel):
    role: str
    user: str | None
    bot: str | None
    active: bool


class SeatChangeOut(BaseModel):
    role: str
    from_: str | None = Field(default=None, alias="from", description="Who left the seat.")
    to: str | None = Field(default=None, description="Who took it.")
    text: str
    at: float

    model_config = ConfigDict(populate_by_name=True)


class GameOut(BaseModel):
    id: int
    game: str
    scenario: str
    options: dict[str, Any]
    title: str
    status: str = Field(description="open, active or finished")
    private: bool
    version: int = Field(description="Number of actions played; send it with each action.")
    active: list[str] = Field(description="Roles that may act now.")
    result: str | None
    owner: str | None
    pace: str | None
    created_at: float
    updated_at: float
    seats: list[SeatOut]
    my_roles: list[str]
    your_turn: bool
    one_seat: bool = Field(default=True, description="A person may hold only one seat of this game "
                           "(its roles hide things from each other).")
    played_with: str = Field(default="", description="What the game is played with (e.g. the board a group "
                             "supplied), in words; empty when there is nothing to say.")
    umpire: str | None = Field(default=None, description="The role of the game's umpire's seat, if it has one.")
    invite_token: str | None = Field(default=None, description="Only for the owner of a private game.")
    invite_link: str | None = Field(default=None, description="Path of the invitation page (owner only).")
    seat_changes: list[SeatChangeOut] = Field(
        default_factory=list, description="Every change of a seat since the start, oldest first (public).")


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str | None = Field(default=None, max_length=40, description="A role, or none for a random free seat.")
    invite: str | None = Field(default=None, max_length=64)


class LeaveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str | None = Field(default=None, max_length=40)


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str = Field(max_length=40)
    bot: str | None = Field(default="random", max_length=80, description="Bot name, or null to free the seat.")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str | None = Field(default=None, max_length=40, description="Needed when you hold several seats.")
    verb: str = Field(min_length=1, max_length=80)
    arg: Any = None
    version: int = Field(description="The game version your request was made on.")


class VersionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str | None = Field(default=None, max_length=40)
    version: int


class ViewOut(BaseModel):
    game_id: int
    version: int
    role: str
    status: str
    result: str | None
    active: list[str]
    view: dict[str, Any] | None = Field(description="Rules.view for this role (null before the start).")
    can_undo: bool
    deadline: float | None = Field(None, description="When the role's open decision with a published default "
                                   "(view.default) is played for it: its clock's end, Unix seconds "
                                   "(only while that clock runs).")


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=2000)


class ChatOut(BaseModel):
    id: int
    user: str | None
    text: str
    time: float


class NoteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=20000)


class NoteOut(BaseModel):
    role: str
    text: str


class ActionRecord(BaseModel):
    role: str
    verb: str
    arg: Any = None


class ReplayOut(BaseModel):
    game_id: int
    steps: int = Field(description="Number of positions: setup plus one per action.")
    roles: list[str]
    result: str | None
    actions: list[ActionRecord]


class ReplayStepOut(BaseModel):
    game_id: int
    step: int
    role: str
    action: ActionRecord | None
    action_label: str | None = Field(
        default=None, description="The step's action as it was offered (Rules.label), for display.")
    view: dict[str, Any]


class ExportOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    format: str
    game: str
    scenario: str
    options: dict[str, Any]
    seed: int | None
    actions: list[ActionRecord]
    result: str | None
    players: list[dict[str, Any]]
