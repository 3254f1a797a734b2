"""``fcsim report``: statistics, ratings and charts of one or several run folders.

The report is written into a temporary folder beside ``--out`` and swapped in whole at the
end, so an interrupted report leaves the previous one (or none), never a mix.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import click

from fcsim.cli import exit_stopped, system_refusal
from fcsim.cli.options import check_run_folders
from fcsim.runner.durable import replace_folder

REPORT_SUFFIXES = (".md", ".html", ".png")  # all a report folder holds
REPORT_PAGE = "report.md"  # what every report folder holds


def _check_out(out_dir: Path) -> None:
    """Refuse an ``--out`` that holds anything but a report (it is replaced whole): a
    folder that is not empty must hold a report's page, and nothing a report does not
    write; and never the folder the command runs in."""
    if out_dir.exists() and not out_dir.is_dir():
        raise click.ClickException(f"{out_dir} is a file; choose another --out")
    if out_dir.resolve() in (Path.cwd().resolve(), *Path.cwd().resolve().parents):
        raise click.ClickException(f"{out_dir} holds the folder fcsim runs in, and a report "
                                   f"replaces its whole folder; choose another --out")
    if out_dir.is_dir():
        names = sorted(p.name for p in out_dir.iterdir())
        other = sorted(p.name for p in out_dir.iterdir()
                       if p.is_dir() or p.suffix not in REPORT_SUFFIXES)
        if names and not other and REPORT_PAGE not in names:
            other = names  # pages and pictures of its own: no report's
        if other:
            raise click.ClickException(f"{out_dir} holds {other[0]}, which is no part of a "
                                       f"report (a report replaces its whole folder); "
                                       f"choose another --out")


def _folder_mode() -> int:
    """The mode a folder made now gets (the process's umask applied)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o777 & ~mask


def _state(temp: Path) -> str:
    """What a report stopped part way left in ``--out``: the new report is moved in whole
    from ``temp``, or not at all."""
    return "was not changed" if temp.exists() else "holds the new report"


@click.command("report", short_help="Write tables and charts of one or more run folders.")
@click.argument("paths", metavar="PATH...", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("report"), show_default=True,
              help="Folder for report.md, report.html and the chart PNGs (replaced whole).")
def report_command(paths: tuple[Path, ...], out_dir: Path) -> None:
    """Write a report on the run folder(s) PATH..., for example: fcsim report results/run1.

    Several folders are combined; they must share their rules and hold different games.
    Every chunk is checked first. Ctrl-C leaves the previous report as it was.
    """
    check_run_folders(paths)
    _check_out(out_dir)
    # imported here, after the paths are checked: the analysis stack (scipy, matplotlib)
    # would slow every other command, and the one line a mistyped path gets
    import polars as pl

    from fcsim.analysis.load import RunFolderError, mixed_sources
    from fcsim.analysis.report import build_report, unfinished_runs

    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        temp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp",
                                     dir=out_dir.parent))
        temp.chmod(_folder_mode())  # mkdtemp's is the owner's alone
    except OSError as err:
        raise click.ClickException(f"cannot write {out_dir}: {err.strerror}") from None
    try:
        page = build_report(paths, temp)
        replace_folder(temp, out_dir)
    except KeyboardInterrupt:
        exit_stopped(f"{out_dir} {_state(temp)}.")
    except RunFolderError as err:
        raise click.ClickException(str(err)) from None
    except pl.exceptions.PolarsError as err:
        lines = str(err).strip().splitlines() or [type(err).__name__]
        raise click.ClickException(f"cannot read the results: {lines[0]}") from None
    except OSError as err:  # a chart or page that cannot be written (a full disk), a file gone
        raise click.ClickException(f"{system_refusal(err)}; {out_dir} {_state(temp)}") from None
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    page = out_dir / page.name
    for phrase in unfinished_runs(paths):
        click.echo(f"warning: {phrase}: the report covers the games played so far", err=True)
    for phrase in mixed_sources(paths):
        click.echo(f"warning: {phrase}", err=True)
    click.echo(f"wrote {page} and {page.with_suffix('.md')} (charts beside them)")
