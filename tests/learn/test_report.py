"""The training report on a hand-made fit: each epoch's training and held-out error in
their own columns and curves, the held-out predictions against their outcomes."""

from __future__ import annotations

from pathlib import Path

import pytest
from matplotlib.axes import Axes

from fcsim.learn.fit import FitResult
from fcsim.learn.report import report_lines, write_report
from fcsim.strategies.learned.model import FEATURES_ONLY, Model, new_metadata

# Training error falling to 2, held-out error stalling at 3.5: a held-out curve or column
# copied from the training one would hide the overfitting it is there to show.
RESULT = FitResult({}, FEATURES_ONLY, train_loss=[3.0, 2.0], held_out_loss=[4.0, 3.5],
                   baseline_loss=5.0, calibration=[(-1.0, -0.5, 15), (1.0, 2.0, 15)],
                   train_positions=270, held_out_positions=30)


def test_the_loss_table_shows_each_epoch_s_training_and_held_out_error() -> None:
    """The Markdown report: each epoch's errors in their own columns, the baseline, and
    the held-out predictions against their outcomes."""
    lines = report_lines(Model({}, new_metadata()), RESULT, None)
    assert lines[lines.index("| epoch | training MSE | held-out MSE |") + 2:][:2] == [
        "| 1 | 3.00 | 4.00 |", "| 2 | 2.00 | 3.50 |"]
    assert ("Predicting the training mean scores 5.00 on the held-out positions (30 of "
            "them, every tenth game; 270 training positions).") in lines
    assert "| -1.00 | -0.50 | 15 |" in lines and "| +1.00 | +2.00 | 15 |" in lines


def test_the_report_says_what_the_model_predicts_by_its_labels() -> None:
    """Outcome labels: the round's outcome; rollout labels: a candidate's advantage over
    the position's candidates' mean, which is what the loss and deciles are of."""
    outcome, rollouts = (report_lines(Model({}, new_metadata(labels=labels, candidates=5)),
                                      RESULT, None)[2] for labels in ("outcome", "rollouts"))
    assert outcome.startswith("What the model predicts: the round's outcome for the seat")
    assert rollouts.startswith("What the model predicts: a candidate discard's advantage")
    assert "less the mean over the position's 5 candidates" in rollouts


def test_the_chart_draws_each_curve_from_its_own_errors(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTML report's chart: the held-out curve is the held-out errors by epoch."""
    drawn, plot = {}, Axes.plot

    def recording(self, *args, **kwargs):
        if "label" in kwargs:
            drawn[kwargs["label"]] = list(args[1])
        return plot(self, *args, **kwargs)

    monkeypatch.setattr(Axes, "plot", recording)
    write_report(tmp_path, Model({}, new_metadata()), RESULT, None)
    assert drawn == {"training positions": RESULT.train_loss,
                     "held-out positions": RESULT.held_out_loss}
