import sys

from p2pwillow.cli import main

sys.exit(main())
