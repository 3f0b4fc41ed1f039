"""`python -m companion.docs_tables`: write the tables of docs/ from the code (`make docs`)."""

import sys

from companion.docs_tables import main

if __name__ == "__main__":
    sys.exit(main())
