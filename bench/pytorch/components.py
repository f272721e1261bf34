"""The training step's components in PyTorch, timed like the bench's `time-components`.

Each component is the same computation as bench/src/components/time-components.ts times on
the native backend — forward + backward in isolation, fixed random inputs and upstream
gradients — formulated as a PyTorch user would write it well (batched over replicas, einsum /
matmul / baddbmm, one op per stacked table). CPU, float32, 2 threads. Values are random: only
the shapes matter, and they are the bench's `dis` and `nnpdf40` workloads' (sources below).

Run: python3 bench/pytorch/components.py [--replicas 1,100] [--workloads dis,nnpdf40]
         [--repeats 20] [--json out.json]
It prints a text table and, with --json, writes the medians, FLOPs and bytes of each component.
"""

import argparse
import json
import math
import os
import platform
import statistics
import time

import sys

# The environment a well-set-up PyTorch on CPU runs in, set before the process starts (re-exec):
# - 2 threads for OpenMP and OpenBLAS;
# - Debian's torch calls the system OpenBLAS (pthreads), whose idle workers spin 2^28 cycles after
#   each product by default and fight torch's OpenMP threads for the 2 cores (elementwise ops
#   100× slower); a short spin makes them yield, as an MKL or OpenMP build of torch does;
# - glibc's malloc maps every block over 32 MB afresh (a luminosity of R = 100 is 40 MB) and
#   page-faults it on first touch (the hadronic component 5× slower); keeping freed memory in
#   the heap is what jemalloc or tcmalloc, which PyTorch's CPU tuning guides recommend, do.
TUNED_ENVIRONMENT = {
    "OPENBLAS_NUM_THREADS": "2",
    "OMP_NUM_THREADS": "2",
    "OPENBLAS_THREAD_TIMEOUT": "4",
    "MALLOC_MMAP_MAX_": "0",
    "MALLOC_TRIM_THRESHOLD_": str(2**32),
}
if any(key not in os.environ for key in TUNED_ENVIRONMENT):
    os.execve(sys.executable, [sys.executable, *sys.argv], {**TUNED_ENVIRONMENT, **os.environ})

import torch  # noqa: E402

THREADS = 2

# --- shapes --------------------------------------------------------------------------------
# bench/src/workloads/workloads.ts: x-grid of 50 nodes shared by every table.
X_NODES = 50
# packages/layers (EVOLUTION_BASIS_SIZE): 14 evolution-basis flavours.
FLAVOURS = 14
# bench/src/workloads/bench-runcard.ts: NNPDF4.0's network 2-25-20-8, tanh, tanh, linear;
# inputs (x, log x) (`logXFeatures`).
NETWORK_UNITS = (2, 25, 20, 8)
FITTED_FLAVOURS = 8
# trainer default sum-rule grid: 100-point Gauss–Legendre (bench README, "Workloads").
INTEGRATION_POINTS = 100
# workloads.ts NNPDF40_DIS_CHANNELS: 9 active flavours of every DIS table.
DIS_CHANNELS = [1, 2, 3, 4, 5, 6, 9, 10, 11]
# workloads.ts `hadronicChannels`: 40 luminosity channels per hadronic table, from 9 × 9 pairs.
HADRONIC_CHANNELS = 40
# workloads.ts DIS_DATASETS: (points, experiment) — experiments are the covariance blocks.
DIS_DATASETS = [
    (121, "NMCPD"), (204, "NMC"), (33, "SLACP"), (34, "SLACD"), (333, "BCDMS"), (248, "BCDMS"),
    (416, "CHORUS"), (327, "CHORUS"), (39, "NUTEV"), (37, "NUTEV"), (377, "HERACOMB"),
    (254, "HERACOMB"), (204, "HERACOMB"), (70, "HERACOMB"), (159, "HERACOMB"), (39, "HERACOMB"),
    (42, "HERACOMB"), (37, "HERACOMB_SIGMARED_C"), (26, "HERACOMB_SIGMARED_B"),
]
# workloads.ts HADRONIC_DATASETS: 42 tables, 1,500 points.
HADRONIC_DATASETS = [
    (15, "DYE866R"), (89, "DYE866P"), (85, "DYE605"), (28, "CDFZRAP_NEW"), (28, "D0ZRAP"),
    (9, "D0W"), (8, "D0W"), (30, "ATLASWZ"), (3, "ATLASWZ"), (46, "ATLASWZ11"), (15, "ATLASWZ11"),
    (5, "ATLASZHIGHMASS49FB"), (6, "ATLASLOMASSDY11EXT"), (48, "ATLASDY2D8TEV"),
    (64, "ATLASZPT8TEV"), (44, "ATLASZPT8TEV"), (171, "ATLAS_1JET_8TEV_R06"), (4, "ATLASTTB8"),
    (4, "ATLASTTB8"), (3, "ATLAS_TTBARTOT"), (15, "ATLASWJET"), (15, "ATLASWJET"),
    (53, "ATLASPHT15_SF"), (12, "ATLAS_SINGLETOP"), (11, "CMSWEASY840PB"), (11, "CMSWMASY47FB"),
    (110, "CMSDY2D11"), (22, "CMSWMU8TEV"), (28, "CMSZDIFF12"), (185, "CMS_1JET_8TEV"),
    (16, "CMS_TTBAR_2D_DIFF_MTT_TRAP_NORM"), (3, "CMS_TTBARTOT"), (13, "CMS_SINGLETOP"),
    (9, "LHCB7"), (29, "LHCB7"), (17, "LHCB8"), (30, "LHCB8"), (16, "LHCB13"), (15, "LHCB13"),
    (90, "ATLAS_2JET_7TEV_R06"), (54, "CMS_2JET_7TEV"), (41, "CMS_Z_PT_13TEV"),
]
# workloads.ts LAGRANGE_SETS: 14 positivity sets of 20 points (F2-like 5 channels or
# quark-like 7, POSXGL 1) and 5 integrability sets of 4 points, 1 channel each.
F2_LIKE = [1, 2, 9, 10, 11]
QUARK_LIKE = [1, 3, 4, 5, 9, 10, 11]
POSITIVITY_CHANNELS = [F2_LIKE] * 4 + [QUARK_LIKE] * 3 + [F2_LIKE] + [QUARK_LIKE] * 5 + [[2]]
POSITIVITY_POINTS = 20
INTEGRABILITY_CHANNELS = [[10], [9], [3], [4], [5]]
INTEGRABILITY_POINTS = 4
# bench-runcard.ts: Nadam 2.621e-3, clipnorm 6.073e-6.
LEARNING_RATE = 2.621e-3
CLIPNORM = 6.073e-6

WORKLOADS = {"dis": DIS_DATASETS, "nnpdf40": DIS_DATASETS + HADRONIC_DATASETS}


def blocks_of(datasets):
    """Covariance block sizes: consecutive datasets of one experiment form one block."""
    sizes, previous = [], None
    for points, experiment in datasets:
        if experiment == previous:
            sizes[-1] += points
        else:
            sizes.append(points)
        previous = experiment
    return sizes


# --- components ------------------------------------------------------------------------------
class Component:
    """One component: `run()` does forward + backward; `flops` and `bytes` are its minimum work."""

    def __init__(self, name, run, flops, min_bytes):
        self.name, self.run, self.flops, self.bytes = name, run, flops, min_bytes


def backward(output, upstream):
    """Σ output ⊙ upstream, differentiated (the bench's `forwardBackward`)."""
    (output * upstream).sum().backward()


def network(r, g):
    points = X_NODES + INTEGRATION_POINTS
    x = torch.rand(points, generator=g) * 0.9 + 1e-7
    features = torch.stack([x, torch.log(x)], 1)  # (points, 2)
    layers = []
    for fan_in, fan_out in zip(NETWORK_UNITS[:-1], NETWORK_UNITS[1:]):
        w = (torch.randn(r, fan_in, fan_out, generator=g) / math.sqrt(fan_in)).requires_grad_()
        b = torch.zeros(r, 1, fan_out).requires_grad_()
        layers.append((w, b))
    upstream = torch.rand(r, points, FITTED_FLAVOURS, generator=g) * 2 - 1
    (w1, b1), (w2, b2), (w3, b3) = layers

    def run():
        # one batched product per layer: the first layer's input is shared by every replica
        h = torch.tanh(torch.einsum("pi,rio->rpo", features, w1) + b1)
        h = torch.tanh(torch.baddbmm(b2, h, w2))
        backward(torch.baddbmm(b3, h, w3), upstream)
        for w, b in layers:
            w.grad = b.grad = None

    weights = sum(i * o for i, o in zip(NETWORK_UNITS[:-1], NETWORK_UNITS[1:]))
    flops = 0
    for layer, (i, o) in enumerate(zip(NETWORK_UNITS[:-1], NETWORK_UNITS[1:])):
        flops += (2 if layer == 0 else 3) * 2 * r * points * i * o
    activations = points * sum(NETWORK_UNITS[1:])
    # weights read + gradients written; activations written once and read back; upstream read
    min_bytes = 4 * r * (2 * weights + 2 * activations + points * FITTED_FLAVOURS)
    return Component("network", run, flops, min_bytes)


def preprocessing(r, g):
    points = X_NODES + INTEGRATION_POINTS
    x = torch.rand(points, 1, generator=g) * 0.9 + 1e-7
    log_x, log_1mx = torch.log(x), torch.log1p(-x)
    alpha = (torch.rand(r, 1, FITTED_FLAVOURS, generator=g) + 1).requires_grad_()
    beta = (torch.rand(r, 1, FITTED_FLAVOURS, generator=g) * 3 + 1).requires_grad_()
    net = (torch.rand(r, points, FITTED_FLAVOURS, generator=g) * 2 - 1).requires_grad_()
    rotation = torch.rand(FITTED_FLAVOURS, FLAVOURS, generator=g)  # fitted → evolution basis
    upstream = torch.rand(r, points, FLAVOURS, generator=g) * 2 - 1

    def run():
        prefactor = torch.exp((1 - alpha) * log_x + beta * log_1mx)  # x^(1−α) (1−x)^β
        backward(torch.matmul(net * prefactor, rotation), upstream)
        alpha.grad = beta.grad = net.grad = None

    fitted, rotated = r * points * FITTED_FLAVOURS, r * points * FLAVOURS
    flops = 2 * 2 * fitted * FLAVOURS + 8 * fitted  # rotation fwd + bwd, prefactor and products
    min_bytes = 4 * (2 * fitted + 2 * rotated)  # network output + its gradient, output + upstream
    return Component("preprocessing", run, flops, min_bytes)


def sum_rules(r, g):
    points = X_NODES + INTEGRATION_POINTS
    pdf = (torch.rand(r, points, FLAVOURS, generator=g) * 0.9 + 0.1).requires_grad_()
    weights = torch.rand(1, INTEGRATION_POINTS, FLAVOURS, generator=g)
    num_c, den_c = torch.rand(FLAVOURS, generator=g), torch.rand(FLAVOURS, generator=g) + 1
    num_m = torch.rand(FLAVOURS, FLAVOURS, generator=g)
    den_m = torch.rand(FLAVOURS, FLAVOURS, generator=g)
    upstream = torch.rand(r, X_NODES, FLAVOURS, generator=g) * 2 - 1

    def run():
        integrals = (pdf[:, X_NODES:] * weights).sum(1)  # (R, 14)
        factors = (num_c + integrals @ num_m) / (den_c + integrals @ den_m)
        backward(pdf[:, :X_NODES] * factors[:, None, :], upstream)
        pdf.grad = None

    flops = 2 * 2 * r * points * FLAVOURS + 4 * 2 * r * FLAVOURS * FLAVOURS
    min_bytes = 4 * (2 * r * points * FLAVOURS + 2 * r * X_NODES * FLAVOURS)
    return Component("sumRules", run, flops, min_bytes)


def dis(r, g):
    ndata = sum(points for points, _ in DIS_DATASETS)
    pdf = (torch.rand(r, X_NODES, FLAVOURS, generator=g) * 0.9 + 0.1).requires_grad_()
    channels = torch.tensor(DIS_CHANNELS)
    # every DIS table on the shared x-grid stacked: (data, channel · x), as StackedDisTables does
    fk = torch.rand(ndata, len(DIS_CHANNELS) * X_NODES, generator=g)
    upstream = torch.rand(r, ndata, generator=g) * 2 - 1

    def run():
        selected = pdf[:, :, channels].transpose(1, 2).reshape(r, -1)  # (R, channel · x)
        backward(selected @ fk.T, upstream)
        pdf.grad = None

    size = fk.numel()
    # the table read forward and again backward (the upstream depends on the forward)
    return Component("dis", run, 4 * r * size, 4 * (2 * size + 2 * r * ndata))


def hadronic(r, g):
    pdf = (torch.rand(r, X_NODES, FLAVOURS, generator=g) * 0.9 + 0.1).requires_grad_()
    tables = []
    pairs = [(a, b) for a in DIS_CHANNELS for b in DIS_CHANNELS]
    for ndata, _ in HADRONIC_DATASETS:
        chosen = sorted(torch.randperm(len(pairs), generator=g)[:HADRONIC_CHANNELS].tolist())
        first = torch.tensor([pairs[k][0] for k in chosen])
        second = torch.tensor([pairs[k][1] for k in chosen])
        fk = torch.rand(ndata, HADRONIC_CHANNELS * X_NODES * X_NODES, generator=g)
        tables.append((first, second, fk))
    ndata = sum(points for points, _ in HADRONIC_DATASETS)
    upstream = torch.rand(r, ndata, generator=g) * 2 - 1

    def run():
        outputs = []
        for first, second, fk in tables:
            # luminosity (R, channel, x1, x2), then one product with the table
            lumi = torch.einsum("rac,rbc->rcab", pdf[:, :, first], pdf[:, :, second])
            outputs.append(lumi.reshape(r, -1) @ fk.T)
        backward(torch.cat(outputs, 1), upstream)
        pdf.grad = None

    size = sum(fk.numel() for _, _, fk in tables)
    # the table read forward and backward, or once when the forward keeps its half contractions
    # Σ_a f1 · fk and Σ_b f2 · fk (2R/x of the table, written and read back) for the gradient,
    # as partonfit's native kernel does below 7 replicas; the luminosity need not leave the cache
    table_reads = min(2 * size, size * (1 + 4 * r / X_NODES))
    return Component("hadronic", run, 4 * r * size, 4 * (table_reads + 2 * r * ndata))


def lagrange(r, g):
    pdf = (torch.rand(r, X_NODES, FLAVOURS, generator=g) * 0.9 + 0.1).requires_grad_()

    def stacked(sets, points):
        # the union of the sets' channels, one table (channel · x, set points), zero elsewhere
        union = sorted({c for channels in sets for c in channels})
        fk = torch.zeros(len(union), X_NODES, len(sets) * points)
        for s, channels in enumerate(sets):
            for c in channels:
                fk[union.index(c), :, s * points:(s + 1) * points] = torch.rand(
                    X_NODES, points, generator=g)
        return torch.tensor(union), fk.reshape(-1, len(sets) * points)

    pos_channels, pos_fk = stacked(POSITIVITY_CHANNELS, POSITIVITY_POINTS)
    int_channels, int_fk = stacked(INTEGRABILITY_CHANNELS, INTEGRABILITY_POINTS)
    pos_lambda = torch.rand(len(POSITIVITY_CHANNELS), generator=g) * 10
    int_lambda = torch.rand(len(INTEGRABILITY_CHANNELS), generator=g) * 10
    sets = len(POSITIVITY_CHANNELS) + len(INTEGRABILITY_CHANNELS)
    upstream = torch.rand(r, sets, generator=g)

    def observables(channels, fk):
        return pdf[:, :, channels].transpose(1, 2).reshape(r, -1) @ fk

    def run():
        positivity = torch.nn.functional.elu(
            -observables(pos_channels, pos_fk).reshape(r, -1, POSITIVITY_POINTS)
            * pos_lambda[:, None], alpha=1e-7).sum(2)
        integrability = (observables(int_channels, int_fk).reshape(
            r, -1, INTEGRABILITY_POINTS) * int_lambda[:, None]).square().sum(2)
        backward(torch.cat([positivity, integrability], 1), upstream)
        pdf.grad = None

    values = POSITIVITY_POINTS * X_NODES * sum(map(len, POSITIVITY_CHANNELS)) + \
        INTEGRABILITY_POINTS * X_NODES * sum(map(len, INTEGRABILITY_CHANNELS))
    return Component("lagrange", run, 4 * r * values, 4 * (2 * values + 2 * r * X_NODES * FLAVOURS))


def losses(r, g, datasets):
    blocks = blocks_of(datasets)
    ndata = sum(blocks)
    data = torch.rand(r, ndata, generator=g) + 1
    predictions = (data * (0.9 + 0.2 * torch.rand(r, ndata, generator=g))).requires_grad_()
    # each block's eigenvector rotation (size, modes = size) and the training / validation mode
    # weights (1/λ for the modes of each split, 0 for the others), shared by both χ²
    rotations = [torch.rand(size, size, generator=g) for size in blocks]
    weights = torch.rand(2, r, ndata, generator=g)
    upstream = torch.ones(r, 2)
    offsets = [sum(blocks[:b]) for b in range(len(blocks))]

    def run():
        residuals = data - predictions
        modes = torch.cat([residuals[:, o:o + s] @ rot for o, s, rot in zip(offsets, blocks, rotations)], 1)
        chi2 = (modes.square()[None] * weights).sum(2).T  # (R, 2): training, validation
        backward(chi2, upstream)
        predictions.grad = None

    entries = sum(size * size for size in blocks)
    return Component("losses", run, 4 * r * entries + 8 * r * ndata,
                     4 * (2 * entries + 6 * r * ndata))


def optimiser(r, g):
    shapes = [(r, i, o) for i, o in zip(NETWORK_UNITS[:-1], NETWORK_UNITS[1:])]
    shapes += [(r, 1, o) for o in NETWORK_UNITS[1:]] + [(r, 1, FITTED_FLAVOURS)] * 2
    params = [torch.randn(*shape, generator=g) for shape in shapes]
    grads = [torch.randn(*shape, generator=g) * 1e-3 for shape in shapes]
    nadam = torch.optim.NAdam(params, lr=LEARNING_RATE, foreach=True)
    active = torch.ones(r)
    alpha, beta = params[-2], params[-1]

    def run():
        # per-replica clipnorm of every variable (Keras's clipnorm on a replica's variable)
        clipped = []
        for gr in grads:
            norm = gr.reshape(r, -1).norm(dim=1)
            scale = active * CLIPNORM / torch.clamp(norm, min=CLIPNORM)
            clipped.append(gr * scale.view(r, 1, 1))
        for p, c in zip(params, clipped):
            p.grad = c
        nadam.step()
        alpha.clamp_(1.0, 2.0)
        beta.clamp_(1.0, 4.0)

    size = sum(math.prod(shape) for shape in shapes)
    # read weight, gradient, two moments; write weight and two moments
    return Component("optimiser", run, 20 * size, 4 * 7 * size)


def stopping(r, g):
    shapes = [(r, i, o) for i, o in zip(NETWORK_UNITS[:-1], NETWORK_UNITS[1:])]
    shapes += [(r, 1, o) for o in NETWORK_UNITS[1:]] + [(r, 1, FITTED_FLAVOURS)] * 2
    weights = [torch.randn(*shape, generator=g) for shape in shapes]
    best_weights = [w.clone() for w in weights]
    state = {
        "best": torch.full((r,), float("inf")), "best_epoch": torch.zeros(r),
        "stop_epoch": torch.full((r,), -1.0), "waiting": torch.zeros(r),
        "counting": torch.zeros(r), "failed": torch.zeros(r, dtype=torch.bool),
    }
    losses_ = [torch.rand(r, generator=g) + 1 for _ in range(3)] + [torch.zeros(r)]
    patience, threshold, positivity_threshold = 1000.0, 10.0, 1e-6
    epoch = [0]

    def run():
        training, validation, per_point, positivity = losses_
        e = float(epoch[0])
        epoch[0] += 1
        stopped = state["stop_epoch"] >= 0
        diverged = ~(torch.isfinite(training) & torch.isfinite(validation)) & ~stopped
        improves = ((state["counting"] > 0) | (per_point < threshold)) & \
            (validation < state["best"]) & (positivity < positivity_threshold)
        best = improves & ~(stopped | diverged)
        waiting = torch.where(best, 0.0, state["waiting"] + state["counting"])
        out = (waiting > patience) & ~stopped
        state["best"] = torch.where(best, validation, state["best"])
        state["best_epoch"] = torch.where(best, e, state["best_epoch"])
        state["counting"] = torch.where(best, 1.0, state["counting"])
        state["waiting"] = waiting
        state["stop_epoch"] = torch.where(diverged | out, e, state["stop_epoch"])
        state["failed"] = state["failed"] | diverged
        mask = best.view(r, 1, 1)
        for w, b in zip(weights, best_weights):
            torch.where(mask, w, b, out=b)

    size = sum(math.prod(shape) for shape in shapes)
    return Component("stopping", run, 30 * r, 4 * (3 * size + 14 * r))


def components(workload, r):
    g = torch.Generator().manual_seed(4_000 + r)
    datasets = WORKLOADS[workload]
    built = [network(r, g), preprocessing(r, g), sum_rules(r, g), dis(r, g)]
    if workload == "nnpdf40":
        built.append(hadronic(r, g))
    built += [lagrange(r, g), losses(r, g, datasets), optimiser(r, g), stopping(r, g)]
    return built


# --- timing ----------------------------------------------------------------------------------
def time_component(component, repeats, warmup):
    for _ in range(warmup):
        component.run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        component.run()
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times), times


def sgemm_gflops(n=1024, repeats=10):
    a, b = torch.rand(n, n), torch.rand(n, n)
    for _ in range(2):
        a @ b
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        a @ b
        times.append(time.perf_counter() - start)
    return 2 * n ** 3 / statistics.median(times) / 1e9


def read_bandwidth_gbs(megabytes=1024, repeats=10):
    """Read bandwidth: a sum over a float32 array far larger than the caches, bytes / time."""
    values = torch.rand(megabytes * 2 ** 20 // 4)
    values.sum()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        values.sum()
        times.append(time.perf_counter() - start)
    return values.numel() * 4 / statistics.median(times) / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workloads", default="dis,nnpdf40")
    parser.add_argument("--replicas", default="1,100")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    torch.set_num_threads(THREADS)
    torch.manual_seed(0)
    load = os.getloadavg()
    rows = []
    with torch.no_grad():
        peaks = {"sgemmGflops": sgemm_gflops(), "readGbs": read_bandwidth_gbs()}
    for workload in args.workloads.split(","):
        for r in map(int, args.replicas.split(",")):
            for component in components(workload, r):
                median, times = time_component(component, args.repeats, args.warmup)
                rows.append({
                    "component": component.name, "workload": workload, "replicas": r,
                    "medianMs": median, "minMs": min(times), "flops": component.flops,
                    "bytes": component.bytes,
                })
            print(f"{workload} R={r} done", flush=True)
    result = {
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "torch": torch.__version__, "threads": torch.get_num_threads(),
        "machine": platform.processor() or platform.machine(), "loadAverage": load,
        "environment": {key: os.environ[key] for key in TUNED_ENVIRONMENT},
        "repeats": args.repeats, "warmup": args.warmup, "peaks": peaks, "rows": rows,
    }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(result, file, indent=1)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, load {load[0]:.2f}; "
          f"sgemm 1024² {peaks['sgemmGflops']:.0f} GFLOP/s, read {peaks['readGbs']:.1f} GB/s")
    print(f"{'component':<14}{'workload':<9}{'R':>4}{'median ms':>11}{'MFLOP':>10}{'MB':>9}")
    for row in rows:
        print(f"{row['component']:<14}{row['workload']:<9}{row['replicas']:>4}"
              f"{row['medianMs']:>11.3f}{row['flops'] / 1e6:>10.1f}{row['bytes'] / 1e6:>9.2f}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
