"""Learning fcsim's players from self-play: training positions, the fit, training folders.

Playing a model needs only numpy and numba (:mod:`fcsim.strategies.learned`); fitting one
needs the ``[learn]`` extra (scikit-learn).
"""
