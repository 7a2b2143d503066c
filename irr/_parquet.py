"""The size a Parquet file's table takes in memory, read from its footer without pyarrow.

The CLI decides from that size whether to read a Parquet file into memory or stream it
with DuckDB. pyarrow's ``read_metadata`` costs a streamed ``irr kappa`` the import of
pyarrow (about 0.1 s); the footer is a few Thrift-encoded fields (the Apache Parquet
format: ``FileMetaData`` in the compact protocol, its length and ``PAR1`` in the last 8
bytes), of which three are read here: the rows, the row groups' uncompressed bytes and
the schema's leaf columns. Anything else (an encrypted footer, a malformed one) gives
None, and the caller asks pyarrow.
"""

from __future__ import annotations

import os
import struct
from typing import NamedTuple

__all__ = ["ParquetShape", "parquet_shape"]

#: The largest footer read (a file with so much metadata is asked of pyarrow).
MAX_FOOTER = 64 * 1024**2

# compact protocol type ids
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY = range(9)
_LIST, _SET, _MAP, _STRUCT, _UUID = 9, 10, 11, 12, 13


class ParquetShape(NamedTuple):
    """A Parquet file's rows, leaf columns and row groups' uncompressed bytes (the sum of
    their ``total_byte_size``, as pyarrow's ``read_metadata`` reports them; None when
    not read)."""

    num_rows: int
    num_columns: int
    total_byte_size: int | None


class _Malformed(Exception):
    pass


class _Reader:
    """The compact protocol over `data`, from position 0."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise _Malformed
        value = self.data[self.at]
        self.at += 1
        return value

    def varint(self) -> int:
        value = shift = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7
            if shift > 70:
                raise _Malformed

    def integer(self) -> int:  # zigzag
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def skip_bytes(self, n: int) -> None:
        if n < 0 or self.at + n > len(self.data):
            raise _Malformed
        self.at += n

    def skip(self, kind: int) -> None:
        """Pass over one value of type `kind`."""
        if kind in (_TRUE, _FALSE):
            return  # a field's value is in its header
        if kind == _BYTE:
            self.skip_bytes(1)
        elif kind in (_I16, _I32, _I64):
            self.varint()
        elif kind == _DOUBLE:
            self.skip_bytes(8)
        elif kind == _BINARY:
            self.skip_bytes(self.varint())
        elif kind == _UUID:
            self.skip_bytes(16)
        elif kind in (_LIST, _SET):
            size, element = self.list_header()
            for _ in range(size):
                self.element(element)
        elif kind == _MAP:
            size = self.size(self.varint())
            if size:
                types = self.byte()
                for _ in range(size):
                    self.element(types >> 4)
                    self.element(types & 0x0F)
        elif kind == _STRUCT:
            for _, field_kind in self.fields():
                self.skip(field_kind)
        else:
            raise _Malformed

    def element(self, kind: int) -> None:
        """Pass over one element of a list, set or map (a bool takes a byte there)."""
        if kind in (_TRUE, _FALSE):
            self.skip_bytes(1)
        else:
            self.skip(kind)

    def size(self, n: int) -> int:
        """A collection's element count, refused when the bytes left cannot hold it
        (every element takes at least one byte), so a corrupt count cannot loop on."""
        if n > len(self.data) - self.at:
            raise _Malformed
        return n

    def list_header(self) -> tuple[int, int]:
        header = self.byte()
        size = header >> 4
        if size == 15:
            size = self.varint()
        return self.size(size), header & 0x0F

    def fields(self):  # type: ignore[no-untyped-def]
        """The (id, type) of each field of a struct, up to its stop; the caller reads or
        skips each value before asking for the next."""
        last = 0
        while True:
            header = self.byte()
            kind = header & 0x0F
            if kind == _STOP:
                return
            delta = header >> 4
            last = last + delta if delta else self.integer()
            yield last, kind


def _file_metadata(reader: _Reader, row_groups: bool) -> ParquetShape:
    rows, leaves, total, seen = 0, 0, 0, set()
    for field, kind in reader.fields():
        if field == 4 and not row_groups:
            seen.add(field)
            total = None
            break
        if field == 2 and kind == _LIST:  # schema: the elements without num_children
            size, element = reader.list_header()
            if element != _STRUCT:
                raise _Malformed
            for _ in range(size):
                leaf = True
                for child, child_kind in reader.fields():
                    if child == 5 and child_kind == _I32:  # num_children: a group
                        reader.integer()
                        leaf = False
                    else:
                        reader.skip(child_kind)
                leaves += leaf
        elif field == 3 and kind == _I64:
            rows = reader.integer()
        elif field == 4 and kind == _LIST:  # row groups: their total_byte_size
            size, element = reader.list_header()
            if element != _STRUCT:
                raise _Malformed
            for _ in range(size):
                for child, child_kind in reader.fields():
                    if child == 2 and child_kind == _I64:
                        total += reader.integer()
                    else:
                        reader.skip(child_kind)
        else:
            reader.skip(kind)
            continue
        seen.add(field)
    if not {2, 3, 4} <= seen:
        raise _Malformed
    return ParquetShape(rows, leaves, total)


def parquet_shape(path: str | os.PathLike[str], row_groups: bool = True,
                  ) -> ParquetShape | None:
    """The rows, leaf columns and uncompressed bytes of the Parquet file at `path`, from
    its footer; None when the footer cannot be read here (encrypted, malformed, larger
    than :data:`MAX_FOOTER`, not a Parquet file): ask pyarrow then. Without `row_groups`
    the row groups, most of a large file's footer, are not read: its
    ``total_byte_size`` is None (rows and columns come first).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "not.parquet")
    >>> with open(path, "wb") as f:
    ...     _ = f.write(b"a,b\\n1,2\\n")
    >>> parquet_shape(path) is None
    True
    """
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size < 12:
                return None
            handle.seek(size - 8)
            tail = handle.read(8)
            length = struct.unpack("<I", tail[:4])[0]
            if tail[4:] != b"PAR1" or length > min(MAX_FOOTER, size - 12):
                return None
            handle.seek(size - 8 - length)
            footer = handle.read(length)
        return _file_metadata(_Reader(footer), row_groups)
    except (OSError, RecursionError, _Malformed):  # (structs nested without end recurse)
        return None
