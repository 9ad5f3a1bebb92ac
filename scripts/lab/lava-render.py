#!/usr/bin/python3
"""lava-render.py [--lax] TEMPLATE OUT [NAME=VALUE]...: render a Jinja2
template (a LAVA job of lava/, or a device dictionary with the device-type
templates of lava-server on LAVA_DEVICE_TYPES, a directory) with the
variables given (a VALUE in [] or {} is JSON), and write OUT. Undefined
variables are errors, except with --lax, for lava-server's device-type
templates, which test variables that a device leaves undefined."""
import json
import os
import sys

import jinja2


def main():
    args = sys.argv[1:]
    lax = args[:1] == ["--lax"]
    if lax:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    template, out = args[0], args[1]
    values = {}
    for a in args[2:]:
        k, v = a.split("=", 1)
        values[k] = json.loads(v) if v[:1] in ("[", "{") else v
    path = [os.path.dirname(os.path.abspath(template))]
    if os.environ.get("LAVA_DEVICE_TYPES"):
        path.append(os.environ["LAVA_DEVICE_TYPES"])
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(path),
                             undefined=jinja2.Undefined if lax else jinja2.StrictUndefined,
                             keep_trailing_newline=True)
    text = env.get_template(os.path.basename(template)).render(**values)
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.rename(out + ".tmp", out)


if __name__ == "__main__":
    main()
