"""``fcsim report``: statistics, ratings and charts of one or several run folders."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("report")
@click.argument("paths", metavar="PATH...", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("report"), show_default=True,
              help="Folder for report.md, report.html and the chart PNGs.")
def report_command(paths: tuple[Path, ...], out_dir: Path) -> None:
    """Write a report on the run folder(s) PATH..., e.g. fcsim report results/run1.

    Several folders are combined (they must share their rules)."""
    # imported here: the analysis stack (scipy, matplotlib) would slow every other command
    import polars as pl

    from fcsim.analysis.load import RunFolderError
    from fcsim.analysis.report import build_report

    try:
        page = build_report(paths, out_dir)
    except RunFolderError as err:
        raise click.ClickException(str(err)) from None
    except (pl.exceptions.PolarsError, OSError) as err:
        lines = str(err).strip().splitlines() or [type(err).__name__]
        raise click.ClickException(f"cannot read the results: {lines[0]}") from None
    click.echo(f"wrote {page} and {page.with_suffix('.md')} (charts beside them)")
