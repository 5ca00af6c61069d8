"""Loop and branch results written straight into the loop's carried buffers
(the host program's `direct_yields`, XLA's copy insertion sharing a while
body's results with its parameter) on floors through the PJRT plugin against
XLA:CPU, bit for bit. Each body is a shape of dataflow where writing a new
value early would clobber an old one still needed: rotations and swaps of
the carry, a new value computed while the old one is read afterwards, the
same value yielded twice, branches that pass a carried value through or
swap two, index switches, nested loops handing their state down, scans
stacking outputs, and fori_loops whose counter is read after its
increment."""

import jax.numpy as jnp
import numpy as np
from jax import lax

from test_sort_select import _same

X = np.linspace(-1.0, 1.0, 8, dtype=np.float32)
Y = np.linspace(2.0, 3.0, 8, dtype=np.float32)


def test_rotation_and_swap(devices):
    def f(a, b):
        fib = lax.fori_loop(0, 9, lambda i, c: (c[1], c[0] + c[1]), (a, b))
        swp = lax.fori_loop(0, 7, lambda i, c: (c[1] * 2.0, c[0] + 1.0), (a, b))
        return fib, swp
    _same(f, (X, Y), devices)


def test_new_value_while_the_old_is_read(devices):
    def f(a, b):
        def body(i, c):
            x, y = c
            xn = jnp.flip(y) * 0.5          # x's new value does not read x ...
            yn = y + x                       # ... but x's old value is read after it
            return xn, yn + xn
        return lax.fori_loop(0, 6, body, (a, b))
    _same(f, (X, Y), devices)


def test_same_value_yielded_twice(devices):
    def f(a, b):
        def body(i, c):
            x, y, z = c
            n = jnp.sort(x + y)
            return n, n, z + n
        return lax.fori_loop(0, 5, body, (a, b, a))
    _same(f, (X, Y), devices)


def test_branches_pass_through_and_swap(devices):
    def f(a, b):
        def body(i, c):
            x, y = c
            x, y = lax.cond(i % 3 == 0, lambda: (y, x), lambda: (jnp.flip(x) + 1.0, y))
            y = lax.cond(i % 2 == 0, lambda: y * 0.5, lambda: y)
            return x, y
        return lax.fori_loop(0, 10, body, (a, b))
    _same(f, (X, Y), devices)


def test_switch_reads_the_state_it_replaces(devices):
    def f(a, b, n):
        def body(c):
            k, x, y = c
            x = lax.switch(k % 3, [lambda: jnp.cumsum(x), lambda: x * y, lambda: jnp.flip(y)])
            return k + 1, x, x + y
        return lax.while_loop(lambda c: c[0] < n, body, (0, a, b))
    _same(f, (X, Y, np.int32(7)), devices)


def test_nested_loops_and_scan(devices):
    def f(a, b):
        def outer(i, c):
            x, y = c
            x = lax.fori_loop(0, 3, lambda j, d: jnp.flip(d) + j.astype(d.dtype), x)
            y, ys = lax.scan(lambda s, t: (s * 0.5 + t, s + t), y, x)  # exact products: no FMA rounding
            return x + ys, y
        return lax.fori_loop(0, 4, outer, (a, b[0]))
    _same(f, (X, Y), devices)


def test_counter_read_after_increment(devices):
    def f(a):
        def body(c):
            i, x = c
            j = i + 1
            return j, x.at[i % 8].set(x[(i + 3) % 8] + i.astype(x.dtype))
        return lax.while_loop(lambda c: c[0] < 20, body, (0, a))
    _same(f, (X,), devices)


def test_carried_value_copied_to_another_slot(devices):
    def f(a, b):
        def body(i, c):
            x, y, z = c
            return x, x, z + y  # x stays in place and is also copied into y's slot
        return lax.fori_loop(0, 4, body, (a, b, a * 2.0))
    _same(f, (X, Y), devices)
