"""``fcsim tune SPEC --param name=lo:hi``: an Optuna search over parameter ranges, every
trial on the same duplicate deals, then a confirmation on fresh deals."""

from __future__ import annotations

import json
from pathlib import Path

import click

from fcsim.cli.options import InputError
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
from fcsim.strategies import display_name
from fcsim.tune.search import Search
from fcsim.tune.space import inside, parse_ranges

DEFAULT_TRIALS = 40
CONFIRMATION_FILE = "confirmation.json"


def _print_confirmation(result) -> None:
    from fcsim.analysis.stats import bounds_cell, p_text
    from fcsim.tune.page import interval

    if result.diff is not None:
        d = result.diff
        click.echo(f"confirmation: {d.deals:,} fresh deals (root seed {result.seed})")
        best, start = display_name(result.best), display_name(result.start)
        click.echo(f"  {best} - {start}: {d.mean:+.2f} points per game, 95% CI "
                   f"{bounds_cell(d.lo, d.hi)}, {p_text(d.p_value)}")
        for spec, stats in ((best, result.best_stats), (start, result.start_stats)):
            click.echo(f"  {spec}: advantage over the field {interval(stats, 'advantage')}, "
                       f"win share {interval(stats, 'win_share', 3, '')}")
    click.echo(f"  verdict: {result.verdict}")


@click.command("tune", short_help="Search the parameters of a strategy with Optuna, then confirm.")
@click.argument("spec")
@click.option("--param", "params", multiple=True, metavar="NAME=LOW:HIGH",
              help="A parameter and its range (inclusive; whole numbers for integer "
                   "parameters); repeat for several.")
@click.option("--trials", type=int, default=DEFAULT_TRIALS, show_default=True,
              help="Trials in the study (with --resume: in total).")
@click.option("--sampler", default="tpe", show_default=True,
              help="Optuna's sampler: tpe, or cmaes (CMA-ES, two or more parameters).")
@click.option("--prune/--no-prune", default=True, show_default=True,
              help="Stop a trial early once a Wilcoxon test on its deals shows it worse than "
                   "the best so far.")
@click.option("--confirm-deals", type=int,
              help="Fresh deals of the confirmation [default: --deals].")
@search_options
def tune_command(spec, params, trials, sampler, prune, confirm_deals, against, players, deals,
                 seed, out, resume, workers, scheduler, dask_local, rules) -> None:
    """Search parameter ranges of a strategy with Optuna, then confirm on fresh deals.

    Every trial plays the same deals against the same field; the objective is the
    strategy's mean total minus the field's (points per game, minimised). The best trial is
    then played against SPEC itself on deals the search never saw.

    Example: fcsim tune greedy --param take_margin=0:10 --trials 40 --out results/tune
    """
    from fcsim.tune.confirm import confirm
    from fcsim.tune.page import tune_page
    from fcsim.tune.study import (
        STUDY_FILE,
        STUDY_NAME,
        TRIALS_FILE,
        Study,
        StudyError,
        check_sampler,
        import_optuna,
        storage_url,
    )

    confirm_deals = deals if confirm_deals is None else confirm_deals
    check_counts({"--deals": deals, "--trials": trials, "--confirm-deals": confirm_deals},
                 scheduler, dask_local, workers)
    where = setting(spec, against, players, rules)
    ranges = parse_ranges(where.base.family, params)
    described = {**record("tune", where, seed, deals), "params": [r.text() for r in ranges],
                 "sampler": sampler, "prune": prune, "confirm_deals": confirm_deals,
                 "trials": trials}
    check_sampler(sampler, ranges)
    try:
        import_optuna()
    except StudyError as err:
        raise click.ClickException(str(err)) from None
    done = _trials_done(out / TRIALS_FILE) if resume else 0
    if done > trials:
        raise InputError(f"{out} holds {done} trials already, and with --resume --trials "
                         f"counts them all: give --trials {done} or more")
    executor = make_executor(workers, scheduler, dask_local)
    hold_output(out, described, resume, free=("trials",))
    rotations = where.lineup.rotations  # the games of a deal
    runs = trials + (0 if inside(where.base, ranges) else 1)
    progress = SearchProgress(f"tune {where.base.spec}",
                              (runs * deals + 2 * confirm_deals) * rotations)
    search = Search(where.base, arena(where, executor, progress),
                    seed, deals, out)
    study = Study(search, ranges, sampler, prune)
    try:
        with (stops_saying(lambda: f"{len(study.finished)} of {trials} trials are kept in "
                           f"{out} ({STUDY_FILE}); run the same command with --resume to "
                           f"continue."),
              progress):
            study.restore()
            study.run(trials, on_trial=lambda result: study.write(),
                      on_start=lambda number, name: progress.say(
                          f"trial {number + 1} of {trials}, {name}"))
            frame = study.write()
            best = study.best()
            progress.say(f"confirming {best.spec} on {confirm_deals:,} fresh deals")
            result = confirm(search.arena, out, best.spec, where.base.spec, seed, confirm_deals)
    except RunFolderError as err:
        raise click.ClickException(str(err)) from None
    (out / CONFIRMATION_FILE).write_text(json.dumps(result.to_dict(), indent=1) + "\n",
                                         encoding="utf-8")
    typed = command_line("tune", spec, [*(("--param", p) for p in params), ("--against", against),
                                        ("--players", players), ("--trials", trials),
                                        ("--deals", deals), ("--seed", seed), ("--out", out)],
                         where.rules)
    page = tune_page(out, header(typed, where, seed, deals, [
        f"**Search:** {', '.join(r.text() for r in ranges)}; Optuna {sampler.upper()}, "
        f"{'Wilcoxon pruning' if prune else 'no pruning'}; study `{STUDY_NAME}` in "
        f"`{STUDY_FILE}`"]), frame, ranges, result)
    pruned = int(frame["pruned"].sum())
    click.echo(f"{frame.height} trials ({pruned} pruned, {frame['spec'].n_unique()} distinct "
               f"strategies), {deals:,} deals x {rotations} rotations each")
    click.echo(f"best trial {best.number}: "
               f"{describe_row(frame.filter(frame['trial'] == best.number).row(0, named=True))}")
    _print_confirmation(result)
    click.echo(f"wrote {out / TRIALS_FILE}, {out / CONFIRMATION_FILE}, {page} and charts; "
               f"the study: optuna.load_study(study_name={STUDY_NAME!r}, "
               f"storage={storage_url(out)!r})")


def _trials_done(trials_file: Path) -> int:
    """The trials a tune's folder holds (its trials file's rows; 0 if it has none)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(trials_file).metadata.num_rows
    except (OSError, pa.ArrowInvalid):
        return 0
