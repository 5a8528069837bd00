"""Requests checked against Discord's own OpenAPI description of its HTTP API.

Discord publishes the description in its ``discord-api-spec`` repository
(https://github.com/discord/discord-api-spec, file ``specs/openapi.json``). The emulator reads it
from the path in the ``DISCORD_API_SPEC`` environment variable; without it nothing is checked.

Every request that reaches a route is matched to the operation the description gives for that
route, and its path parameters, query parameters and JSON body (the ``payload_json`` part of a
multipart body) are validated with ``jsonschema``. The description's ``$ref`` links resolve
through one ``referencing`` registry; a validator is built once per operation and reused.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .errors import FormErrors

SPEC_ENV = "DISCORD_API_SPEC"
SPEC_SOURCE = "https://github.com/discord/discord-api-spec (specs/openapi.json)"
_SPEC_URI = "urn:discord-api-spec"
_PARAMETER = re.compile(r"^\{[^}]+\}$")
_JSON = "application/json"
_BOOLEANS = {"True": True, "true": True, "1": True, "False": False, "false": False, "0": False}
"""What Discord reads as a boolean in a query string."""
_NAMED_CONSTANT = {"const", "title", "description"}
_ERROR_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "required": "BASE_TYPE_REQUIRED",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "type": "BASE_TYPE_INVALID",
    "pattern": "STRING_TYPE_REGEX",
}


@dataclass(frozen=True, eq=False)
class SpecViolation:
    """A request the published description refuses: which call, which operation, and why."""

    method: str
    path: str
    operation: str
    errors: tuple[tuple[tuple[str | int, ...], str, str], ...]
    """(location, Discord-style error code, message) per problem; the location starts with
    ``"body"``, ``"path"`` or ``"query"``."""

    def form_errors(self) -> FormErrors:
        """The problems as the ``errors`` of Discord's 50035 Invalid Form Body answer."""
        errors = FormErrors()
        for where, code, message in self.errors:
            errors.add(where[1:] if where[0] == "body" else where[1:2], code, message)
        return errors

    def __str__(self) -> str:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in where)}: {message}" for where, _, message in self.errors
        )
        return f"{self.method} {self.path} ({self.operation}) breaks Discord's API description: {problems}"


@dataclass
class _Parameter:
    name: str
    where: str
    required: bool
    validator: Draft202012Validator
    segment: int | None = None
    """For a path parameter, its index among the path's segments."""


@dataclass
class Operation:
    """One operation of the description with its validators, built on first use."""

    operation_id: str
    template: str
    body: Draft202012Validator | None
    body_required: bool
    parameters: list[_Parameter] = field(default_factory=list)

    def check(self, method: str, path: str, query: Mapping[str, str], body: Any) -> SpecViolation | None:
        """The problems of one request (``path`` as sent, after ``/api/v{n}``), or None when it conforms."""
        errors = [*self._parameter_errors(path, query), *self._body_errors(body)]
        if not errors:
            return None
        return SpecViolation(method, path, self.operation_id, tuple(errors))

    def _parameter_errors(
        self, path: str, query: Mapping[str, str]
    ) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
        segments = path.strip("/").split("/")
        for parameter in self.parameters:
            if parameter.where == "path":
                assert parameter.segment is not None
                value: str | None = segments[parameter.segment]
            else:
                value = query.get(parameter.name)
            if value is None:
                if parameter.required:
                    yield (parameter.where, parameter.name), "BASE_TYPE_REQUIRED", "This field is required"
                continue
            readings = _typed_readings(value)
            if not any(parameter.validator.is_valid(reading) for reading in readings):
                error = best_match(parameter.validator.iter_errors(readings[-1]))
                assert error is not None
                yield (parameter.where, parameter.name), _code(error), _message(error)

    def _body_errors(self, body: Any) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
        if self.body is None:
            return
        if body is None:
            if self.body_required:
                yield ("body",), "BASE_TYPE_REQUIRED", "A request body is required"
            return
        for error in self.body.iter_errors(body):
            for cause in _causes(error):
                yield ("body", *cause.absolute_path), _code(cause), _message(cause)


def _causes(error: ValidationError) -> list[ValidationError]:
    """The errors that explain ``error``: for a ``oneOf``/``anyOf`` of component or option kinds, those
    of the alternatives whose ``type`` matched (the kind the sender meant), else ``error`` itself."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    by_branch: dict[Any, list[ValidationError]] = {}
    for cause in error.context:
        by_branch.setdefault(cause.relative_schema_path[0], []).append(cause)
    meant = [causes for causes in by_branch.values() if not any(map(_wrong_kind, causes))]
    if len(meant) != 1:
        return [error]
    return [leaf for cause in meant[0] for leaf in _causes(cause)]


def _typed_readings(value: str) -> list[Any]:
    """A query or path value is text on the wire; the description types it (integer, boolean...)."""
    readings: list[Any] = [value]
    if re.fullmatch(r"-?\d+", value):
        readings.append(int(value))
    if value in _BOOLEANS:
        readings.append(_BOOLEANS[value])
    return readings


def _wrong_kind(error: ValidationError) -> bool:
    """The alternative is for another kind of thing: its ``type`` field or JSON type differs."""
    if error.relative_path:
        return list(error.relative_path) == ["type"]
    return str(error.validator) == "type"


def _message(error: ValidationError) -> str:
    """jsonschema's message with the offending value shortened (it may be a whole message body)."""
    message, shown = str(error.message), repr(error.instance)
    return message if len(shown) <= 80 else message.replace(shown, shown[:60] + "...")


def _code(error: ValidationError) -> str:
    return _ERROR_CODES.get(str(error.validator), "BASE_TYPE_INVALID")


class ApiSpec:
    """Discord's OpenAPI description, ready to check requests route by route."""

    def __init__(self, document: dict[str, Any]) -> None:
        document = _with_integer_snowflakes(copy.deepcopy(document))
        _dispatch_on_type(document, document.get("components", {}).get("schemas", {}))
        self.document = document
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(_SPEC_URI, resource)
        self._templates = [
            (template, template.strip("/").split("/")) for template in document.get("paths", {})
        ]
        self._operations: dict[tuple[str, str], Operation | None] = {}

    @classmethod
    def from_env(cls) -> ApiSpec | None:
        """The description at ``$DISCORD_API_SPEC``, or None when the variable is unset or names no file."""
        location = os.environ.get(SPEC_ENV)
        if not location or not Path(location).is_file():
            return None
        return load_spec(str(Path(location).resolve()))

    def operation(self, method: str, route: str) -> Operation | None:
        """The operation for the emulator's ``route`` template (its parameter names may differ), cached."""
        key = (method.upper(), route)
        if key not in self._operations:
            self._operations[key] = self._build(method.lower(), route)
        return self._operations[key]

    def _match(self, route: str) -> str | None:
        wanted = route.strip("/").split("/")
        best: tuple[int, str] | None = None
        for template, segments in self._templates:
            if len(segments) != len(wanted):
                continue
            literal = 0
            for ours, theirs in zip(wanted, segments, strict=True):
                if _PARAMETER.match(theirs):
                    continue
                if ours != theirs:
                    break
                literal += 1
            else:
                if best is None or literal > best[0]:
                    best = (literal, template)
        return None if best is None else best[1]

    def _build(self, method: str, route: str) -> Operation | None:
        template = self._match(route)
        if template is None:
            return None
        item = self.document["paths"][template]
        spec = item.get(method)
        if spec is None:
            return None
        pointer = f"#/paths/{_escape(template)}"
        body = None
        request_body = spec.get("requestBody")
        if request_body is not None and _JSON in request_body.get("content", {}):
            body = self._validator(f"{pointer}/{method}/requestBody/content/{_escape(_JSON)}/schema")
        operation = Operation(
            operation_id=str(spec.get("operationId", f"{method} {template}")),
            template=template,
            body=body,
            body_required=bool(request_body and request_body.get("required")),
        )
        segments = template.strip("/").split("/")
        shared = [(f"{pointer}/parameters/{i}", p) for i, p in enumerate(item.get("parameters", []))]
        own = [(f"{pointer}/{method}/parameters/{i}", p) for i, p in enumerate(spec.get("parameters", []))]
        for where, parameter in shared + own:
            if parameter.get("in") not in ("path", "query") or "schema" not in parameter:
                continue
            name = str(parameter["name"])
            segment = segments.index(f"{{{name}}}") if parameter["in"] == "path" else None
            operation.parameters.append(
                _Parameter(
                    name,
                    str(parameter["in"]),
                    bool(parameter.get("required")) or parameter["in"] == "path",
                    self._validator(f"{where}/schema"),
                    segment,
                )
            )
        return operation

    def _validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=self.registry)


def _with_integer_snowflakes(document: dict[str, Any]) -> dict[str, Any]:
    """The description with a snowflake also allowed as a JSON integer.

    The description types every snowflake as a decimal string, which is how Discord sends them;
    Discord reads an integer as well, and discord.py sends integers (allowed mentions' ``users``
    and ``roles``, a reply's ``message_reference``). The document itself is left unchanged.
    """
    schemas = document.get("components", {}).get("schemas", {})
    snowflake = schemas.get("SnowflakeType")
    if snowflake is None:
        return document
    either = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    return {
        **document,
        "components": {**document["components"], "schemas": {**schemas, "SnowflakeType": either}},
    }


def _dispatch_on_type(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite, in place, each union of named constants as an ``enum``, and each union of object kinds
    told apart by their ``type`` field as a dispatch on it.

    The description lists message components, callback kinds and the like as ``oneOf``/``anyOf`` of
    schemas whose ``type`` property is a required, distinct constant. Validated literally, every
    alternative checks the whole value (a 5x5 board is 25 buttons, each tried as every component
    kind); dispatched on ``type`` (``if``/``then``), one alternative does, and its errors are the
    ones that explain a refusal. A value valid for one is valid for the other.
    """
    if isinstance(node, list):
        for item in node:
            _dispatch_on_type(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_on_type(value, schemas)
    for keyword in ("oneOf", "anyOf"):
        constants = _constants(node.get(keyword))
        if constants is not None:
            del node[keyword]
            node["enum"] = constants
            continue
        kinds = _kinds(node.get(keyword), schemas)
        if kinds is not None:
            del node[keyword]
            every = [kind for values, _ in kinds for kind in values]
            node["required"] = sorted({*node.get("required", []), "type"})
            node.setdefault("properties", {})["type"] = {"enum": every}
            node.setdefault("allOf", []).extend(
                {"if": {"properties": {"type": {"enum": values}}}, "then": branch} for values, branch in kinds
            )


def _constants(branches: Any) -> list[Any] | None:
    """The values of a union of named constants (an enumeration such as ``ButtonStyleTypes``), else None."""
    if not isinstance(branches, list) or not branches:
        return None
    if not all(isinstance(b, dict) and "const" in b and set(b) <= _NAMED_CONSTANT for b in branches):
        return None
    values = [branch["const"] for branch in branches]
    return values if len({json.dumps(value) for value in values}) == len(values) else None


def _kinds(branches: Any, schemas: dict[str, Any]) -> list[tuple[list[Any], dict[str, Any]]] | None:
    """(``type`` values, branch) per alternative, when every alternative is an object told by ``type``."""
    if not isinstance(branches, list) or len(branches) < 2:
        return None
    kinds: list[tuple[list[Any], dict[str, Any]]] = []
    seen: set[Any] = set()
    for branch in branches:
        reference = branch.get("$ref", "") if isinstance(branch, dict) else ""
        if not reference.startswith("#/components/schemas/") or len(branch) != 1:
            return None
        target = schemas.get(reference.rsplit("/", 1)[1], {})
        field = target.get("properties", {}).get("type", {})
        values = field.get("enum", [field["const"]] if "const" in field else None)
        if target.get("type") != "object" or "type" not in target.get("required", []) or not values:
            return None
        if seen & set(values):
            return None
        seen.update(values)
        kinds.append((list(values), branch))
    return kinds


def _escape(key: str) -> str:
    """A key as one step of a JSON pointer (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


@functools.cache
def load_spec(path: str) -> ApiSpec:
    """The description in the file at ``path``, read and prepared once per process."""
    return ApiSpec(json.loads(Path(path).read_text(encoding="utf-8")))


unclaimed: list[SpecViolation] = []
"""Every violation any emulator in this process recorded and no test claimed with
:meth:`DiscordEmulator.take_spec_violations`; the pytest fixtures fail the test that leaves one."""
