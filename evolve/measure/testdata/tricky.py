"""Constructs where tree-sitter's tree and Python's ast differ in shape.

Cross-checked against Python's ast by TestCrossCheck/testdata.
"""
from __future__ import annotations

import os.path
import xml.etree.ElementTree as ET
import numpy as np
import torch
from collections import Counter as C, deque
from .sibling import helper
from . import local
from newClass42 import newFunc42


@staticmethod
@functools.lru_cache(maxsize=None)
def decorated(a, b=-1, *rest, key: int = 2, **kw) -> int:
    x = y = z = a + b
    x: int = 3
    w: list
    [p, q], *r = (1, 2), 3, 4
    x += -y
    if a and b and c or not d:
        pass
    elif a < b < c and (b and c):
        pass
    elif (x := 5) > 3:
        pass
    else:
        if q:
            if r:
                pass
    if a:
        pass
    else:
        # a comment before the else-if
        if b:
            pass
        y = 1
    for i in range(len(x) - 1):
        while i > 0 and i < 10:
            i -= 1
            continue
        else:
            break
    else:
        pass
    try:
        v = int(str(float(x)))
        v = list(*map(int, x))
        v = int((abs(x)))
    except (ValueError, TypeError) as exc:
        raise
    except Exception:
        return decorated(a)
    else:
        pass
    finally:
        del x
    with open(a) as fh, open(b) as (g, h):
        s = fh.read()
    result = (s
              .strip()
              .split(","))
    msg = ("a"
           "b"
           f"{x + 1!r:>{w}}")
    doc = """multi
    line {not interpolated}
    """
    t = f"""{
        x
    }"""
    lam = lambda q: (q > 1)
    lam2 = lambda q: q + 1
    cond = a if b else c if d else e
    comps = [i for i in x if i if not i for j in i if j > 0]
    d = {k: v for k, v in x.items() if -k}
    s = {i for i in x}
    g = sum(i * 2 for i in x)
    ok = any(i > 0 for i in x) and all([i for i in x]) or any(x)
    np.array([1, 2]).sum()
    torch.tensor(1)
    ET.parse(a)
    os.path.join(a, b)
    C(x).most_common()
    deque()
    helper()
    local.thing()
    newFunc42()
    enumerate(x)
    threading.Thread(target=decorated)
    self.method()
    if x is not None and y not in z and ... and "s" and f"t" and 1.5 and True and -1 and x.y and x[0]:
        pass
    return x[1:2, ::3]


async def coroutine(items):
    async for item in items:
        async with item as it:
            await it
    return [i async for i in items]


@dataclass
class Klass(Base, metaclass=Meta):
    field: int = 0

    def method(self):
        def inner():
            return inner()
        self.method()
        return method()

    def recursive(self, n):
        return self.recursive(n - 1) if n else recursive(n)


match command.split():
    case [action]:
        pass
    case [action, obj] if obj:
        pass
    case Point(x=0, y=-1) | {"k": [1, 2]}:
        pass
    case _:
        pass

while True:
    x = [1, [2, [3]]]
    if x:
        break
print(x, end="")
y = foo(
    (
        a
    ),
    (
        b,
    ),
)
z = (
    a
).b(
    c
)
