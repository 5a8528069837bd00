"""File uploads: ``multipart/form-data`` with ``payload_json`` and ``files[n]``, as Discord takes them.

Discord's rules kept here: each file part is named ``files[n]``; the JSON part (``payload_json``,
or for an interaction callback its ``data``) may list ``attachments`` objects whose ``id`` is that
``n``, with an optional ``filename`` (which wins over the part's) and ``description`` (the alt
text). Every upload becomes an attachment object as Discord returns it: a new snowflake ``id``,
``filename``, ``description``, ``content_type``, ``size``, ``url`` and ``proxy_url``, and for images
``width`` and ``height``. The bytes are kept (see :attr:`Uploads.files`) and served at ``url``, so
tests open what the bot sent. An ``attachment://filename`` URL in an embed's image or thumbnail is
resolved to the attachment's URL, as Discord does.
"""

from __future__ import annotations

import io
import mimetypes
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .errors import DiscordHTTPError, FormErrors

MAX_FILES = 10
FILE_SIZE_LIMIT = 10 * 1024 * 1024
"""Discord's upload limit for a bot without boosts (10 MiB)."""
REQUEST_ENTITY_TOO_LARGE = 40005
_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


@dataclass(frozen=True)
class StoredFile:
    """One uploaded file: its attachment object and its bytes."""

    attachment: dict[str, Any]
    data: bytes

    @property
    def filename(self) -> str:
        return str(self.attachment["filename"])


def _image_facts(data: bytes) -> tuple[str | None, int | None, int | None]:
    """The MIME type, width and height of an image Pillow can read, else Nones."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError:
        return None, None, None
    try:
        with Image.open(io.BytesIO(data)) as image:
            return Image.MIME.get(image.format or ""), image.width, image.height
    except (UnidentifiedImageError, OSError):
        return None, None, None


def _metadata(payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``attachments`` entries of a JSON part by ``id`` (as text); a callback nests them in ``data``."""
    entries = payload.get("attachments")
    data = payload.get("data")
    if entries is None and isinstance(data, dict):
        entries = data.get("attachments")
    return {str(entry.get("id")): entry for entry in entries or [] if isinstance(entry, dict)}


class Uploads:
    """Every file uploaded to the emulator, by attachment id."""

    def __init__(self, new_id: Callable[[], int]) -> None:
        self._new_id = new_id
        self.files: dict[int, StoredFile] = {}

    def data(self, attachment: dict[str, Any]) -> bytes:
        """The bytes of an attachment object the emulator returned."""
        return self.files[int(attachment["id"])].data

    async def read(
        self, form: Any, payload: dict[str, Any], origin: str
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """The attachment objects of a form's ``files[n]`` parts, and their filenames, in part order.

        ``origin`` is the emulator's ``http://host:port``, where the files are served.
        """
        wanted = _metadata(payload)
        stored: list[StoredFile] = []
        errors = FormErrors()
        for key, value in form.items():
            match = _FILE_FIELD.match(key)
            if match is None or not isinstance(value, web.FileField):
                continue
            index = match.group(1)
            data = value.file.read()
            if len(data) > FILE_SIZE_LIMIT:
                raise DiscordHTTPError(413, REQUEST_ENTITY_TOO_LARGE, "Request entity too large")
            entry = wanted.get(index, {})
            filename = str(entry.get("filename") or value.filename or f"file{index}")
            mime, width, height = _image_facts(data)
            content_type = mime or value.content_type or mimetypes.guess_type(filename)[0]
            attachment_id = self._new_id()
            attachment: dict[str, Any] = {
                "id": str(attachment_id),
                "filename": filename,
                "size": len(data),
                "url": f"{origin}/attachments/{attachment_id}/{filename}",
                "proxy_url": f"{origin}/attachments/{attachment_id}/{filename}",
            }
            if content_type and content_type != "application/octet-stream":
                attachment["content_type"] = content_type
            if entry.get("description"):
                attachment["description"] = str(entry["description"])
            if width is not None and height is not None:
                attachment.update(width=width, height=height)
            stored.append(StoredFile(attachment, data))
        if len(stored) > MAX_FILES:
            errors.add(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
        errors.raise_if_any()
        for item in stored:
            self.files[int(item.attachment["id"])] = item
        return [item.attachment for item in stored], [item.filename for item in stored]

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """``GET /attachments/{id}/{filename}``: the file's bytes, as the CDN serves them."""
        stored = self.files.get(int(request.match_info["attachment_id"]))
        if stored is None or stored.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        content_type = str(stored.attachment.get("content_type") or "application/octet-stream")
        return web.Response(body=stored.data, content_type=content_type)


def resolve_embed_files(embeds: Sequence[dict[str, Any]], attachments: Sequence[dict[str, Any]]) -> None:
    """Point ``attachment://name`` image and thumbnail URLs of ``embeds`` at the attachment named so."""
    by_name = {str(item.get("filename")): item for item in attachments}
    for embed in embeds:
        for part in ("image", "thumbnail"):
            media = embed.get(part)
            url = media.get("url") if isinstance(media, dict) else None
            if not isinstance(url, str) or not url.startswith("attachment://"):
                continue
            found = by_name.get(url.removeprefix("attachment://"))
            if found is None:
                continue
            media.update(url=found["url"], proxy_url=found["proxy_url"])
            if "width" in found:
                media.update(width=found["width"], height=found["height"])


def resolve_component_files(
    components: Sequence[dict[str, Any]], attachments: Sequence[dict[str, Any]]
) -> None:
    """Point ``attachment://name`` media of Components V2 (media gallery items, thumbnails, files) at
    the attachment named so, as Discord shows an attachment only where a component names it."""
    by_name = {str(item.get("filename")): item for item in attachments}
    pending = list(components)
    while pending:
        item = pending.pop()
        pending.extend(child for child in item.get("components") or [] if isinstance(child, dict))
        pending.extend(child for child in item.get("items") or [] if isinstance(child, dict))
        accessory = item.get("accessory")
        if isinstance(accessory, dict):
            pending.append(accessory)
        for key in ("media", "file"):
            media = item.get(key)
            url = media.get("url") if isinstance(media, dict) else None
            if not isinstance(url, str) or not url.startswith("attachment://"):
                continue
            found = by_name.get(url.removeprefix("attachment://"))
            if found is not None:
                media.update(url=found["url"], proxy_url=found["proxy_url"])
