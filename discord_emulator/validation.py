"""Discord's limits on message bodies and application commands, answered with 50035 Invalid Form Body.

Only the limits a bot commonly runs into are checked (lengths, counts, component layout, custom id
rules, allowed_mentions conflicts, command naming); what Discord accepts is accepted here too.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .errors import FormErrors

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
LINK_STYLE = 5
PREMIUM_STYLE = 6
AUTOCOMPLETE_CHOICES_MAX = 25
COMPONENTS_V2 = 1 << 15
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    2,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
V2_TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
CONTAINER_CHILDREN = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR})
SECTION_ACCESSORIES = frozenset({BUTTON, THUMBNAIL})

COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND = 1
SUBCOMMAND_GROUP = 2
STRING, INTEGER, NUMBER = 3, 4, 10

_EMBED_LIMITS = {"title": 256, "description": 4096}

LOCALES = frozenset(
    [
        "ar",
        "bg",
        "cs",
        "da",
        "de",
        "el",
        "en-GB",
        "en-US",
        "es-419",
        "es-ES",
        "fi",
        "fr",
        "he",
        "hi",
        "hr",
        "hu",
        "id",
        "it",
        "ja",
        "ko",
        "lt",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "ru",
        "sv-SE",
        "th",
        "tr",
        "uk",
        "vi",
        "zh-CN",
        "zh-TW",
    ]
)
"""Discord's locales (AvailableLocalesEnum), the keys of every ``*_localizations`` map."""


def _too_long(errors: FormErrors, path: tuple[str | int, ...], limit: int) -> None:
    errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_message_body(body: dict[str, Any], errors: FormErrors, *, v2: bool | None = None) -> None:
    """Field checks shared by create, edit, interaction responses and webhook messages.

    ``v2`` says whether the message is a Components V2 one; by default the body's ``flags`` tell
    (an edit passes the flag the message already has, since it cannot be removed).
    """
    if v2 is None:
        v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    if v2:
        for field in ("content", "embeds", "poll", "sticker_ids"):
            if body.get(field):
                errors.add(
                    (field,),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "The 'content', 'embeds', 'sticker_ids' and 'poll' fields cannot be used "
                    "when using MessageFlags.IS_COMPONENTS_V2",
                )
    content = body.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > CONTENT_MAX:
            _too_long(errors, ("content",), CONTENT_MAX)
    embeds = body.get("embeds")
    if embeds is not None:
        _check_embeds(embeds, errors)
    components = body.get("components")
    if components is not None:
        check_components(components, errors, v2=v2)
    allowed = body.get("allowed_mentions")
    if allowed is not None:
        _check_allowed_mentions(allowed, errors)


def _check_embeds(embeds: Any, errors: FormErrors) -> None:
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > EMBEDS_MAX:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            value = embed.get(key)
            if value is not None:
                total += len(str(value))
                if len(str(value)) > limit:
                    _too_long(errors, ("embeds", index, key), limit)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.add(("embeds", index, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for field_index, item in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                text = str(item.get(key) or "")
                total += len(text)
                if not text:
                    errors.add(
                        ("embeds", index, "fields", field_index, key), "BASE_TYPE_REQUIRED", "Required"
                    )
                elif len(text) > limit:
                    _too_long(errors, ("embeds", index, "fields", field_index, key), limit)
        for key, text_key, limit in (("footer", "text", 2048), ("author", "name", 256)):
            inner = embed.get(key)
            if inner:
                text = str(inner.get(text_key) or "")
                total += len(text)
                if len(text) > limit:
                    _too_long(errors, ("embeds", index, key, text_key), limit)
        color = embed.get("color")
        if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
            errors.add(("embeds", index, "color"), "NUMBER_TYPE_MAX", "Must be a valid colour.")
    if total > EMBED_TOTAL_MAX:
        errors.add(("embeds",), "MESSAGE_EMBEDS_LENGTH", "Embed size exceeds maximum size of 6000")


def check_components(components: Any, errors: FormErrors, *, v2: bool = False) -> None:
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if v2:
        _check_v2_components(components, errors)
        return
    if len(components) > ACTION_ROWS_MAX:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {ACTION_ROWS_MAX} or fewer in length.")
    seen: set[str] = set()
    for row_index, row in enumerate(components):
        path: tuple[str | int, ...] = ("components", row_index)
        if row.get("type") != 1:
            errors.add((*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
            continue
        _check_action_row(row, path, errors, seen)


def _check_action_row(
    row: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors, seen: set[str]
) -> None:
    """An action row's rules, at the top of a message or inside a container: up to five buttons,
    or one select alone."""
    children = row.get("components") or []
    if not children:
        errors.add((*path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
    if len(children) > ROW_BUTTONS_MAX:
        errors.add(
            (*path, "components"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ROW_BUTTONS_MAX} or fewer in length.",
        )
    kinds = {child.get("type") for child in children}
    if len(children) > 1 and kinds - {2}:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        _check_component(child, (*path, "components", index), errors, seen)


def _check_v2_components(components: list[Any], errors: FormErrors) -> None:
    """A Components V2 message: layout by type, at most 40 components counted with the nested
    ones, at most 4,000 characters of text in all, custom ids unique across the message."""
    seen: set[str] = set()
    count = 0
    text = 0

    def walk(item: Any, path: tuple[str | int, ...], allowed: frozenset[int]) -> None:
        nonlocal count, text
        if not isinstance(item, dict):
            errors.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            return
        kind = item.get("type")
        count += 1
        if kind not in allowed:
            choices = ", ".join(str(choice) for choice in sorted(allowed))
            errors.add(
                (*path, "type"), "UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({choices}).'
            )
            return
        if kind == ACTION_ROW:
            count += len(item.get("components") or [])
            _check_action_row(item, path, errors, seen)
        elif kind == TEXT_DISPLAY:
            text += len(str(item.get("content") or ""))
        elif kind == SECTION:
            for index, child in enumerate(item.get("components") or []):
                walk(child, (*path, "components", index), frozenset({TEXT_DISPLAY}))
            accessory = item.get("accessory")
            if accessory is None:
                errors.add((*path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                walk(accessory, (*path, "accessory"), SECTION_ACCESSORIES)
        elif kind == CONTAINER:
            for index, child in enumerate(item.get("components") or []):
                walk(child, (*path, "components", index), CONTAINER_CHILDREN)
        elif kind == BUTTON:
            _check_component(item, path, errors, seen)

    for index, item in enumerate(components):
        walk(item, ("components", index), V2_TOP_LEVEL)
    if count > V2_COMPONENTS_MAX:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            f"The message has {count} components; at most {V2_COMPONENTS_MAX} are allowed.",
        )
    if text > V2_TEXT_MAX:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
            f"The message's text displays hold {text} characters; at most {V2_TEXT_MAX} are allowed.",
        )


def _check_component(
    item: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors, seen: set[str]
) -> None:
    custom_id = item.get("custom_id")
    if item.get("type") == 2:
        style = item.get("style")
        if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
            errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        if style == LINK_STYLE:
            if not item.get("url"):
                errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            if custom_id is not None:
                errors.add(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A custom id cannot be used with a link button",
                )
        elif style != PREMIUM_STYLE and not custom_id:
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        label = item.get("label")
        if label is not None and len(str(label)) > BUTTON_LABEL_MAX:
            _too_long(errors, (*path, "label"), BUTTON_LABEL_MAX)
        if not label and not item.get("emoji") and style != PREMIUM_STYLE:
            errors.add((*path,), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is required")
    elif item.get("type") in (3, 5, 6, 7, 8) and not custom_id:
        errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    if custom_id is not None:
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
            errors.add(
                (*path, "custom_id"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {CUSTOM_ID_MAX} in length.",
            )
        elif custom_id in seen:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        else:
            seen.add(custom_id)


def _check_allowed_mentions(allowed: dict[str, Any], errors: FormErrors) -> None:
    parse = allowed.get("parse") or []
    for kind in parse:
        if kind not in ("users", "roles", "everyone"):
            errors.add(
                ("allowed_mentions", "parse"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {'users', 'roles', 'everyone'}.",
            )
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            errors.add(
                ("allowed_mentions", "parse"),
                "SET_TYPE_ALREADY_CONTAINS_VALUE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )
        if len(allowed.get(kind) or []) > 100:
            errors.add(("allowed_mentions", kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")


def normalize_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Components as Discord echoes them: a copy with a numeric ``id`` on every component."""
    result = copy.deepcopy(components)
    counter = 0

    def number(item: dict[str, Any]) -> None:
        nonlocal counter
        counter += 1
        item.setdefault("id", counter)
        for child in item.get("components") or []:
            number(child)

    for row in result:
        number(row)
    return result


def normalize_embeds(embeds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    result = copy.deepcopy(embeds)
    for embed in result:
        embed.setdefault("type", "rich")
        embed.setdefault("content_scan_version", 0)
    return result


def check_autocomplete_choices(data: dict[str, Any], errors: FormErrors) -> None:
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        errors.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, choice in enumerate(choices):
        name = str(choice.get("name") or "")
        if not 1 <= len(name) <= 100:
            errors.add(
                ("data", "choices", index, "name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            )
        if "value" not in choice:
            errors.add(("data", "choices", index, "value"), "BASE_TYPE_REQUIRED", "This field is required")


def check_commands(commands: Any, errors: FormErrors) -> None:
    """The rules of ``PUT /applications/{id}/commands`` for chat-input commands."""
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(commands) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = int(command.get("type", 1))
        name = str(command.get("name") or "")
        if (kind, name) in names:
            errors.add(
                (index, "name"),
                "APPLICATION_COMMAND_ALREADY_EXISTS",
                "Application command names must be unique",
            )
        names.add((kind, name))
        if kind == 1:
            _check_chat_input(command, (index,), errors, depth=0)
        elif not 1 <= len(name) <= 32:
            errors.add((index, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")


def _check_chat_input(
    item: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors, depth: int
) -> None:
    name = str(item.get("name") or "")
    if not COMMAND_NAME.match(name) or name != name.lower():
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = str(item.get("description") or "")
    if not 1 <= len(description) <= 100:
        errors.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    _check_localizations(item, path, errors)
    options = item.get("options") or []
    if len(options) > 25:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    seen: set[str] = set()
    optional_seen = False
    for index, option in enumerate(options):
        option_path = (*path, "options", index)
        kind = option.get("type")
        option_name = str(option.get("name") or "")
        if option_name in seen:
            errors.add(
                (*option_path, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        seen.add(option_name)
        if kind in (SUBCOMMAND, SUBCOMMAND_GROUP):
            if depth >= 2 or (depth == 1 and kind == SUBCOMMAND_GROUP):
                errors.add(
                    (*option_path, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Subcommands nested too deeply",
                )
            _check_chat_input(option, option_path, errors, depth + 1)
            continue
        _check_chat_input_leaf(option, option_path, errors)
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*option_path, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True


def _check_localizations(item: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors) -> None:
    """A command's or option's ``name_localizations`` (valid names) and ``description_localizations``."""
    names = item.get("name_localizations")
    _check_localization_map(names, path, "name", 32, errors)
    for locale, name in (names or {}).items():
        if isinstance(name, str) and (not COMMAND_NAME.match(name) or name != name.lower()):
            errors.add(
                (*path, "name_localizations", locale),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            )
    _check_localization_map(item.get("description_localizations"), path, "description", 100, errors)


def _check_localization_map(
    value: Any, path: tuple[str | int, ...], field: str, limit: int, errors: FormErrors
) -> None:
    """A map from Discord locale to a text of 1 to ``limit`` characters (null is allowed)."""
    if value is None:
        return
    where = (*path, f"{field}_localizations")
    if not isinstance(value, dict):
        errors.add(where, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    for locale, text in value.items():
        if locale not in LOCALES:
            errors.add((*where, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}")
        elif not isinstance(text, str) or not 1 <= len(text) <= limit:
            errors.add((*where, locale), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {limit} in length.")


def _check_chat_input_leaf(option: dict[str, Any], path: tuple[str | int, ...], errors: FormErrors) -> None:
    name = str(option.get("name") or "")
    if not COMMAND_NAME.match(name) or name != name.lower():
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = str(option.get("description") or "")
    if not 1 <= len(description) <= 100:
        errors.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    _check_localizations(option, path, errors)
    choices = option.get("choices") or []
    for index, choice in enumerate(choices):
        _check_localization_map(
            choice.get("name_localizations"), (*path, "choices", index), "name", 100, errors
        )
    if len(choices) > 25:
        errors.add((*path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    if choices and option.get("autocomplete"):
        errors.add(
            (*path, "autocomplete"),
            "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
            "Autocomplete cannot be used with choices",
        )
    if option.get("autocomplete") and option.get("type") not in (STRING, INTEGER, NUMBER):
        errors.add(
            (*path, "autocomplete"),
            "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
            "Autocomplete is only for string, integer and number options",
        )
