"""The web server of ``irr app``: a Starlette application, served by uvicorn on 127.0.0.1.

Every request must carry the token printed with the page's address (as a ``token`` query
parameter or an ``X-IRR-Token`` header) and name this machine as its host; anything else
is refused with 403 before it reaches a route. Every response forbids inline and foreign
scripts (Content-Security-Policy) and is never cached. The page itself is static HTML,
CSS and JavaScript bundled in ``irr/app/static``: nothing is fetched from the internet.
"""

from __future__ import annotations

import base64
import contextlib
import html
import json
import pathlib
import re
import secrets
import shlex
import shutil
import socket
import sys
import tempfile
import threading
import webbrowser
from typing import Any

import pandas as pd
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from irr.app.analysis import (
    PREVIEW_ROWS,
    Choices,
    detect,
    missing_codes,
    read_preview,
    report_arguments,
    run_command,
    stored_name,
    suffix_kind,
)
from irr.app.sessions import Session, Sessions
from irr.app.vocabulary import (
    CI_METHODS,
    STYLES,
    dataset_names,
    scale_names,
    statistic_names,
)
from irr.cli import DEFAULT_MAX_BYTES

__all__ = ["CSP", "DEFAULT_UPLOAD", "create_app", "serve"]

STATIC = pathlib.Path(__file__).parent / "static"
#: The bundled files the page loads, and their types.
_ASSETS = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
#: Uploads larger than this many bytes are refused (the command line's input limit).
DEFAULT_UPLOAD = DEFAULT_MAX_BYTES
#: The page's Content-Security-Policy: scripts and styles from this server only (no
#: inline script), images from it or drawn by the page, nothing from elsewhere.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "connect-src 'self'; frame-src 'self'; form-action 'none'; base-uri 'none'; "
       "frame-ancestors 'self'")
#: The report's policy: its own inline styles and embedded figures, no script at all.
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
              "form-action 'none'; base-uri 'none'; frame-ancestors 'self'")
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"cache-control", b"no-store"), (b"x-frame-options", b"SAMEORIGIN")]
#: The figures of the HTML report: their (escaped) caption and base64 SVG.
_FIGURE = re.compile(r'<figure><img alt="([^"]*)"[^>]*?src="data:image/svg\+xml;base64,'
                     r'([A-Za-z0-9+/=]+)">')
#: The flags of each planning target the page offers: name -> takes several values.
PLAN_FIELDS = {
    "kappa": ("kappa0", "kappa1", "raters", "categories", "prevalence", "power", "n",
              "alpha", "alternative", "method"),
    "icc": ("rho0", "rho1", "raters", "power", "n", "alpha", "alternative", "method"),
}
_SINGLE = ("alternative", "method")


class Guard:
    """ASGI middleware: refuse requests without the token or for another host, and add
    the security headers to every response."""

    def __init__(self, app: Any, token: str, hosts: tuple[str, ...]) -> None:
        self.app, self.token, self.hosts = app, token, hosts

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
        given = request.query_params.get("token") or request.headers.get("x-irr-token") or ""
        if host not in self.hosts:
            response = PlainTextResponse("irr app: refused, this server answers only "
                                         "requests for this machine.", status_code=403)
            await response(scope, receive, send)
            return
        if not secrets.compare_digest(given.encode(), self.token.encode()):
            response = PlainTextResponse(
                "irr app: refused, this address needs the token that irr app printed "
                "when it started (open the address it printed).", status_code=403)
            await response(scope, receive, send)
            return

        async def secured(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in _HEADERS if k not in names]
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, secured)


def _error(message: str, status: int = 400) -> JSONResponse:
    """A one-line error for the page to show."""
    return JSONResponse({"error": message}, status_code=status)


def _cell(value: Any) -> Any:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    if isinstance(value, float) and value.is_integer():  # 2, not 2.0, in a column with gaps
        return str(int(value))
    return str(value)


def _preview(session: Session, frame: pd.DataFrame, na_values: list[str]) -> dict[str, Any]:
    rows = frame.head(PREVIEW_ROWS)
    return {
        "name": session.name,
        "kind": session.kind,
        "n_rows": len(frame),
        "columns": [str(c) for c in frame.columns],
        "rows": [[_cell(v) for v in row] for row in rows.itertuples(index=False)],
        "na_values": na_values,
        "detected": session.detected.to_dict(),
    }


def _names(session: Session) -> dict[str, str]:
    """What to call the session's file in messages: the uploaded file's name."""
    if session.dataset is not None or not session.source or session.source[0] == session.name:
        return {}
    return {session.source[0]: session.name}


def _run(session: Session, argv: list[str]) -> Any:
    """``irr ARGV`` on the session's data, in its folder."""
    return run_command(argv, _names(session), cwd=session.folder)


def _command(session: Session, args: list[str]) -> str:
    """The ``irr`` command that gives the same output, with the user's file name."""
    shown = [session.name if a == session.source[0] and session.dataset is None else a
             for a in args]
    return "irr " + shlex.join(shown)


def create_app(token: str, root: pathlib.Path, *, max_upload: int = DEFAULT_UPLOAD,
               dataset: str | None = None,
               hosts: tuple[str, ...] = ("127.0.0.1", "localhost")) -> Any:
    """The ASGI application of ``irr app``: its files live in `root`, requests need
    `token`, uploads above `max_upload` bytes are refused, and `dataset` is loaded into
    every new tab.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from starlette.testclient import TestClient
    >>> with tempfile.TemporaryDirectory() as root:
    ...     app = create_app("t0k", pathlib.Path(root), hosts=("testserver",))
    ...     client = TestClient(app)
    ...     client.get("/").status_code, client.get("/?token=t0k").status_code
    (403, 200)
    """
    sessions = Sessions(root)
    page = (STATIC / "index.html").read_text(encoding="utf-8").replace("{{TOKEN}}", token)

    def session_of(request: Request) -> Session:
        session = sessions.get(request.path_params["sid"])
        if session is None:
            raise LookupError("this tab's session has ended: reload the page")
        return session

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8")

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _ASSETS:
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(STATIC / name, media_type=_ASSETS[name])

    async def meta(request: Request) -> Response:
        try:
            import openpyxl  # noqa: F401  (reads Excel files)
            excel = True
        except ImportError:
            excel = False
        return JSONResponse({
            "datasets": list(dataset_names()), "statistics": list(statistic_names()),
            "scales": list(scale_names()), "ci_methods": list(CI_METHODS),
            "styles": list(STYLES), "excel": excel, "max_upload": max_upload,
            "dataset": dataset,
        })

    async def new_session(request: Request) -> Response:
        return JSONResponse({"session": sessions.create().id})

    def load(session: Session, na_values: list[str], corrections: dict[str, Any]
             ) -> dict[str, Any]:
        path = None if session.dataset else str(session.folder / session.source[0])
        try:
            frame = read_preview(path, session.kind, na_values, session.dataset)
        except Exception:  # the command line says why, in its words
            result = _run(session, ["report", *session.source, "--format=csv",
                                    f"--output={session.outdir / 'check.csv'}", "--force"])
            raise ValueError(result.error or "cannot read the file") from None
        if not na_values and session.dataset is None:
            codes = missing_codes(frame)
            if codes:  # read again with them, and show them as chosen
                na_values = codes
                frame = read_preview(path, session.kind, na_values)
        session.detected = detect(frame, **corrections)
        session.baseline = detect(frame, layout="wide")  # flags only for what differs
        return _preview(session, frame, na_values)

    async def upload(request: Request) -> Response:
        session = session_of(request)
        name = request.query_params.get("name", "").strip() or "ratings.csv"
        length = request.headers.get("content-length", "")
        too_large = (f"cannot read {name!r}: larger than the upload limit of {max_upload} "
                     "bytes; start irr app with --max-upload to raise it")
        if length.isdigit() and int(length) > max_upload:
            return _error(too_large, 413)
        kind = suffix_kind(name)[1]
        session.clear_report()
        session.source, session.detected, session.baseline = [], None, None  # until read
        for old in session.folder.iterdir():
            if old.is_file():
                old.unlink()
        target = session.folder / stored_name(name)
        size = 0
        with open(target, "wb") as handle:
            async for chunk in request.stream():
                size += len(chunk)
                if size > max_upload:
                    handle.close()
                    target.unlink()
                    return _error(too_large, 413)
                handle.write(chunk)
        if size == 0:
            target.unlink()
            return _error(f"cannot read {name!r}: the file is empty")
        session.name, session.kind, session.dataset = name, kind, None
        if kind == "excel":
            try:
                import openpyxl  # noqa: F401  (pandas reads .xlsx with it)
            except ImportError:
                target.unlink()
                return _error(f"cannot read {name!r}: reading Excel files needs openpyxl "
                              "(pip install openpyxl); or save the sheet as CSV")
            try:
                sheet = await run_in_threadpool(pd.read_excel, target)
            except Exception as exc:  # openpyxl raises its own error types
                return _error(f"cannot read {name!r} as Excel: "
                              f"{str(exc).strip().splitlines()[0] if str(exc).strip() else exc}")
            csv_path = target.with_suffix(".csv")
            sheet.to_csv(csv_path, index=False)
            target.unlink()
            target, session.kind = csv_path, "csv"
        session.source = [target.name]
        return await _loaded(session, [], {})

    async def _loaded(session: Session, na_values: list[str], corrections: dict[str, Any]
                      ) -> Response:
        try:
            body = await run_in_threadpool(load, session, na_values, corrections)
        except ValueError as exc:
            return _error(str(exc))
        return JSONResponse(body)

    async def choose_dataset(request: Request) -> Response:
        session = session_of(request)
        body = await _json(request)
        name = body.get("name") if isinstance(body, dict) else None
        if name not in dataset_names():
            return _error(f"unknown data set {name!r}; bundled ones are "
                          f"{', '.join(dataset_names())}")
        session.clear_report()
        session.detected = session.baseline = None  # until read
        session.name, session.kind, session.dataset = name, "dataset", name
        session.source = [f"--dataset={name}"]
        return await _loaded(session, [], {})

    async def preview(request: Request) -> Response:
        session = session_of(request)
        if not session.source:
            return _error("no data yet: upload a file or choose a data set")
        body = await _json(request)
        try:
            choices = Choices.from_json(body)
        except ValueError as exc:
            return _error(str(exc))
        corrections: dict[str, Any] = {"layout": choices.layout}
        if choices.layout == "long":
            corrections["long"] = {k: v for k, v in (("subject", choices.subject),
                                                     ("rater", choices.rater),
                                                     ("rating", choices.rating)) if v}
        else:
            corrections["ids"] = choices.ids or None
            corrections["raters"] = choices.raters or None
        return await _loaded(session, choices.na_values, corrections)

    async def report(request: Request) -> Response:
        session = session_of(request)
        if not session.source or session.baseline is None:
            return _error("no data yet: upload a file or choose a data set")
        try:
            choices = Choices.from_json(await _json(request))
        except ValueError as exc:
            return _error(str(exc))
        try:
            args = report_arguments(session.source, choices, session.baseline)
        except ValueError as exc:
            return _error(str(exc))
        session.clear_report()
        target = session.outdir / "report.html"
        result = await run_in_threadpool(
            _run, session, ["report", *args, "--format=html", f"--output={target}", "--force"])
        if result.error:
            return _error(result.error)
        text = target.read_text(encoding="utf-8")
        session.outputs["html"] = target
        session.report_args = args
        session.figures = [(html.unescape(caption), base64.b64decode(svg).decode("utf-8"))
                           for caption, svg in _FIGURE.findall(text)]
        return JSONResponse({
            "command": _command(session, ["report", *args]),
            "notes": result.notes,
            "figures": [caption for caption, _ in session.figures],
        })

    async def view(request: Request) -> Response:
        session = session_of(request)
        path = session.outputs.get("html")
        if path is None:
            return PlainTextResponse("no report yet", status_code=404)
        return Response(path.read_text(encoding="utf-8"), media_type="text/html; charset=utf-8",
                        headers={"content-security-policy": REPORT_CSP})

    async def download(request: Request) -> Response:
        session = session_of(request)
        name = request.path_params["name"]
        if not session.report_args:
            return PlainTextResponse("no report yet: compute it first", status_code=404)
        stem = "reliability-report"
        figure = re.fullmatch(r"figure-(\d+)\.svg", name)
        if figure:
            number = int(figure.group(1))
            if not 1 <= number <= len(session.figures):
                return PlainTextResponse("no such figure", status_code=404)
            return Response(session.figures[number - 1][1], media_type="image/svg+xml",
                            headers=_attachment(f"{stem}-{name}"))
        formats = {"report.html": ("html", "text/html; charset=utf-8"),
                   "results.csv": ("csv", "text/csv; charset=utf-8"),
                   "results.json": ("json", "application/json")}
        if name not in formats:
            return PlainTextResponse("not found", status_code=404)
        fmt, media = formats[name]
        path = session.outputs.get(fmt)
        if path is None:  # the same report in another format, made when first asked for
            path = session.outdir / f"results.{fmt}"
            result = await run_in_threadpool(
                _run, session, ["report", *session.report_args, "--no-figures",
                                f"--format={fmt}", f"--output={path}", "--force"])
            if result.error:
                return PlainTextResponse(result.error, status_code=400)
            session.outputs[fmt] = path
        suffix = name.rsplit(".", 1)[1]
        return Response(path.read_bytes(), media_type=media,
                        headers={**_attachment(f"{stem}.{suffix}"),
                                 **({"content-security-policy": REPORT_CSP}
                                    if fmt == "html" else {})})

    async def plan(request: Request) -> Response:
        body = await _json(request)
        target = body.get("target") if isinstance(body, dict) else None
        if target not in PLAN_FIELDS:
            return _error(f"unknown planning target {target!r}; the page plans "
                          f"{', '.join(PLAN_FIELDS)}")
        args = ["plan", target]
        unknown = [k for k, v in body.items() if k != "target" and (
            k not in PLAN_FIELDS[target] or not isinstance(v, (str, int, float)))]
        if unknown:
            return _error(f"unknown or bad planning field {unknown[0]!r}")
        for name in PLAN_FIELDS[target]:  # in a fixed order: the command reads the same
            value = body.get(name)
            if value is None or str(value).strip() == "":
                continue
            if name in _SINGLE:
                args += [f"--{name}", str(value)]
            else:
                values = [v for v in re.split(r"[\s,;]+", str(value).strip()) if v]
                args += [f"--{name}", *values]
        with tempfile.TemporaryDirectory(dir=root) as folder:
            out = pathlib.Path(folder)
            table = await run_in_threadpool(
                run_command, [*args, "--format=json", f"--output={out / 'plan.json'}"])
            if table.error:
                return _error(table.error)
            words = await run_in_threadpool(
                run_command, [*args, "--format=text", f"--output={out / 'plan.txt'}"])
            rows = json.loads((out / "plan.json").read_text(encoding="utf-8"))
            text = (out / "plan.txt").read_text(encoding="utf-8") if not words.error else ""
        sentences = [line[2:] for line in text.partition("\nReport:\n")[2].splitlines()
                     if line.startswith("- ")]
        return JSONResponse({"rows": rows, "sentences": sentences,
                             "command": "irr " + shlex.join(args)})

    async def guarded(request: Request, handler: Any) -> Response:
        try:
            return await handler(request)
        except LookupError as exc:
            return _error(str(exc).strip("'\""), 404)

    def route(path: str, handler: Any, methods: list[str]) -> Route:
        async def endpoint(request: Request) -> Response:
            return await guarded(request, handler)

        return Route(path, endpoint, methods=methods)

    app = Starlette(routes=[
        Route("/", index, methods=["GET"]),
        Route("/static/{name}", asset, methods=["GET"]),
        Route("/api/meta", meta, methods=["GET"]),
        Route("/api/session", new_session, methods=["POST"]),
        route("/api/s/{sid}/upload", upload, ["POST"]),
        route("/api/s/{sid}/dataset", choose_dataset, ["POST"]),
        route("/api/s/{sid}/preview", preview, ["POST"]),
        route("/api/s/{sid}/report", report, ["POST"]),
        route("/api/s/{sid}/report.html", view, ["GET"]),
        route("/api/s/{sid}/download/{name}", download, ["GET"]),
        Route("/api/plan", plan, methods=["POST"]),
    ])
    app.state.sessions = sessions
    return Guard(app, token, hosts)


async def _json(request: Request) -> Any:
    try:
        return await request.json()
    except ValueError:
        return None


def _attachment(filename: str) -> dict[str, str]:
    return {"content-disposition": f'attachment; filename="{filename}"'}


def serve(port: int | None = None, *, open_browser: bool = True, dataset: str | None = None,
          max_upload: int = DEFAULT_UPLOAD) -> int:
    """Run the app until Ctrl-C: bind 127.0.0.1 (on `port`, else a free one), print the
    page's address with its token as the first line on standard output, open the browser
    (unless not `open_browser`), and remove the temporary folder on the way out.
    Returns 0."""
    token = secrets.token_urlsafe(24)
    root = pathlib.Path(tempfile.mkdtemp(prefix="irr-app-"))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port or 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/?token={token}"
        app = create_app(token, root, max_upload=max_upload, dataset=dataset)
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3,
                                server_header=False)
        server = uvicorn.Server(config)
        print(url, flush=True)
        print("irr app: serving on this machine only; press Ctrl-C to stop.", file=sys.stderr,
              flush=True)
        if open_browser:
            threading.Timer(0.5, webbrowser.open, args=(url,)).start()
        # uvicorn raises the signal again once it has shut down: stopping is the normal end
        with contextlib.suppress(KeyboardInterrupt):
            server.run(sockets=[sock])
    finally:
        sock.close()
        shutil.rmtree(root, ignore_errors=True)
    print("irr app: stopped; its temporary files are removed.", file=sys.stderr, flush=True)
    return 0
