"""``python -m gongzhu``: the same as the ``gongzhu`` command (see :mod:`gongzhu.cli`)."""

import sys

from gongzhu.cli import main

if __name__ == "__main__":
    sys.exit(main())
