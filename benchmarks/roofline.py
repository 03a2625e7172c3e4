"""The roofline of the expected-score solve: what each level must read, write and compute, what
this machine can move and compute per second (measured here), and so the least time the level
could take, beside the time it took.  benchmarks/solve.py adds it to its JSON and summary.

Counts from the kernels' loops (solver/engine/expected.py, final_rolls.py, turn.py; exact but for
the five of a kind's few operations), per column (one (aux, upper class) state of a filled-box set;
bonus classes share a column):
  widget   each of the rolls_per_turn - 1 stages: keep_means (210 keeps: 5 adds and a division,
           6 loads and a store each), best_sub_keeps (one max per sub-keep edge, 1,260 edges;
           2 loads and a store each, rows updated in place); the last stage also weights the 252
           rolls (a multiply and an add, a load each)
  final    per open box its successor values (6 upper totals for an upper box, 1 for a lower;
           a table load, 2 adds, a store) and a max into the scratch row (2 loads, a store);
           252 stores to start the rows; per open box and roll it scores in a max (and an add
           for a lower box), 2 loads and a store; five of a kind: per roll (6) and open box
           about 3 operations (integer work, as the upper totals' and aux's, not counted)
Bytes come in two kinds: the value planes a level must read (the level above) and write (its
own), the floor of its memory traffic; and the rows the kernels stream through the caches (8
bytes a load or store of a column), the traffic of the method as written.

Machine figures, measured with small numba kernels on every thread (nogil, as the solver runs):
  stream_gb_s   a[i] = b[i] + s c[i] over 3 arrays of 32 MB a thread (24 bytes an element; the
                write-allocate read not counted), main memory
  cache_gb_s    the same over 3 arrays of 80 KB a thread (240 KB, about the rows of a 64-column
                widget: in L2)
  peak_gflop_s  32 independent adds, multiplies and maxes per element loaded, in L1

The time the roofline allows a level is the largest of flops / peak, plane bytes / stream and
row bytes / cache bandwidth.  The first two bound any method that does this arithmetic on these
states; the third bounds the kernels as written (their passes over rows held in L2), so a level
near it is limited by how the method moves its rows, not by the arithmetic."""
import time
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from solver import dice
from solver.engine import expected
from solver.engine.objective import EXPECTED_SCORE
from solver.engine.threads import default_threads
from solver.rules import PRESETS, scoring


@numba.njit(nogil=True)
def _triad(a, b, c, s, reps):
    for _ in range(reps):
        for i in range(a.shape[0]):
            a[i] = b[i] + s * c[i]


@numba.njit(nogil=True)
def _mix(a, reps):
    """32 operations per element (8 adds, 8 multiplies, 15 maxes, 1 multiply), all independent
    but the max tree, over an array in L1."""
    for _ in range(reps):
        for j in range(a.shape[0]):
            x = a[j]
            s1, s2, s3, s4 = x + 1.0, x + 2.0, x + 3.0, x + 4.0
            s5, s6, s7, s8 = x + 5.0, x + 6.0, x + 7.0, x + 8.0
            m1, m2, m3, m4 = x * 0.91, x * 0.92, x * 0.93, x * 0.94
            m5, m6, m7, m8 = x * 0.95, x * 0.96, x * 0.97, x * 0.98
            t1, t2, t3, t4 = max(s1, m1), max(s2, m2), max(s3, m3), max(s4, m4)
            t5, t6, t7, t8 = max(s5, m5), max(s6, m6), max(s7, m7), max(s8, m8)
            u1, u2, u3, u4 = max(t1, t2), max(t3, t4), max(t5, t6), max(t7, t8)
            a[j] = max(max(u1, u2), max(u3, u4)) * 0.125


def _on_threads(threads, make, kernel, reps, work_per_rep, repeat=5):
    """Best rate (work / second) of kernel(*make(), reps) on `threads` threads at once, each
    thread its own arrays."""
    arrays = [make() for _ in range(threads)]
    kernel(*arrays[0], 1)  # compile
    best = 0.0
    with ThreadPoolExecutor(threads) as pool:
        for _ in range(repeat):
            start = time.perf_counter()
            list(pool.map(lambda own: kernel(*own, reps), arrays))
            best = max(best, threads * work_per_rep * reps / (time.perf_counter() - start))
    return best


def machine_figures(threads=None):
    """{"threads", "stream_gb_s", "cache_gb_s", "peak_gflop_s"} measured now (module docstring)."""
    threads = threads or default_threads()
    big, small, n = 4 * 1024 * 1024, 10 * 1024, 2048  # 32 MB, 80 KB and 16 KB arrays
    stream = _on_threads(threads, lambda: (np.ones(big), np.ones(big), np.ones(big), 0.5), _triad,
                         4, 24.0 * big)
    cache = _on_threads(threads, lambda: (np.ones(small), np.ones(small), np.ones(small), 0.5),
                        _triad, 2000, 24.0 * small)
    peak = _on_threads(threads, lambda: (np.ones(n),), _mix, 20000, 32.0 * n)
    return {"threads": threads, "stream_gb_s": stream / 1e9, "cache_gb_s": cache / 1e9,
            "peak_gflop_s": peak / 1e9}


def _widget_counts(rolls_per_turn):
    """(flops, loads, stores) of the keep lattice for one column."""
    moves = dice.kernel_arrays()
    keeps = dice.N_KEEPS - dice.N_ROLLS
    edges = int(moves.n_smaller.sum())
    stages = rolls_per_turn - 1
    flops = stages * (6 * keeps + edges) + 2 * dice.N_ROLLS
    loads = stages * (6 * keeps + 2 * edges) + dice.N_ROLLS
    stores = stages * (keeps + edges)
    return flops, loads, stores


def level_counts(preset="kniffel"):
    """[{open_boxes, sets, columns, flops, plane_bytes, row_bytes}] of every level of `preset`'s
    expected-score solve (module docstring), the last open box first."""
    rules = PRESETS[preset]
    game = rules.kernel_arrays()
    context = EXPECTED_SCORE.context(rules)
    n_boxes = rules.n_boxes
    upper = game.box_face[:n_boxes] > 0
    plain = scoring.fives_score_plain(game.params)
    w_flops, w_loads, w_stores = _widget_counts(rules.rolls_per_turn)
    plane = rules.n_aux * (rules.upper_bonus_threshold + 1) * 8
    n_sets = {0: 1}  # the full card, read by the last open box's level
    out = []
    for step, sets in EXPECTED_SCORE.levels(rules):
        n_sets[step] = len(sets)
        columns = flops = loads = stores = 0
        for filled in sets:
            n = expected.set_columns(filled, context.upper_reach, context.aux_reach,
                                     game)[1].shape[0]
            open_boxes = [b for b in range(n_boxes) if not (filled >> b) & 1]
            successors = sum(6 if upper[b] else 1 for b in open_boxes)
            scored = sum(int(game.n_scoring_rolls[b]) for b in open_boxes)
            lower_scored = sum(int(game.n_scoring_rolls[b]) for b in open_boxes if not upper[b])
            fives = 0 if plain else 6 * 3 * len(open_boxes)
            f = 2 * successors + len(open_boxes) + scored + lower_scored + fives
            ld = successors + 2 * len(open_boxes) + 2 * scored
            st = successors + len(open_boxes) + dice.N_ROLLS + scored
            columns += n
            flops += n * (f + w_flops)
            loads += n * (ld + w_loads)
            stores += n * (st + w_stores)
        above = n_sets[step - 1]  # the level read: one box more filled
        out.append({"open_boxes": step, "sets": len(sets), "columns": columns, "flops": flops,
                    "plane_bytes": (above + len(sets)) * plane, "row_bytes": 8 * (loads + stores)})
    return out


def roofline(preset, level_seconds, machine):
    """The level counts with the measured seconds of each level (from a warm solve's cost
    curve [(open boxes, seconds since the start)]; the first level's include the solve's set-up)
    and the time the roofline allows."""
    levels = level_counts(preset)
    since = dict(level_seconds)
    before = 0.0
    for entry in levels:
        k = entry["open_boxes"]
        seconds = since[k] - before
        before = since[k]
        bound = max(entry["flops"] / (machine["peak_gflop_s"] * 1e9),
                    entry["plane_bytes"] / (machine["stream_gb_s"] * 1e9),
                    entry["row_bytes"] / (machine["cache_gb_s"] * 1e9))
        entry.update(seconds=seconds, gflop_s=entry["flops"] / seconds / 1e9,
                     row_gb_s=entry["row_bytes"] / seconds / 1e9, roofline_seconds=bound,
                     flop_bound_seconds=entry["flops"] / (machine["peak_gflop_s"] * 1e9),
                     times_roofline=seconds / bound)
    total = {key: sum(e[key] for e in levels) for key in
             ("columns", "flops", "plane_bytes", "row_bytes", "seconds", "roofline_seconds",
              "flop_bound_seconds")}
    total["times_roofline"] = total["seconds"] / total["roofline_seconds"]
    return {"preset": preset, "machine": machine, "levels": levels, "total": total}


def summary_lines(result):
    """Markdown lines of a roofline result (every figure read from it)."""
    m, t = result["machine"], result["total"]
    lines = [f"Roofline of the `{result['preset']}` warm solve (benchmarks/roofline.py): measured "
             f"here on {m['threads']} threads, stream {m['stream_gb_s']:.1f} GB/s, L2-sized rows "
             f"{m['cache_gb_s']:.0f} GB/s, arithmetic {m['peak_gflop_s']:.0f} GFLOP/s. In all "
             f"{t['columns']:,} columns, {t['flops'] / 1e9:.2f} GFLOP, value planes "
             f"{t['plane_bytes'] / 1e6:.1f} MB, rows {t['row_bytes'] / 1e9:.1f} GB; the levels "
             f"took {t['seconds']:.3f} s where the roofline allows {t['roofline_seconds']:.3f} s "
             f"({t['times_roofline']:.1f}x; arithmetic alone {t['flop_bound_seconds']:.3f} s).", "",
             "| open boxes | columns | GFLOP | planes MB | rows GB | s | GFLOP/s | rows GB/s "
             "| roofline s | x |",
             "|---|" + "---:|" * 9]
    for e in result["levels"]:
        lines.append(f"| {e['open_boxes']} | {e['columns']:,} | {e['flops'] / 1e9:.3f} | "
                     f"{e['plane_bytes'] / 1e6:.2f} | {e['row_bytes'] / 1e9:.2f} | "
                     f"{e['seconds']:.4f} | "
                     f"{e['gflop_s']:.1f} | {e['row_gb_s']:.0f} | {e['roofline_seconds']:.4f} | "
                     f"{e['times_roofline']:.1f} |")
    return lines


if __name__ == "__main__":
    import json
    import sys

    from solver.engine.backward import solve
    preset = sys.argv[1] if len(sys.argv) > 1 else "kniffel"
    solve(preset, progress=False)
    best = min((solve(preset, progress=False) for _ in range(5)), key=lambda t: t.seconds)
    result = roofline(preset, best.level_seconds, machine_figures())
    print("\n".join(summary_lines(result)))
    print(json.dumps(result["total"], indent=1))
