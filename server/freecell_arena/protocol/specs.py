"""The machine-readable descriptions of the protocol, built from the message unions of `registry.py` and the tables of
`contract.py`: the JSON Schema of every frame (`docs/schema/protocol.json`), an AsyncAPI 3.0 document of the
websocket (`docs/schema/asyncapi.json`) and an OpenAPI 3.1 document of `/api/` (`docs/schema/openapi.json`).

Requests are described as the server reads them (pydantic's validation schema: a seed may be a decimal string or a
safe JSON integer), server frames as the server writes them (serialization schema: every field always there, a seed
always a string). A type that differs between the two is named `X-Input` and `X-Output`.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, models_json_schema
from pydantic_core import core_schema

from freecell_arena.protocol.contract import (
    CONTRACT,
    HTTP_COMMON_ERRORS,
    HTTP_ROUTES,
    SERVER_EVENTS,
    STREAM_ROUTES,
    Exchange,
    HttpRoute,
    StreamRoute,
    http_status,
)
from freecell_arena.protocol.errors import ErrorCode, ErrorMessage
from freecell_arena.protocol.export import NDJSON, NEXT_PAGE_HEADER, ExportGame
from freecell_arena.protocol.registry import CLIENT_MODELS, SERVER_MODELS
from freecell_arena.protocol.session import DEFAULT_LIMITS
from freecell_arena.protocol.wire import PROTOCOL_VERSION

JsonObject = dict[str, Any]
Refs = dict[tuple[Any, JsonSchemaMode], JsonObject]
"""Each top-level model's reference, by (model, mode)."""


TITLE = "FreeCell Arena"


def type_name(model: type[BaseModel]) -> str:
    return str(model.model_fields["type"].default)


class WireSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema, where a server frame's fields are all required: the server writes every field of a
    model, defaults included (a client generating types from the schema may count on them). A `TypedDict`'s
    `NotRequired` keys stay optional (a view change's `cells` and `foundations` come only when changed)."""

    def field_is_required(
        self,
        field: core_schema.ModelField | core_schema.DataclassField | core_schema.TypedDictField,
        total: bool,
    ) -> bool:
        if self.mode == "serialization" and field["type"] != "typed-dict-field":
            return True
        return super().field_is_required(field, total)


def _schemas(ref_template: str) -> tuple[Refs, JsonObject]:
    """Every model's schema: (the reference of each top-level model, the definitions)."""
    wanted: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        *((model, "validation") for model in CLIENT_MODELS),
        *((model, "serialization") for model in SERVER_MODELS),
    ]
    refs, schema = models_json_schema(wanted, by_alias=True, ref_template=ref_template, schema_generator=WireSchema)
    return dict(refs), schema.get("$defs", {})


def _reachable(document: object, schemas: JsonObject) -> JsonObject:
    """The schemas `document` refers to, directly or through each other (the rest left out)."""
    prefix = "#/components/schemas/"
    kept: JsonObject = {}
    pending = [document]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix) and ref[len(prefix):] not in kept:
                name = ref[len(prefix):]
                kept[name] = schemas[name]
                pending.append(schemas[name])
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return dict(sorted(kept.items()))


def _ref(refs: Refs, model: type[BaseModel]) -> JsonObject:
    mode: JsonSchemaMode = "validation" if model in CLIENT_MODELS else "serialization"
    return refs[(model, mode)]


def _text(document: JsonObject) -> str:
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------- JSON Schema


def schema_text() -> str:
    """One JSON Schema document: `$defs` for every model, `oneOf` for each direction."""
    refs, defs = _schemas("#/$defs/{model}")
    schema: JsonObject = {
        "$defs": defs,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "FreeCell Arena protocol",
        "description": f"FreeCell Arena websocket protocol version {PROTOCOL_VERSION}. Requests as the "
        "server reads them; server frames as it writes them (every field always present).",
        "properties": {
            "client_to_server": {"oneOf": [_ref(refs, model) for model in CLIENT_MODELS]},
            "server_to_client": {"oneOf": [_ref(refs, model) for model in SERVER_MODELS]},
        },
        "type": "object",
    }
    return _text(schema)


# ---------------------------------------------------------------------------- AsyncAPI 3.0


def _summary(model: type[BaseModel]) -> str:
    doc = (model.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split())


def _frames_description(exchange: Exchange) -> str:
    lines = []
    for frame in exchange.to_you:
        tag = " (with the request's `id`)" if frame.answers else ""
        lines.append(f"- `{frame.type_name}`{tag}{': ' + frame.when if frame.when else ''}")
    if exchange.to_others:
        lines.append("\nTo the others in your room:")
        lines += [f"- `{frame.type_name}`{': ' + frame.when if frame.when else ''}" for frame in exchange.to_others]
    codes = ", ".join(f"`{code.value}`" for code in sorted(exchange.may_fail_with()))
    lines.append(f"\nErrors (`error`, with the request's `id`): {codes}.")
    if exchange.note:
        lines.append(f"\n{exchange.note}")
    return "You get, in order:\n" + "\n".join(lines)


def asyncapi() -> JsonObject:
    """The websocket as an AsyncAPI 3.0 document, from the server's side: it receives each request (with its
    replies as the operation's `reply`) and sends events of its own."""
    refs, schemas = _schemas("#/components/schemas/{model}")
    channel_ref = {"$ref": "#/channels/arena"}
    components: JsonObject = {"schemas": schemas, "messages": {}}
    channel_messages: JsonObject = {}
    for model in CLIENT_MODELS + SERVER_MODELS:
        name = type_name(model)
        components["messages"][name] = {
            "name": name,
            "title": model.__name__,
            "summary": _summary(model),
            "contentType": "application/json",
            "payload": _ref(refs, model),
        }
        channel_messages[name] = {"$ref": f"#/components/messages/{name}"}
    operations: JsonObject = {}
    for exchange in CONTRACT:
        name = exchange.type_name
        replies = dict.fromkeys(frame.type_name for frame in exchange.to_you if frame.answers)
        operations[name] = {
            "action": "receive",
            "channel": channel_ref,
            "summary": _summary(exchange.request),
            "description": _frames_description(exchange),
            "messages": [{"$ref": f"#/channels/arena/messages/{name}"}],
            "reply": {
                "channel": channel_ref,
                "messages": [{"$ref": f"#/channels/arena/messages/{reply}"} for reply in [*replies, "error"]],
            },
        }
    for event in dict.fromkeys(frame.message for exchange in CONTRACT for frame in exchange.to_you + exchange.to_others
                               if not frame.answers):  # fmt: skip
        whens = [ev.when for ev in SERVER_EVENTS if ev.message is event]
        operations[f"event_{type_name(event)}"] = {
            "action": "send",
            "channel": channel_ref,
            "summary": f"`{type_name(event)}` as an event (no `id`)",
            "description": "Sent after a request set it off (see the requests' descriptions)"
            + "".join(f"; or when {when}" for when in whens)
            + ".",
            "messages": [{"$ref": f"#/channels/arena/messages/{type_name(event)}"}],
        }
    limits = DEFAULT_LIMITS
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": TITLE,
            "version": str(PROTOCOL_VERSION),
            "description": "The websocket protocol of a FreeCell Arena server (docs/protocol.md). JSON text frames; "
            "every message has `type`; a request may carry `id` (a string, or an integer within +-(2^53 - 1)), "
            f"echoed in its replies. Limits (announced in `welcome`): frames up to {limits.max_message_bytes} "
            f"bytes, {limits.rate_per_s:g} messages a second with bursts of {limits.burst}.",
            "license": {"name": "MIT"},
        },
        "servers": {
            "local": {"host": "127.0.0.1:8765", "protocol": "ws", "pathname": "/", "description": "`serve`'s default"}
        },
        "defaultContentType": "application/json",
        "channels": {
            "arena": {
                "address": "/",
                "title": "One player's connection",
                "description": "Say `hello` first (within `hello_timeout_s`); then any request, in any order.",
                "messages": channel_messages,
            }
        },
        "operations": operations,
        "components": components,
    }


def asyncapi_text() -> str:
    return _text(asyncapi())


# ---------------------------------------------------------------------------- OpenAPI 3.1


def _not_null(schema: JsonObject) -> JsonObject:
    """A parameter's schema without its `null` alternative: a path or query parameter is text, never null."""
    alternatives = [choice for choice in schema.get("anyOf", []) if choice != {"type": "null"}]
    if not alternatives:
        return schema
    rest = {key: value for key, value in schema.items() if key != "anyOf"}
    return {**alternatives[0], **rest} if len(alternatives) == 1 else {**rest, "anyOf": alternatives}


def _parameter(name: str, where: Literal["path", "query"], request_schema: JsonObject) -> JsonObject:
    schema = _not_null(dict(request_schema["properties"][name]))
    description = schema.pop("description", "")
    schema.pop("title", None)
    if where == "path" or schema.get("default") is None:
        schema.pop("default", None)
    parameter: JsonObject = {"name": name, "in": where, "required": where == "path", "schema": schema}
    if description:
        parameter["description"] = description
    return parameter


def _responses(route: HttpRoute, reply: JsonObject, error: JsonObject) -> JsonObject:
    exchange = next(exchange for exchange in CONTRACT if exchange.request is route.request)
    json_body = {"application/json": {"schema": reply}}
    ok: JsonObject = {
        "description": f"`{_reply_type(exchange)}`, as over the websocket; any cache may reuse it for "
        f"{route.max_age_s} s (each process keeps it that long too)",
        "headers": _validators(route),
        "content": json_body,
    }
    responses = _with_refusals(ok, exchange.errors, error)
    responses["304"] = {
        "description": "`If-None-Match` named the answer's current `ETag`: unchanged, no body",
        "headers": _validators(route),
    }
    return dict(sorted(responses.items()))


def _validators(route: HttpRoute) -> JsonObject:
    return {
        "ETag": {"description": "The answer's entity tag, for `If-None-Match`", "schema": {"type": "string"}},
        "Cache-Control": {
            "description": f"`public, max-age=N`: N at most {route.max_age_s} (less when the answer was kept a while)",
            "schema": {"type": "string", "pattern": "^public, max-age=[0-9]+$"},
        },
    }


def _with_refusals(ok: JsonObject, errors: tuple[ErrorCode, ...], error: JsonObject) -> JsonObject:
    """A route's answers: `ok` (200), its refusals and the common ones by HTTP status, and the transport's."""
    codes = {code for code in errors if code not in (ErrorCode.storage_failed, ErrorCode.hello_required)}
    by_status: dict[int, list[ErrorCode]] = {}
    for code in sorted({*codes, *HTTP_COMMON_ERRORS}):
        by_status.setdefault(http_status(code), []).append(code)
    responses: JsonObject = {"200": ok}
    for status, status_codes in sorted(by_status.items()):
        answer: JsonObject = {
            "description": "An `error`: " + ", ".join(f"`{code.value}`" for code in status_codes),
            "content": {"application/json": {"schema": error}},
        }
        if status == 429:
            answer["headers"] = {
                "Retry-After": {"description": "Seconds to wait", "schema": {"type": "string", "pattern": "^[0-9]+$"}}
            }
        if status == 405:
            answer["headers"] = {"Allow": {"description": "GET", "schema": {"type": "string"}}}
        responses[str(status)] = answer
    responses.update(TRANSPORT_REFUSALS)
    return dict(sorted(responses.items()))


TRANSPORT_REFUSALS: JsonObject = {
    "414": {
        "description": "The request line is longer than 8 KiB: refused as plain text by the websocket library's "
        "HTTP parser, before any route is looked at",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    },
    "431": {
        "description": "A header line longer than 8 KiB, or more than 128 headers: refused as plain text by the "
        "websocket library's HTTP parser, before any route is looked at",
        "content": {"text/plain": {"schema": {"type": "string"}}},
    },
}
"""Answers the HTTP parser gives before the server's own code runs (websockets' `MAX_LINE_LENGTH` and
`MAX_NUM_HEADERS`): every route can get them, and a client must not be surprised by them."""


def _reply_type(exchange: Exchange) -> str:
    return type_name(exchange.replies[0])


def openapi() -> JsonObject:
    """`/api/` as an OpenAPI 3.1 document: each route's parameters from its request model, its answer the reply
    model, its refusals the `error` message with their HTTP status."""
    refs, schemas = _schemas("#/components/schemas/{model}")
    request_schemas = {
        model: model.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}",
                                       schema_generator=WireSchema)
        for model in {route.request for route in HTTP_ROUTES}
    }
    for schema in request_schemas.values():
        schemas.update(schema.pop("$defs", {}))
    paths: JsonObject = {}
    for route in HTTP_ROUTES:
        exchange = next(exchange for exchange in CONTRACT if exchange.request is route.request)
        request_schema = request_schemas[route.request]
        parameters = [_parameter(name, "path", request_schema) for name in route.path_fields]
        parameters += [_parameter(name, "query", request_schema) for name in route.query]
        reply = _ref(refs, exchange.replies[0])
        paths[route.path] = {
            "get": {
                "operationId": route.path.removeprefix("/api/").replace("/", "_").replace("{", "").replace("}", ""),
                "summary": route.summary,
                "description": f"Answers like the websocket request `{exchange.type_name}`: "
                + _summary(route.request),
                "parameters": parameters,
                "responses": _responses(route, reply, _ref(refs, ErrorMessage)),
            }
        }
    for stream in STREAM_ROUTES:
        paths[stream.path] = {"get": _stream_operation(stream, schemas, _ref(refs, ErrorMessage))}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": f"{TITLE} HTTP API",
            "version": str(PROTOCOL_VERSION),
            "description": "Read-only queries as plain HTTP GET on the game's port: the same JSON as the websocket's "
            "replies (docs/protocol.md), and a player's finished games as NDJSON (one `ExportGame` a line, "
            "docs/schema/export-game.json). Rate limited per client address (429 with `Retry-After`).",
            "license": {"name": "MIT"},
        },
        "servers": [{"url": "http://127.0.0.1:8765", "description": "`serve`'s default"}],
        "paths": paths,
        "components": {"schemas": _reachable(paths, schemas)},
    }


def openapi_text() -> str:
    return _text(openapi())


def _stream_operation(route: StreamRoute, schemas: JsonObject, error: JsonObject) -> JsonObject:
    """An NDJSON route: its parameters from its query model, its 200 a stream of `item` lines with the next page's
    `Link`; its `item`'s schema (as written) joins the components."""
    item = route.item.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}",
                                        schema_generator=WireSchema, mode="serialization")  # fmt: skip
    schemas.update(item.pop("$defs", {}))
    schemas[route.item.__name__] = item
    request_schema = route.request.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}",
                                                     schema_generator=WireSchema)  # fmt: skip
    schemas.update(request_schema.pop("$defs", {}))
    parameters = [_parameter(name, "path", request_schema) for name in route.path_fields]
    parameters += [_parameter(name, "query", request_schema) for name in route.query]
    ok: JsonObject = {
        "description": f"`{route.item.__name__}` objects, one JSON object a line (NDJSON), newest first; an empty "
        "body when there are none. A full page names the next in `Link`.",
        "content": {NDJSON: {"schema": {"$ref": f"#/components/schemas/{route.item.__name__}"}}},
        "headers": {
            NEXT_PAGE_HEADER: {
                "description": 'The next page, `<URL>; rel="next"` (RFC 8288); absent on the last page',
                "schema": {"type": "string"},
            }
        },
    }
    return {
        "operationId": route.path.removeprefix("/api/").replace("/", "_").replace("{", "").replace("}", ""),
        "summary": route.summary,
        "description": _summary(route.request) + " " + _summary(route.item),
        "parameters": parameters,
        "responses": _with_refusals(ok, route.errors, error),
    }


def export_schema_text() -> str:
    """The JSON Schema of one line of an export (`docs/schema/export-game.json`): the game as written."""
    schema = ExportGame.model_json_schema(by_alias=True, schema_generator=WireSchema, mode="serialization")
    return _text({"$schema": "https://json-schema.org/draft/2020-12/schema", **schema})
