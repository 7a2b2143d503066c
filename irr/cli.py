"""The ``irr`` command line: agreement statistics on a CSV file or a bundled data set."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="irr", description="Inter-rater reliability and agreement statistics."
    )
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    commands = parser.add_subparsers(dest="command", required=True)
    kappa = commands.add_parser(
        "kappa",
        help="Cohen's and weighted kappa of two raters",
        description="Percent agreement and Cohen's, linear and quadratic kappa of two raters, "
        "or one kappa with --weights.",
    )
    source = kappa.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="CSV file, one row per subject ('-' for stdin)")
    source.add_argument("--dataset", help="a bundled data set (see irr.datasets.names())")
    kappa.add_argument("--raters", nargs=2, metavar=("COL_A", "COL_B"), help="rater columns")
    kappa.add_argument(
        "--weights",
        choices=["unweighted", "linear", "quadratic"],
        help="report one kappa with these weights (default: all three)",
    )
    kappa.add_argument(
        "--categories", nargs="+", metavar="LABEL", help="the full ordered scale"
    )
    kappa.add_argument("--confidence-level", type=float, default=0.95)
    kappa.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    return parser


def _version() -> str:
    from irr._version import __version__

    return f"irr {__version__}"


def _read_frame(args: argparse.Namespace):
    import pandas as pd

    import irr

    if args.dataset is not None:
        return irr.datasets.load(args.dataset)
    source = sys.stdin if args.file == "-" else args.file
    try:
        return pd.read_csv(source)
    except FileNotFoundError:
        raise ValueError(f"cannot read {args.file!r}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"cannot read {args.file!r} as CSV: {first}") from None


def _coerce_categories(labels: list[str] | None, frame, raters):
    """Read --categories as numbers when the rater columns are numeric."""
    if labels is None:
        return None
    from pandas.api.types import is_numeric_dtype

    if all(is_numeric_dtype(frame[r]) for r in raters):
        try:
            return [int(x) if float(x).is_integer() else float(x) for x in labels]
        except ValueError:
            raise ValueError(f"--categories must be numbers for numeric ratings; got {labels}") from None
    return labels


def _kappa(args: argparse.Namespace) -> str:
    import irr

    frame = _read_frame(args)
    raters = args.raters or list(frame.columns[:2])
    categories = _coerce_categories(args.categories, frame, [r for r in raters if r in frame])
    ag = irr.Agreement.from_frame(frame, raters, categories=categories)
    if args.weights is None:
        return ag.summary(confidence_level=args.confidence_level).as_text()
    weights = None if args.weights == "unweighted" else args.weights
    return ag.kappa(weights, confidence_level=args.confidence_level).summary().as_text()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``irr`` command; returns the exit status (0 ok, 1 error, 2 usage)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        text = _kappa(args)
    except (ValueError, TypeError, OSError) as exc:
        if args.debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"irr: error: {message}", file=sys.stderr)
        return 1
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
