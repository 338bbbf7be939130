#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print fields (a.b for nested) of the JSON object on stdin, space separated."""
import json
import sys

d = json.load(sys.stdin)
vals = []
for key in sys.argv[1:]:
    v = d
    for part in key.split('.'):
        v = v[part]
    vals.append(str(v).lower() if isinstance(v, bool) else str(v))
print(' '.join(vals))
