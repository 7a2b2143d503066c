"""irr._parquet: a Parquet file's shape from its footer, against pyarrow's read_metadata."""

import numpy as np
import pytest

from irr._parquet import ParquetShape, parquet_shape

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _pyarrow_shape(path):
    meta = pq.read_metadata(path)
    return ParquetShape(meta.num_rows, meta.num_columns, sum(
        meta.row_group(i).total_byte_size for i in range(meta.num_row_groups)))


def _table(n):
    return pa.table({
        "a": np.arange(n) % 5,
        "label": [f"x{i % 7}" for i in range(n)],
        "pairs": pa.array([[1, 2]] * n),  # nested: a leaf under two groups
        "point": pa.array([{"u": 1, "v": "w"}] * n),  # two leaves
        "value": np.linspace(0, 1, n),
        "flag": [True, None] * (n // 2),
    })


@pytest.mark.parametrize("options", [
    {"row_group_size": 3_000},  # several row groups
    {"compression": "zstd", "use_dictionary": False, "write_statistics": False},
    {"compression": "none", "version": "1.0"},
])
def test_shape_is_what_pyarrow_reads(tmp_path, options):
    path = tmp_path / "t.parquet"
    pq.write_table(_table(10_000), path, **options)
    shape = parquet_shape(path)
    assert shape == _pyarrow_shape(path)
    assert shape.num_rows == 10_000
    assert shape.num_columns == 7


def test_shape_of_a_table_without_rows(tmp_path):
    path = tmp_path / "empty.parquet"
    pq.write_table(_table(10).slice(0, 0), path)
    assert parquet_shape(path) == _pyarrow_shape(path)


def test_shape_of_a_file_duckdb_wrote(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "d.parquet"
    duckdb.sql(f"COPY (SELECT range % 3 AS a, range::VARCHAR AS b FROM range(20000)) "
               f"TO '{path}' (FORMAT PARQUET, ROW_GROUP_SIZE 5000)")
    assert parquet_shape(path) == _pyarrow_shape(path)


@pytest.mark.parametrize("data", [
    b"",  # empty
    b"PAR1",  # too short for a footer
    b"a,b\n1,2\n3,4\n",  # not Parquet
    b"PAR1" + b"\x00" * 8 + b"\x05\x00\x00\x00PAR1",  # a footer of stop bytes: no fields
    b"PAR1" + b"\xff" * 20 + b"\x14\x00\x00\x00PAR1",  # a varint without end
    b"PAR1" + b"\x00" * 8 + b"\xff\xff\x00\x00PAR1",  # a length beyond the file
    b"PAR1" + b"\x00" * 8 + b"\x05\x00\x00\x00PARE",  # an encrypted footer
])
def test_an_unreadable_footer_is_none(tmp_path, data):
    path = tmp_path / "bad.parquet"
    path.write_bytes(data)
    assert parquet_shape(path) is None


def _footer_file(path, footer):
    path.write_bytes(b"PAR1" + footer + len(footer).to_bytes(4, "little") + b"PAR1")
    return path


def test_a_corrupt_count_is_none_at_once(tmp_path):
    # field 1 a map of 2**32 - 1 bool pairs in 7 bytes, and a list of as many: refused by
    # the bytes left (every element takes one), not read element by element
    huge = b"\xff\xff\xff\xff\x0f"
    assert parquet_shape(_footer_file(tmp_path / "m.parquet", b"\x1b" + huge + b"\x11")) is None
    assert parquet_shape(_footer_file(tmp_path / "l.parquet", b"\x19\xf1" + huge)) is None


def test_structs_nested_without_end_are_none(tmp_path):
    # each byte opens a struct in field 1 of the one before: deeper than Python recurses
    assert parquet_shape(_footer_file(tmp_path / "n.parquet", b"\x1c" * 100_000)) is None


def test_a_truncated_footer_is_none(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(_table(100), path)
    raw = path.read_bytes()
    length = int.from_bytes(raw[-8:-4], "little")
    footer = raw[-8 - length:-8]
    # the footer cut short (its declared length kept true): the fields run out
    path.write_bytes(b"PAR1" + footer[: length // 2] + (length // 2).to_bytes(4, "little")
                     + b"PAR1")
    assert parquet_shape(path) is None


def test_a_missing_file_is_none(tmp_path):
    assert parquet_shape(tmp_path / "nowhere.parquet") is None


def test_without_row_groups_rows_and_columns_only(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(_table(10_000), path, row_group_size=1_000)
    shape = parquet_shape(path, row_groups=False)
    expected = _pyarrow_shape(path)
    assert shape == (expected.num_rows, expected.num_columns, None)
