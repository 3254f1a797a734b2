"""``python -m fcsim`` runs the command line."""

from fcsim.cli import main

main()
