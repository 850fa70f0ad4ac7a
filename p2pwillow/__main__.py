import sys

from p2pwillow.cli import main

# Guarded: worker processes started with "spawn" (`willow verify -j N`) import this module.
if __name__ == "__main__":
    sys.exit(main())
