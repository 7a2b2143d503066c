"""The server of ``irr app`` through Starlette's TestClient: the token, the upload limit,
per-tab sessions, escaping, one-line errors, and numbers equal to irr.report's."""

import contextlib
import io
import json
import re

import pandas as pd
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
from app_samples import (
    ANXIETY,
    CLINICIAN,
    HOSTILE,
    HOSTILE_HEADER,
    HOSTILE_NAME,
    clinician_frame,
    write,
)
from starlette.testclient import TestClient

import irr
import irr.cli
from irr.app import create_app
from irr.app.server import CSP, REPORT_CSP

TOKEN = "test-token-123"


@pytest.fixture
def root(tmp_path):
    folder = tmp_path / "app"
    folder.mkdir()
    return folder


def client_of(root, **options):
    client = TestClient(create_app(TOKEN, root, hosts=("testserver",), **options))
    client.headers["X-IRR-Token"] = TOKEN
    return client


@pytest.fixture
def client(root):
    return client_of(root)


def new_session(client):
    response = client.post("/api/session")
    assert response.status_code == 200
    return response.json()["session"]


def upload(client, sid, name, data):
    return client.post(f"/api/s/{sid}/upload", params={"name": name},
                       content=data if isinstance(data, bytes) else data.encode("utf-8"))


def estimates(rep):
    """{coefficient: (estimate, ci_low, ci_high)} of a ReliabilityReport or a report's
    JSON."""
    rows = rep["results"] if isinstance(rep, dict) else [r.to_dict() for r in rep.results]
    return {(r["coefficient"], key): r[key] for r in rows
            for key in ("estimate", "ci_low", "ci_high")}


def cli_error(*args):
    """The one-line error ``irr ARGS`` prints (a usage error's too), without its prefix."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = irr.cli.main(list(args))
        except SystemExit as exc:
            status = exc.code
    assert status in (1, 2)
    return err.getvalue().strip().splitlines()[-1].split(": error: ", 1)[1]


# -- the token and the host --------------------------------------------------------------
def test_requests_without_the_token_are_refused(root):
    bare = TestClient(create_app(TOKEN, root, hosts=("testserver",)))
    for path in ("/", "/static/app.js", "/api/meta"):
        response = bare.get(path)
        assert response.status_code == 403, path
        assert "token" in response.text
    assert bare.post("/api/session").status_code == 403
    assert bare.get("/?token=wrong").status_code == 403
    assert bare.get("/", headers={"X-IRR-Token": "test-token-12"}).status_code == 403
    assert bare.get(f"/?token={TOKEN}").status_code == 200
    assert bare.get("/api/meta", headers={"X-IRR-Token": TOKEN}).status_code == 200


def test_requests_for_another_host_are_refused(root):
    # DNS rebinding: a page elsewhere that names this server under its own host name
    client = TestClient(create_app(TOKEN, root), base_url="http://evil.example")
    assert client.get(f"/?token={TOKEN}").status_code == 403
    local = TestClient(create_app(TOKEN, root), base_url="http://127.0.0.1:8765")
    assert local.get(f"/?token={TOKEN}").status_code == 200


def test_the_page_has_no_inline_script_and_its_policy_forbids_it(client):
    response = client.get("/")
    assert response.headers["content-security-policy"] == CSP
    assert "script-src 'self';" in CSP
    assert "unsafe-inline" not in CSP.split("style-src")[0]
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", response.text, re.S)
    assert scripts
    assert all('src="/static/' in attrs and not body.strip()
                           for attrs, body in scripts)
    assert not re.search(r"\son\w+=", response.text)  # no inline event handlers
    assert "http://" not in response.text
    assert "https://" not in response.text
    js = client.get("/static/app.js")
    assert js.status_code == 200
    assert js.headers["content-type"].startswith("text/javascript")
    assert "innerHTML" not in js.text
    assert "eval(" not in js.text
    assert "http" not in client.get("/static/app.css").text  # no fonts or images fetched
    assert client.get("/static/index.html").status_code == 404


# -- uploads -----------------------------------------------------------------------------
def test_an_upload_above_the_limit_is_refused_with_one_line(root):
    client = client_of(root, max_upload=200)
    sid = new_session(client)
    response = upload(client, sid, "big.csv", "a,b\n" + "1,2\n" * 100)
    assert response.status_code == 413
    message = response.json()["error"]
    assert message == ("cannot read 'big.csv': larger than the upload limit of 200 bytes; "
                       "start irr app with --max-upload to raise it")
    assert not [p for p in (root / sid).iterdir() if p.is_file()]  # nothing kept
    assert client.post(f"/api/s/{sid}/report", json={}).json()["error"] == (
        "no data yet: upload a file or choose a data set")
    assert upload(client, sid, "small.csv", "a,b\n1,2\n2,2\n").status_code == 200


def test_the_upload_limit_holds_without_a_content_length(root):
    client = client_of(root, max_upload=100)
    sid = new_session(client)

    def chunks():
        for _ in range(50):
            yield b"1,2\n"

    response = client.post(f"/api/s/{sid}/upload", params={"name": "x.csv"}, content=chunks())
    assert response.status_code == 413
    assert not [p for p in (root / sid).iterdir() if p.is_file()]


def test_an_unknown_session_is_refused(client):
    response = client.post("/api/s/nonesuch/dataset", json={"name": "anxiety"})
    assert response.status_code == 404
    assert response.json()["error"] == "this tab's session has ended: reload the page"


def test_excel_without_openpyxl_says_what_to_install(client):
    try:
        import openpyxl  # noqa: F401
    except ImportError:
        sid = new_session(client)
        response = upload(client, sid, "ratings.xlsx", b"PK\x03\x04 not really")
        assert response.json()["error"] == (
            "cannot read 'ratings.xlsx': reading Excel files needs openpyxl (pip install "
            "openpyxl); or save the sheet as CSV")
        assert client.get("/api/meta").json()["excel"] is False
    else:
        sid = new_session(client)
        buffer = io.BytesIO()
        pd.read_csv(ANXIETY).to_excel(buffer, index=False)
        body = upload(client, sid, "anxiety.xlsx", buffer.getvalue()).json()
        assert body["detected"]["raters"] == ["rater1", "rater2", "rater3"]


# -- detection ---------------------------------------------------------------------------
def test_the_preview_shows_what_was_detected_in_a_clinicians_file(client, tmp_path):
    sid = new_session(client)
    body = upload(client, sid, "grades.csv", CLINICIAN).json()
    assert body["columns"] == ["patient", "site", "ward", "nurse_a", "nurse_b ", "nurse_c"]
    assert body["na_values"] == ["."]  # the '.' among numbers: a missing-value code
    assert body["n_rows"] == 14
    assert body["rows"][2] == ["P03", "south", "3", "3", None, "3"]
    d = body["detected"]
    assert d["layout"] == "wide"
    assert d["ids"] == ["patient", "site"]
    assert d["raters"] == ["ward", "nurse_a", "nurse_b ", "nurse_c"]  # to correct
    assert d["scale"] == "ordinal"
    assert d["categories"] == ["1", "2", "3", "4"]
    corrected = client.post(f"/api/s/{sid}/preview", json={
        "na_values": ["."], "ids": ["patient", "site", "ward"],
        "raters": ["nurse_a", "nurse_b ", "nurse_c"]}).json()["detected"]
    assert corrected["ids"] == ["patient", "site", "ward"]
    assert corrected["raters"] == ["nurse_a", "nurse_b ", "nurse_c"]
    assert corrected["recommended"] == ["percent", "alpha_ordinal", "icc_a1"]


def test_long_data_and_replicates_are_detected(client):
    sid = new_session(client)
    long = "patient,rater,score\n" + "".join(
        f"{s},{r},{(s + (r == 'b')) % 3}\n" for s in range(1, 9) for r in "ab")
    d = upload(client, sid, "long.csv", long).json()["detected"]
    assert (d["layout"], d["subject"], d["rater"], d["rating"]) == (
        "long", "patient", "rater", "score")
    assert d["raters"] == ["a", "b"]
    pef = client.post(f"/api/s/{sid}/dataset", json={"name": "pef"}).json()["detected"]
    assert pef["scale"] == "continuous"
    assert pef["replicates"].endswith("look like 2 methods (wright, mini) read 2 times each")


# -- the report: the command line's numbers and messages ---------------------------------
def test_the_report_of_a_data_set_equals_irr_report(client):
    sid = new_session(client)
    assert client.post(f"/api/s/{sid}/dataset", json={"name": "anxiety"}).status_code == 200
    body = client.post(f"/api/s/{sid}/report", json={}).json()
    assert body["command"] == "irr report --dataset=anxiety"
    got = json.loads(client.get(f"/api/s/{sid}/download/results.json").text)
    expected = irr.report(irr.datasets.load("anxiety"), figures=False)
    assert estimates(got) == pytest.approx(estimates(expected), rel=1e-12)
    assert got["statistics"] == ["percent", "alpha_ordinal", "icc_a1"]


def test_the_report_of_a_corrected_upload_equals_irr_report(client, tmp_path):
    path = write(tmp_path, "grades.csv", CLINICIAN)
    sid = new_session(client)
    upload(client, sid, "grades.csv", CLINICIAN)
    choices = {"na_values": ["."], "ids": ["patient", "site", "ward"],
               "raters": ["nurse_a", "nurse_b ", "nurse_c"],
               "statistics": ["fleiss", "alpha_ordinal", "icc_a1"], "ci": "bca"}
    body = client.post(f"/api/s/{sid}/report", json=choices).json()
    assert body["command"] == ("irr report grades.csv --id=patient --id=site --id=ward --raters "
                               "nurse_a 'nurse_b ' nurse_c --na-values=. "
                               "--statistics=fleiss,alpha_ordinal,icc_a1 --ci=bca")
    expected = irr.report(clinician_frame(path), "fleiss,alpha_ordinal,icc_a1",
                          id=["patient", "site", "ward"], ci="bca", figures=False)
    got = pd.read_csv(io.StringIO(client.get(f"/api/s/{sid}/download/results.csv").text))
    assert list(got["coefficient"]) == [r.coefficient for r in expected.results]
    assert got["estimate"].to_numpy() == pytest.approx([r.estimate for r in expected.results])
    assert got["ci_low"].to_numpy() == pytest.approx([r.ci.low for r in expected.results])
    page = client.get(f"/api/s/{sid}/report.html").text
    assert "nurse_b " in page
    assert "ward" not in page.split("<section id=\"results\"")[1]
    # the downloads: the HTML page, every figure as SVG
    report = client.get(f"/api/s/{sid}/download/report.html")
    assert report.headers["content-disposition"] == (
        'attachment; filename="reliability-report.html"')
    assert report.text.startswith("<!DOCTYPE html>")
    assert "GRRAS" in report.text
    assert len(body["figures"]) >= 2
    for n in range(1, len(body["figures"]) + 1):
        svg = client.get(f"/api/s/{sid}/download/figure-{n}.svg")
        assert svg.headers["content-type"] == "image/svg+xml"
        assert svg.text.lstrip().startswith(("<?xml", "<svg"))
    assert client.get(f"/api/s/{sid}/download/figure-99.svg").status_code == 404
    assert client.get(f"/api/s/{sid}/download/../../etc").status_code == 404


@pytest.mark.parametrize(("choices", "cli_args"), [
    ({"statistics": ["nonesuch"]}, ["--statistics=nonesuch"]),
    ({"confidence_level": "95"}, ["--confidence-level=95"]),
    ({"ci": "wrong"}, ["--ci=wrong"]),
    ({"ids": ["patient", "site", "ward", "nurse_a"], "raters": ["nurse_a", "nurse_c"]},
     ["--id=patient", "--id=site", "--id=ward", "--id=nurse_a", "--raters", "nurse_a",
      "nurse_c"]),
])
def test_errors_are_the_command_lines_one_line_messages(client, tmp_path, choices, cli_args):
    path = write(tmp_path, "grades.csv", CLINICIAN)
    sid = new_session(client)
    upload(client, sid, "grades.csv", CLINICIAN)
    response = client.post(f"/api/s/{sid}/report", json={"na_values": ["."], **choices})
    assert response.status_code == 400
    message = response.json()["error"]
    expected = cli_error("report", str(path), "--na-values=.", *cli_args)
    assert message == expected.replace(repr(str(path)), "'grades.csv'")
    assert "\n" not in message
    assert message


def test_an_unreadable_file_gives_the_command_lines_message(client, tmp_path):
    ragged = "a,b\n1,2\n1,2,3\n"
    sid = new_session(client)
    message = upload(client, sid, "ragged.csv", ragged).json()["error"]
    path = write(tmp_path, "ragged.csv", ragged)
    assert message == cli_error("report", str(path)).replace(repr(str(path)), "'ragged.csv'")
    assert message == "cannot read 'ragged.csv': line 3 has 3 fields, the header has 2"


# -- escaping ----------------------------------------------------------------------------
def test_hostile_names_and_headers_are_escaped_in_the_report(client):
    sid = new_session(client)
    body = upload(client, sid, HOSTILE_NAME, HOSTILE).json()
    assert body["name"] == HOSTILE_NAME  # JSON data: the page sets it as text
    assert HOSTILE_HEADER in body["detected"]["raters"]
    report = client.post(f"/api/s/{sid}/report", json={})
    assert report.status_code == 200
    page = client.get(f"/api/s/{sid}/report.html")
    assert page.headers["content-security-policy"] == REPORT_CSP
    assert "script-src" not in REPORT_CSP  # default-src 'none': no script runs at all
    assert "<script" not in page.text.lower()
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page.text
    assert report.json()["command"].startswith(
        "irr report '<img src=x onerror=\"window.__pwned=2\">.csv'")
    # the file is stored under a tame name, which the command line's messages never show
    stored = [p.name for p in (client.app.app.state.sessions.root / sid).iterdir()
              if p.is_file()]
    assert stored == ["_img_src_x_onerror__window.__pwned_2__.csv"]


# -- sessions ----------------------------------------------------------------------------
def test_tabs_do_not_mix_their_data(client, tmp_path):
    first, second = new_session(client), new_session(client)
    assert first != second
    upload(client, first, "grades.csv", CLINICIAN)
    client.post(f"/api/s/{second}/dataset", json={"name": "anxiety"})
    a = client.post(f"/api/s/{first}/report", json={"na_values": ["."],
                                                    "statistics": ["percent"]}).json()
    b = client.post(f"/api/s/{second}/report", json={}).json()
    assert "grades.csv" in a["command"]
    assert "anxiety" in b["command"]
    report_a = client.get(f"/api/s/{first}/report.html").text
    report_b = client.get(f"/api/s/{second}/report.html").text
    assert "nurse_a" in report_a
    assert "nurse_a" not in report_b
    assert "rater1" in report_b
    assert "rater1" not in report_a
    csv_a = client.get(f"/api/s/{first}/download/results.csv").text
    assert "nurse_a" in csv_a
    assert "rater1" not in csv_a
    # a third tab has nothing yet
    third = new_session(client)
    assert client.get(f"/api/s/{third}/report.html").status_code == 404
    assert client.post(f"/api/s/{third}/report", json={}).json()["error"] == (
        "no data yet: upload a file or choose a data set")


# -- planning ----------------------------------------------------------------------------
def test_the_plan_tab_gives_irr_plans_numbers(client):
    body = client.post("/api/plan", json={
        "target": "kappa", "kappa0": "0.4", "kappa1": "0.6", "raters": "3",
        "categories": "4", "power": "0.8 0.9"}).json()
    expected = [irr.plan.kappa(0.4, 0.6, raters=3, categories=4, power=p).n for p in (0.8, 0.9)]
    assert [row["n"] for row in body["rows"]] == expected
    assert body["sentences"][0].startswith(f"With {expected[0]} subjects rated by 3 raters")
    icc = client.post("/api/plan", json={"target": "icc", "rho0": "0.5", "rho1": "0.75",
                                         "raters": "3", "power": "0.8"}).json()
    assert icc["rows"][0]["n"] == irr.plan.icc(0.5, 0.75, raters=3, power=0.8).n
    bad = client.post("/api/plan", json={"target": "kappa", "kappa0": "0.4",
                                         "kappa1": "x", "power": "0.8"})
    assert bad.status_code == 400
    assert bad.json()["error"] == "argument --kappa1: invalid float value: 'x'"
    assert client.post("/api/plan", json={"target": "kappa", "evil": "1"}).status_code == 400


def test_long_data_and_parquet_give_irr_reports_numbers(client, tmp_path):
    long = pd.read_csv(ANXIETY).rename_axis("case").reset_index().melt(
        id_vars="case", var_name="coder", value_name="score")
    sid = new_session(client)
    detected = upload(client, sid, "long.csv", long.to_csv(index=False)).json()["detected"]
    assert (detected["subject"], detected["rater"], detected["rating"]) == (
        "case", "coder", "score")
    body = client.post(f"/api/s/{sid}/report", json={
        "layout": "long", "subject": "case", "rater": "coder", "rating": "score"}).json()
    assert body["command"] == ("irr report long.csv --subject=case --rater=coder "
                               "--rating=score")
    expected = irr.report(irr.Agreement.from_long(long, subject="case", rater="coder",
                                                  rating="score"), figures=False)
    got = json.loads(client.get(f"/api/s/{sid}/download/results.json").text)
    assert estimates(got) == pytest.approx(estimates(expected), rel=1e-12)
    # the same ratings, wide, as Parquet
    pytest.importorskip("pyarrow")
    buffer = io.BytesIO()
    pd.read_csv(ANXIETY).to_parquet(buffer)
    sid = new_session(client)
    assert upload(client, sid, "anxiety.parquet", buffer.getvalue()).status_code == 200
    client.post(f"/api/s/{sid}/report", json={})
    got = json.loads(client.get(f"/api/s/{sid}/download/results.json").text)
    wide = irr.report(pd.read_csv(ANXIETY), figures=False)
    assert estimates(got) == pytest.approx(estimates(wide), rel=1e-12)


def test_an_upload_named_like_an_output_is_never_overwritten(client):
    sid = new_session(client)
    text = pd.read_csv(ANXIETY).to_csv(index=False)
    upload(client, sid, "report.html.csv", text)
    upload(client, sid, "results.csv", text)
    assert client.post(f"/api/s/{sid}/report", json={}).status_code == 200
    csv = client.get(f"/api/s/{sid}/download/results.csv").text
    assert csv.startswith("coefficient,estimate")
    folder = client.app.app.state.sessions.root / sid
    assert (folder / "results.csv").read_text(encoding="utf-8") == text  # the input, as sent
    # the command line names the file as the user did, and a note naming it does too
    pef = irr.datasets.load("pef")
    upload(client, sid, "peak flow.csv", pef.to_csv(index=False))
    body = client.post(f"/api/s/{sid}/report", json={}).json()
    assert body["command"] == "irr report 'peak flow.csv'"
    page = client.get(f"/api/s/{sid}/report.html").text
    assert "irr agreement peak_flow.csv --raters wright_1 mini_1." in page
    assert str(folder) not in page
