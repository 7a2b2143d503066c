"""``irr app``: the reliability report in the browser, for people who do not code.

A local web server (Starlette, served by uvicorn) bound to 127.0.0.1, with a random token
in its address; one page to upload a ratings file (or pick a bundled data set), check what
was detected, choose the statistics, read the report and download it, and plan a study.
The page runs the command line (:func:`irr.cli.main`) for every number it shows, so its
numbers and messages are the command line's. Imported only by ``irr app``; needs the
``app`` extra (``pip install "irrstats[app]"``).
"""

from irr.app.server import create_app, serve

__all__ = ["create_app", "serve"]
