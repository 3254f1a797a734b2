"""``fcsim sweep SPEC --grid name=v1,v2,…``: every grid point against the same field on the
same duplicate deals; one row per point (Parquet, a table, a chart, a report page)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from fcsim.cli.progress import print_table
from fcsim.cli.running import check_counts, stops_saying
from fcsim.cli.searching import (
    SearchProgress,
    arena,
    command_line,
    describe_row,
    header,
    hold_output,
    make_executor,
    record,
    search_options,
    setting,
)
from fcsim.runner import RunFolderError
from fcsim.tune.search import Search
from fcsim.tune.space import grid_points, parse_grid, with_values


def _print_points(points, names: list[str]) -> None:
    """The points as a table: the difference against the reference first."""
    from fcsim.analysis.stats import p_cell
    from fcsim.tune.page import interval
    from fcsim.tune.sweep import best_row

    table = Table(show_edge=False)
    for title in (*names, "diff [95% CI]", "p", "win share [95% CI]", "mean total", ""):
        table.add_column(title, justify="right", no_wrap=True)
    best = best_row(points)["point"]
    for row in points.iter_rows(named=True):
        note = "best" if row["point"] == best else ("reference" if row["reference"] else "")
        table.add_row(*(f"{row[n]:g}" for n in names), interval(row, "diff"),
                      p_cell(row["p_value"]), interval(row, "win_share", 3, ""),
                      f"{row['mean_total']:.1f}", note)
    print_table(table)


@click.command("sweep", short_help="Play every point of a parameter grid on the same deals.")
@click.argument("spec")
@click.option("--grid", "grids", multiple=True, metavar="NAME=V1,V2,…",
              help="A parameter and its values (or NAME=LOW:HIGH[:STEP]); repeat for a grid "
                   "of several parameters.")
@search_options
def sweep_command(spec, grids, against, players, deals, seed, out, resume, workers, scheduler,
                  dask_local, rules) -> None:
    """Play every point of a parameter grid against the same field on the same deals.

    Each point is compared deal by deal with SPEC itself (the reference): its difference
    in points per game with a 95% interval, its win share and mean total.

    Example: fcsim sweep greedy --grid take_margin=0:6 --deals 500 --out results/sweep
    """
    from fcsim.tune.page import SWEEP_CHART, sweep_page
    from fcsim.tune.sweep import POINTS_FILE, best_row, run_sweep

    check_counts({"--deals": deals}, scheduler, dask_local, workers)
    where = setting(spec, against, players, rules)
    axes = parse_grid(where.base.family, grids)
    names = [axis.param.name for axis in axes]
    specs = {with_values(where.base, values).spec for values in grid_points(axes)}
    runs = len(specs | {where.base.spec})
    described = {**record("sweep", where, seed, deals),
                 "grid": {axis.param.name: list(axis.values) for axis in axes}}
    executor = make_executor(workers, scheduler, dask_local)
    hold_output(out, described, resume)
    progress = SearchProgress(f"sweep {where.base.spec}", runs * deals * where.lineup.rotations)
    search = Search(where.base, arena(where, executor, progress),
                    seed, deals, out)
    try:
        with stops_saying(lambda: f"every finished chunk is kept in {out}; run the same "
                          f"command with --resume to complete the sweep."), progress:
            points = run_sweep(search, axes, lambda index, spec: progress.say(
                f"point {index + 1} of {len(specs)}, {spec}"))
    except RunFolderError as err:
        raise click.ClickException(str(err)) from None
    typed = command_line("sweep", spec, [*(("--grid", g) for g in grids), ("--against", against),
                                         ("--players", players), ("--deals", deals),
                                         ("--seed", seed), ("--out", out)], where.rules)
    page = sweep_page(out, header(typed, where, seed, deals, [f"**Grid:** {', '.join(grids)}"]),
                      points, axes)
    _print_points(points, names)
    click.echo(f"best: {describe_row(best_row(points))}")
    click.echo(f"{len(points)} points x {deals:,} deals x {where.lineup.rotations} rotations; "
               f"wrote {Path(out) / POINTS_FILE}, {page} and {Path(out) / SWEEP_CHART}")
