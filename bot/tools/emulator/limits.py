"""Discord's documented limits, checked on what the bot sends. Violations become 400 / 50035
"Invalid Form Body" with a nested ``errors`` object (see errors.FormErrors)."""

from __future__ import annotations

import unicodedata
from typing import Any, List, Sequence

from .errors import ApiError, FormErrors

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ATTACHMENTS_MAX = 10
UPLOAD_MAX = 10 * 1024 * 1024  # bytes per request, like an un-boosted guild
ROWS_MAX = 5
ROW_WIDTH = 5
SELECT_OPTIONS_MAX = 25
CUSTOM_ID_MAX = 100
COMMAND_OPTIONS_MAX = 25
CHOICES_MAX = 25
IS_COMPONENTS_V2 = 1 << 15


def _too_long(errors: FormErrors, path: Sequence[Any], value: Any, low: int, high: int) -> None:
    if value is None:
        return
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
    elif not low <= len(value) <= high:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _count_max(errors: FormErrors, path: Sequence[Any], items: Any, high: int, low: int = 0) -> List[Any]:
    if items is None:
        return []
    if not isinstance(items, list):
        errors.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return []
    if not low <= len(items) <= high:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
    return items


# messages --------------------------------------------------------------------------------
def check_embeds(errors: FormErrors, embeds: Any, path: Sequence[Any] = ("embeds",)) -> None:
    total = 0
    for i, e in enumerate(_count_max(errors, path, embeds, EMBEDS_MAX)):
        p = (*path, i)
        if not isinstance(e, dict):
            errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        for key, high in (("title", 256), ("description", 4096)):
            _too_long(errors, (*p, key), e.get(key), 0, high)
            total += len(e.get(key) or "")
        for key, sub, high in (("footer", "text", 2048), ("author", "name", 256)):
            part = e.get(key) or {}
            _too_long(errors, (*p, key, sub), part.get(sub), 0 if key == "author" else 1, high)
            total += len(part.get(sub) or "")
        for j, f in enumerate(_count_max(errors, (*p, "fields"), e.get("fields"), 25)):
            _too_long(errors, (*p, "fields", j, "name"), f.get("name", ""), 1, 256)
            _too_long(errors, (*p, "fields", j, "value"), f.get("value", ""), 1, 1024)
            total += len(f.get("name") or "") + len(f.get("value") or "")
    if total > EMBED_TOTAL_MAX:
        errors.add(path, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _check_button(errors: FormErrors, p: Sequence[Any], c: dict, seen: set) -> None:
    style = c.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add((*p, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
    _too_long(errors, (*p, "label"), c.get("label"), 0, 80)
    if style == 5:
        if not c.get("url"):
            errors.add((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if c.get("custom_id") is not None:
            errors.add((*p, "custom_id"), "COMPONENT_LINK_BUTTON_CUSTOM_ID", "A link button cannot have a custom id")
    elif style != 6:
        _check_custom_id(errors, p, c, seen)


def _check_custom_id(errors: FormErrors, p: Sequence[Any], c: dict, seen: set) -> None:
    cid = c.get("custom_id")
    if cid is None:
        errors.add((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    _too_long(errors, (*p, "custom_id"), cid, 1, CUSTOM_ID_MAX)
    if cid in seen:
        errors.add((*p, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(cid)


def _check_select(errors: FormErrors, p: Sequence[Any], c: dict, seen: set) -> None:
    _check_custom_id(errors, p, c, seen)
    _too_long(errors, (*p, "placeholder"), c.get("placeholder"), 0, 150)
    lo, hi = c.get("min_values", 1), c.get("max_values", 1)
    if not (isinstance(lo, int) and 0 <= lo <= 25):
        errors.add((*p, "min_values"), "BASE_TYPE_BAD_INT", "int value should be between 0 and 25.")
    if not (isinstance(hi, int) and 1 <= hi <= 25):
        errors.add((*p, "max_values"), "BASE_TYPE_BAD_INT", "int value should be between 1 and 25.")
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        errors.add((*p, "min_values"), "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values must be <= max_values")
    if c.get("type") == 3:
        options = _count_max(errors, (*p, "options"), c.get("options"), SELECT_OPTIONS_MAX, 1)
        values = set()
        for j, o in enumerate(options):
            _too_long(errors, (*p, "options", j, "label"), o.get("label"), 1, 100)
            _too_long(errors, (*p, "options", j, "value"), o.get("value"), 1, 100)
            _too_long(errors, (*p, "options", j, "description"), o.get("description"), 0, 100)
            if o.get("value") in values:
                errors.add(
                    (*p, "options", j, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select option values must be unique",
                )
            values.add(o.get("value"))
        if options and isinstance(hi, int) and hi > len(options):
            errors.add(
                (*p, "max_values"),
                "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE",
                "max_values must be <= the number of options",
            )


def _check_interactive(errors: FormErrors, p: Sequence[Any], c: dict, seen: set) -> None:
    if c.get("type") == 2:
        _check_button(errors, p, c, seen)
    elif c.get("type") in (3, 5, 6, 7, 8):
        _check_select(errors, p, c, seen)


def _check_tree(errors: FormErrors, p: Sequence[Any], c: dict, seen: set) -> None:
    """Components v2: recurse through containers/sections, checking interactive leaves."""
    _check_interactive(errors, p, c, seen)
    for i, child in enumerate(c.get("components") or []):
        if isinstance(child, dict):
            _check_tree(errors, (*p, "components", i), child, seen)
    if isinstance(c.get("accessory"), dict):
        _check_tree(errors, (*p, "accessory"), c["accessory"], seen)


def check_components(
    errors: FormErrors, components: Any, flags: int = 0, path: Sequence[Any] = ("components",)
) -> None:
    seen: set = set()
    if flags & IS_COMPONENTS_V2:
        for i, c in enumerate(_count_max(errors, path, components, 40)):
            _check_tree(errors, (*path, i), c, seen)
        return
    for i, row in enumerate(_count_max(errors, path, components, ROWS_MAX)):
        p = (*path, i)
        if not isinstance(row, dict) or row.get("type") != 1:
            errors.add((*p, "type"), "UNION_TYPE_CHOICES", "Top-level components must be action rows")
            continue
        children = _count_max(errors, (*p, "components"), row.get("components"), ROW_WIDTH, 1)
        if any(isinstance(c, dict) and c.get("type") in (3, 5, 6, 7, 8) for c in children) and len(children) > 1:
            errors.add(
                (*p, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, c in enumerate(children):
            if not isinstance(c, dict) or c.get("type") not in (2, 3, 5, 6, 7, 8):
                errors.add((*p, "components", j, "type"), "UNION_TYPE_CHOICES", "Invalid component type")
                continue
            _check_interactive(errors, (*p, "components", j), c, seen)


def check_message(
    payload: dict, *, files: int = 0, creating: bool = True, existing_attachments: int = 0, prefix: Sequence[Any] = ()
) -> None:
    """Raise ApiError for a message body the real API would refuse."""
    errors = FormErrors()
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add((*prefix, "content"), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > CONTENT_MAX:
            errors.add((*prefix, "content"), "BASE_TYPE_MAX_LENGTH", f"Must be {CONTENT_MAX} or fewer in length.")
    check_embeds(errors, payload.get("embeds"), (*prefix, "embeds"))
    flags = payload.get("flags") or 0
    check_components(errors, payload.get("components"), flags if isinstance(flags, int) else 0, (*prefix, "components"))
    attachments = payload.get("attachments")
    if isinstance(attachments, list) and len(attachments) > ATTACHMENTS_MAX or files > ATTACHMENTS_MAX:
        errors.add((*prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    errors.raise_if_any()
    if creating and not (
        content
        or payload.get("embeds")
        or payload.get("components")
        or files
        or existing_attachments
        or payload.get("sticker_ids")
        or payload.get("poll")
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_upload_size(total: int) -> None:
    if total > UPLOAD_MAX:
        raise ApiError(413, 40005, "Request entity too large")


# modals and autocomplete -----------------------------------------------------------------
def check_modal(data: Any) -> None:
    errors = FormErrors()
    if not isinstance(data, dict):
        errors.add(("data",), "BASE_TYPE_REQUIRED", "This field is required")
        errors.raise_if_any()
    _too_long(errors, ("data", "custom_id"), data.get("custom_id", ""), 1, CUSTOM_ID_MAX)
    _too_long(errors, ("data", "title"), data.get("title", ""), 1, 45)
    comps = _count_max(errors, ("data", "components"), data.get("components"), 5, 1)
    seen: set = set()
    for i, c in enumerate(comps):
        inner = (c.get("components") or [None])[0] if c.get("type") == 1 else c.get("component")
        p = ("data", "components", i)
        if not isinstance(inner, dict):
            errors.add(p, "BASE_TYPE_REQUIRED", "Each modal row needs one component")
            continue
        if inner.get("type") == 4:
            _check_custom_id(errors, p, inner, seen)
            _too_long(errors, (*p, "label"), inner.get("label"), 1, 45)
            _too_long(errors, (*p, "value"), inner.get("value"), 0, 4000)
            _too_long(errors, (*p, "placeholder"), inner.get("placeholder"), 0, 100)
        else:
            _check_interactive(errors, p, inner, seen)
    errors.raise_if_any()


def check_choices(data: Any) -> List[dict]:
    errors = FormErrors()
    choices = _count_max(errors, ("data", "choices"), (data or {}).get("choices"), CHOICES_MAX)
    for i, ch in enumerate(choices):
        _too_long(errors, ("data", "choices", i, "name"), ch.get("name"), 1, 100)
        if isinstance(ch.get("value"), str):
            _too_long(errors, ("data", "choices", i, "value"), ch.get("value"), 1, 100)
    errors.raise_if_any()
    return choices


# application commands --------------------------------------------------------------------
def valid_name(name: Any, *, lowercase: bool = True) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}]{1,32}$`` (letters/numbers of any script), lowercase for slash."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    if lowercase and name != name.lower():
        return False
    return all(
        ch in "-_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) in ("Mn", "Mc") for ch in name
    )


def _check_option(errors: FormErrors, p: Sequence[Any], o: Any, depth: int) -> int:
    if not isinstance(o, dict):
        errors.add(p, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return 0
    size = len(o.get("name") or "") + len(o.get("description") or "")
    if not valid_name(o.get("name")):
        errors.add((*p, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    _too_long(errors, (*p, "description"), o.get("description"), 1, 100)
    otype = o.get("type")
    if otype not in range(1, 12):
        errors.add((*p, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1..11}.")
    if otype in (1, 2):
        if otype == 2 and depth > 0 or otype == 1 and depth > 1:
            errors.add((*p, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-commands nested too deep")
        size += check_options(errors, p, o.get("options"), depth + 1, group=otype == 2)
        return size
    choices = _count_max(errors, (*p, "choices"), o.get("choices"), CHOICES_MAX)
    if choices and o.get("autocomplete"):
        errors.add(
            (*p, "autocomplete"),
            "APPLICATION_COMMAND_OPTION_CHOICES_AND_AUTOCOMPLETE",
            "Autocomplete cannot be enabled with choices",
        )
    for j, ch in enumerate(choices):
        _too_long(errors, (*p, "choices", j, "name"), ch.get("name"), 1, 100)
        if isinstance(ch.get("value"), str):
            _too_long(errors, (*p, "choices", j, "value"), ch.get("value"), 1, 100)
        size += len(ch.get("name") or "") + len(str(ch.get("value", "")))
    for key in ("min_length", "max_length"):
        v = o.get(key)
        if v is not None and not (isinstance(v, int) and (0 if key == "min_length" else 1) <= v <= 6000):
            errors.add((*p, key), "NUMBER_TYPE_MAX", "int value should be between 0 and 6000.")
    lo, hi = o.get("min_value"), o.get("max_value")
    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and lo > hi:
        errors.add((*p, "min_value"), "APPLICATION_COMMAND_OPTION_MIN_GT_MAX", "min_value must be <= max_value")
    return size


def check_options(errors: FormErrors, path: Sequence[Any], options: Any, depth: int = 0, group: bool = False) -> int:
    options = _count_max(errors, (*path, "options"), options, COMMAND_OPTIONS_MAX)
    size, names, optional_seen = 0, set(), False
    kinds = {isinstance(o, dict) and o.get("type") in (1, 2) for o in options}
    if len(kinds) > 1:
        errors.add(
            (*path, "options"),
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        )
    for i, o in enumerate(options):
        p = (*path, "options", i)
        if group and isinstance(o, dict) and o.get("type") != 1:
            errors.add((*p, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups may only hold sub-commands")
        size += _check_option(errors, p, o, depth)
        if isinstance(o, dict):
            if o.get("name") in names:
                errors.add(
                    (*p, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option name already exists"
                )
            names.add(o.get("name"))
            if o.get("required") and optional_seen:
                errors.add(
                    (*p, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            if not o.get("required") and o.get("type") not in (1, 2):
                optional_seen = True
    return size


def check_commands(commands: Any) -> None:
    errors = FormErrors()
    if not isinstance(commands, list):
        raise ApiError(
            400, 50035, "Invalid Form Body", {"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]}
        )
    seen = set()
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            errors.add((i,), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        ctype = cmd.get("type", 1)
        slash = ctype == 1
        if not valid_name(cmd.get("name"), lowercase=slash) or (
            not slash and not 1 <= len(cmd.get("name") or "") <= 32
        ):
            errors.add((i, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        if slash:
            _too_long(errors, (i, "description"), cmd.get("description"), 1, 100)
            size = len(cmd.get("name") or "") + len(cmd.get("description") or "")
            size += check_options(errors, (i,), cmd.get("options"))
            if size > 4000:
                errors.add((i,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)")
        elif cmd.get("description"):
            errors.add(
                (i, "description"),
                "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                "Context menu commands cannot have description",
            )
        key = (ctype, cmd.get("name"))
        if key in seen:
            errors.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        seen.add(key)
    if sum(1 for c in commands if isinstance(c, dict) and c.get("type", 1) == 1) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    errors.raise_if_any()
