"""fcsim's version, in a module of its own: the code digest of a run (the modules that play
its games) reads it without the package's top-level API, whose sources do not play."""

__version__ = "0.1.0"
