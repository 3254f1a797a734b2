"""The training report: the loss by epoch, predictions against outcomes, the strength
check and the model's provenance (``DIR/report.md`` and ``DIR/report.html``)."""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

from fcsim.learn.fit import FitResult
from fcsim.learn.sampling import ROLLOUTS
from fcsim.learn.training import REPORT_HTML, REPORT_MD, provenance
from fcsim.strategies.learned.model import Model


def _loss_chart(result: FitResult) -> bytes:
    """A PNG of the training and held-out error by epoch."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (loss, calib) = plt.subplots(1, 2, figsize=(9, 3.4))
    epochs = range(1, len(result.train_loss) + 1)
    loss.plot(epochs, result.train_loss, marker="o", label="training positions")
    loss.plot(epochs, result.held_out_loss, marker="o", label="held-out positions")
    loss.axhline(result.baseline_loss, color="grey", ls="--", label="predicting the mean")
    loss.set(xlabel="epoch", ylabel="mean squared error", title="Loss by epoch")
    loss.legend(fontsize=8)
    predicted = [p for p, _, _ in result.calibration]
    actual = [a for _, a, _ in result.calibration]
    calib.plot(predicted, actual, marker="o")
    low, high = min(predicted + actual), max(predicted + actual)
    calib.plot([low, high], [low, high], color="grey", ls="--")
    calib.set(xlabel="predicted (points vs the table)", ylabel="actual",
              title="Held-out positions, by prediction decile")
    fig.tight_layout()
    sink = io.BytesIO()
    fig.savefig(sink, format="png", dpi=100)
    plt.close(fig)
    return sink.getvalue()


def _loss_table(result: FitResult) -> list[str]:
    """A fit's training and held-out error by epoch, as a Markdown table."""
    return ["| epoch | training MSE | held-out MSE |", "| ---: | ---: | ---: |",
            *[f"| {i} | {t:.2f} | {h:.2f} |" for i, (t, h)
              in enumerate(zip(result.train_loss, result.held_out_loss, strict=True), 1)]]


def _draw_lines(draw: FitResult | None) -> list[str]:
    """What the draw network's fit measured, if there is one."""
    if draw is None:
        return []
    lines = ["", "## The draw network", "",
             "What it predicts: the round's outcome after taking the pile's card less the "
             "outcome after a stock draw (both played out), for the draws worth weighing.", "",
             *_loss_table(draw)]
    lines += ["", f"Predicting the training mean scores {draw.baseline_loss:.2f} on the "
              f"{draw.held_out_positions:,} held-out draws ({draw.train_positions:,} training "
              f"draws)."]
    return lines


def _target(model: Model) -> str:
    """What the discard network predicts, by the labels it was fitted on."""
    outcome = ("the round's outcome for the seat that discards (its penalty less the other "
               "seats' mean)")
    if model.metadata.get("labels") != ROLLOUTS:
        return (f"What the model predicts: {outcome}, from the features of the position the "
                f"discard leaves.")
    return (f"What the model predicts: a candidate discard's advantage, {outcome} with the "
            f"discard played out from the true position, less the mean over the position's "
            f"{model.metadata.get('candidates')} candidates; from the features of the "
            f"position each discard leaves, relative to the candidates' mean.")


def report_lines(model: Model, result: FitResult, check: dict | None,
                 draw: FitResult | None = None) -> list[str]:
    """The report as Markdown lines."""
    lines = ["# Training report", "", _target(model), "", *_loss_table(result)]
    lines += ["", f"Predicting the training mean scores {result.baseline_loss:.2f} on the "
              f"held-out positions ({result.held_out_positions:,} of them, every tenth game; "
              f"{result.train_positions:,} training positions).", "",
              "| predicted (decile mean) | actual | positions |", "| ---: | ---: | ---: |"]
    lines += [f"| {p:+.2f} | {a:+.2f} | {n:,} |" for p, a, n in result.calibration]
    lines += _draw_lines(draw)
    lines += ["", "## Strength check", "",
              check["line"] if check else "Not run (--check-deals 0).", "",
              "## Provenance", "", "```json",
              json.dumps({**provenance(model), "sha256": model.sha256}, indent=2,
                         sort_keys=True), "```"]
    return lines


def write_report(out: Path, model: Model, result: FitResult, check: dict | None,
                 draw: FitResult | None = None) -> None:
    """Write ``out/report.md`` and ``out/report.html`` (the chart inline)."""
    lines = report_lines(model, result, check, draw)
    chart = base64.b64encode(_loss_chart(result)).decode()
    (out / REPORT_MD).write_text("\n".join(lines) + "\n")
    (out / REPORT_HTML).write_text(
        "<!doctype html><meta charset='utf-8'><title>fcsim training report</title>"
        f"<img alt='loss by epoch' src='data:image/png;base64,{chart}'>\n<pre>"
        f"{html.escape(chr(10).join(lines))}</pre>\n")
