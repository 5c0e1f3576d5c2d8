"""An uploaded file's bytes as text: which encoding they are in, or why they are not text.

Text files come in a few encodings, and nothing in the bytes says which for sure. The rule,
in order:

1. A byte-order mark at the start names the encoding: ``EF BB BF`` is UTF-8, ``FF FE``
   UTF-16 little-endian, ``FE FF`` UTF-16 big-endian (the mark itself is not part of the
   text). UTF-32's marks (``FF FE 00 00``, ``00 00 FE FF``) are refused by name.
2. Without a mark, UTF-16 shows itself by its zero bytes: a letter of the Latin alphabet
   is two bytes, one of them 0, so in English text about every second byte is 0, at the
   odd places (little-endian, Windows' "Unicode") or at the even ones (big-endian).
3. Anything else must be UTF-8, read strictly: a byte that cannot be read is refused
   with its position (Latin-1 or Windows-1252 files look like this), never replaced.

Text never holds a zero character, so after reading, one means the file is binary (a
picture, a spreadsheet, an archive): refused with its position.
"""
from __future__ import annotations

import codecs

SAMPLE = 4_096          # bytes looked at to recognise UTF-16 without a byte-order mark
ZERO_SHARE = 0.3        # at least this share of one parity's bytes are 0, and of the other's
OTHER_SHARE = 0.05      # at most this share: UTF-16 text in the Latin alphabet


class NotTextError(ValueError):
    """Bytes that cannot be read as text; the message names the file, what it is and where."""


def _utf16_order(data: bytes) -> str | None:
    """"utf-16-le" or "utf-16-be" when the zero bytes say so, else None.

    >>> _utf16_order("cat".encode("utf-16-le")), _utf16_order("cat".encode("utf-16-be"))
    ('utf-16-le', 'utf-16-be')
    >>> _utf16_order(b"cat\\n") is None
    True
    """
    sample = data[:SAMPLE]
    half = len(sample) // 2
    if half == 0 or len(data) % 2:
        return None
    zeros_even = sample[0:2 * half:2].count(0)               # bytes 0, 2, 4, ...
    zeros_odd = sample[1:2 * half:2].count(0)                # bytes 1, 3, 5, ...
    if zeros_odd >= ZERO_SHARE * half and zeros_even <= OTHER_SHARE * half:
        return "utf-16-le"
    if zeros_even >= ZERO_SHARE * half and zeros_odd <= OTHER_SHARE * half:
        return "utf-16-be"
    return None


def encoding_of(data: bytes) -> tuple[str, int]:
    """The encoding the bytes are in and the length of their byte-order mark.

    >>> encoding_of(b"\\xef\\xbb\\xbfcat"), encoding_of(b"\\xff\\xfec\\x00"), encoding_of(b"cat")
    (('utf-8', 3), ('utf-16-le', 2), ('utf-8', 0))
    """
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "utf-32", 4
    for mark, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                       (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(mark):
            return name, len(mark)
    return _utf16_order(data) or "utf-8", 0


NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16 (little-endian)", "utf-16-be": "UTF-16 (big-endian)"}


def decode_text(data: bytes, name: str) -> tuple[str, str]:
    """The text in ``data`` and the encoding it was read in (UTF-8, UTF-16 ...).

    ``name`` is how messages call the file. Raises ``NotTextError`` for anything else.

    >>> decode_text("chat\\n".encode("utf-16"), "a.txt")
    ('chat\\n', 'UTF-16 (little-endian)')
    >>> try:
    ...     decode_text(b"\\x89PNG\\r\\n", "a.png")
    ... except NotTextError as err:
    ...     print(str(err)[:54])
    a.png is not text: byte 1 cannot be read as UTF-8 or U
    """
    encoding, mark = encoding_of(data)
    if encoding == "utf-32":
        raise NotTextError(f"{name} is in UTF-32, which this app does not read. Save it as plain text "
                           "in UTF-8.")
    try:
        text = data[mark:].decode(encoding)
    except UnicodeDecodeError as err:
        raise NotTextError(f"{name} is not text: byte {mark + err.start + 1:,} cannot be read as "
                           f"{'UTF-8 or UTF-16' if encoding == 'utf-8' else NAMES[encoding]} (a picture, "
                           "a spreadsheet or a file saved as Latin-1 or Windows-1252 looks like this). "
                           "Save it as plain text in UTF-8.") from None
    zero = text.find("\x00")
    if zero >= 0:
        line = text.count("\n", 0, zero) + 1
        column = zero - text.rfind("\n", 0, zero)
        raise NotTextError(f"{name} looks like a binary file (a picture, a spreadsheet or an archive), "
                           f"not text: line {line:,}, column {column:,} holds a zero character, which "
                           "text never has. "
                           "Save it as plain text in UTF-8.")
    return text, NAMES[encoding]
