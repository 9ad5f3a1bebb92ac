#!/usr/bin/python3
"""lava-validate.py JOB...: check LAVA job definitions offline against the
job schema of lava-common (Debian's package, the schema the LAVA server
checks a submitted job against), strictly. Prints "PASS lava job NAME" or
"FAIL lava job NAME: why" for each; exits 1 if any failed."""
import os
import sys

import yaml
from lava_common.schemas import validate
from voluptuous import Invalid


def main():
    failed = 0
    for path in sys.argv[1:]:
        name = os.path.basename(path)
        try:
            with open(path) as f:
                data = yaml.safe_load(f)
            validate(data, strict=True)
        except (Invalid, yaml.YAMLError, OSError, KeyError, TypeError, AttributeError) as exc:
            print("FAIL lava job %s: %s" % (name, str(exc).replace("\n", " ")))
            failed = 1
        else:
            print("PASS lava job %s" % name)
    return failed


if __name__ == "__main__":
    sys.exit(main())
