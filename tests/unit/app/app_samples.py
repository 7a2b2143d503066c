"""Files the tests of ``irr app`` upload: a clinician's CSV and a hostile one."""

import pathlib

import pandas as pd

import irr

#: The bundled anxiety ratings, as a user would upload them.
ANXIETY = pathlib.Path(irr.datasets.__file__).parent / "data" / "anxiety.csv"

#: Three nurses grade 14 patients at two sites on a 1-4 scale: a patient id column, a site
#: column, a ward column of small numbers (1-3) that reads like a rater's grades until the
#: user marks it, missing grades coded '.', and a header with a trailing space
#: ("nurse_b ").
CLINICIAN = """patient,site,ward,nurse_a,nurse_b ,nurse_c
P01,north,1,2,2,3
P02,north,2,1,1,1
P03,south,3,3,.,3
P04,south,1,2,2,2
P05,north,2,4,3,4
P06,south,3,1,2,1
P07,north,1,3,3,.
P08,south,2,2,2,2
P09,north,3,4,4,4
P10,south,1,1,1,2
P11,north,2,3,3,3
P12,south,3,2,3,2
P13,north,1,4,4,3
P14,south,2,1,1,1
"""

#: A rater column whose name is a script, and a file name that is one.
HOSTILE_HEADER = "<script>window.__pwned=1</script>"
HOSTILE_NAME = "<img src=x onerror=\"window.__pwned=2\">.csv"
HOSTILE = f"""case,{HOSTILE_HEADER},b
1,1,1
2,2,2
3,1,2
4,2,2
5,1,1
6,2,1
"""


def clinician_frame(path):
    """The clinician's file as irr.report reads it: '.' is missing."""
    return pd.read_csv(path, na_values=["."])


def write(folder, name, text):
    path = pathlib.Path(folder) / name
    path.write_text(text, encoding="utf-8")
    return path
