"""Parameters of a strategy family found with few games: ``fcsim sweep`` and ``fcsim tune``.

Every candidate plays the same field on the same duplicate deals (common random numbers),
so candidates compare deal by deal and few games decide.

- :mod:`~fcsim.tune.space`: the grid and the ranges, checked against the declared bounds.
- :mod:`~fcsim.tune.lineup`: where the candidate sits in the field (``--against``).
- :mod:`~fcsim.tune.deals`: the candidate's result per deal; :mod:`~fcsim.tune.summary`:
  a point's or trial's statistics from them.
- :mod:`~fcsim.tune.arena` and :mod:`~fcsim.tune.search`: playing a candidate (one run
  folder per spec, chunks handed on in order, early stop).
- :mod:`~fcsim.tune.sweep`, :mod:`~fcsim.tune.study` (Optuna), :mod:`~fcsim.tune.confirm`
  (fresh deals), :mod:`~fcsim.tune.output` (the output folder), :mod:`~fcsim.tune.charts`
  and :mod:`~fcsim.tune.page` (the report).
"""
