"""Paragraph text of a .docx file (a zip of XML) with the standard library only."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from ..errors import DatasetFormatError
from ._common import cached_by_file

__all__ = ["docx_paragraphs"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@cached_by_file
def docx_paragraphs(path: Path) -> tuple[str, ...]:
    """The text of each paragraph of ``word/document.xml``, tabs and line breaks kept."""
    try:
        with zipfile.ZipFile(path) as archive:
            root = ET.fromstring(archive.read("word/document.xml"))
    except (zipfile.BadZipFile, KeyError, ET.ParseError) as exc:
        raise DatasetFormatError(path, None, None, f"not a readable .docx file ({exc}).") from None
    paragraphs = []
    for para in root.iter(f"{_W}p"):
        parts = []
        for node in para.iter():
            if node.tag == f"{_W}t":
                parts.append(node.text or "")
            elif node.tag == f"{_W}tab":
                parts.append("\t")
            elif node.tag in (f"{_W}br", f"{_W}cr"):
                parts.append("\n")
        paragraphs.append("".join(parts))
    return tuple(paragraphs)
