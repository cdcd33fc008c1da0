"""E-divisive means with a permutation test, written from the paper
(Matteson & James 2014, JASA 109(505), section 3, alpha = 1) and the rule
harness/stats/changepoint.h states, independently of its C code: every
Q is summed directly over its points (no prefix sums, no incremental
updates), in plain Python. The tests compare schedrig's change points,
their Q and their p-values with these.

    python3 edivisive_check.py FILE SEED PERMUTATIONS ALPHA MIN_SEGMENT
prints one line per change point: "index q p" (index the first point of
the new level, sorted by index), then "rejected index q p" for the
candidate whose test stopped the procedure ("rejected none" when no
segment could be split)."""
import sys

MASK = (1 << 64) - 1


class SplitMix64:
    """Steele, Lea & Flood 2014, the constants of Vigna's splitmix64.c."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, m):
        return ((self.next() >> 32) * m) >> 32


def q_hat(x, s, tau, kappa):
    """The paper's Q-hat of X = x[s:tau], Y = x[tau:kappa]."""
    X, Y = x[s:tau], x[tau:kappa]
    n, m = len(X), len(Y)
    between = sum(abs(a - b) for a in X for b in Y)
    wx = sum(abs(X[i] - X[k]) for i in range(n) for k in range(i + 1, n))
    wy = sum(abs(Y[j] - Y[k]) for j in range(m) for k in range(j + 1, m))
    e = 2.0 * between / (n * m) - 2.0 * wx / (n * (n - 1)) - 2.0 * wy / (m * (m - 1))
    return n * m / (n + m) * e


def best_split(x, s, e, min_seg):
    """(q, tau) maximising Q over tau and kappa in [s, e); None if none."""
    best = None
    for tau in range(s + min_seg, e - min_seg + 1):
        for kappa in range(tau + min_seg, e + 1):
            q = q_hat(x, s, tau, kappa)
            if best is None or q > best[0]:
                best = (q, tau)
    return best


def segments(n, cuts):
    bounds = [0] + sorted(cuts) + [n]
    return list(zip(bounds[:-1], bounds[1:]))


def best_over(x, cuts, min_seg):
    best = None
    for s, e in segments(len(x), cuts):
        b = best_split(x, s, e, min_seg)
        if b is not None and (best is None or b[0] > best[0]):
            best = b
    return best


def edivisive(x, seed, permutations, alpha, min_seg):
    rng = SplitMix64(seed)
    cuts, found = [], []
    while True:
        cand = best_over(x, cuts, min_seg)
        if cand is None:
            return sorted(found), None
        q, tau = cand
        w = list(x)
        count = 0
        for _ in range(permutations):
            for s, e in segments(len(x), cuts):
                for i in range(e - s - 1, 0, -1):
                    j = rng.below(i + 1)
                    w[s + i], w[s + j] = w[s + j], w[s + i]
            b = best_over(w, cuts, min_seg)
            if b is not None and b[0] >= q - 1e-9 * abs(q):
                count += 1
        p = (1.0 + count) / (permutations + 1.0)
        if p > alpha:
            return sorted(found), (tau, q, p)
        found.append((tau, q, p))
        cuts.append(tau)


def main():
    path, seed, perms, alpha, min_seg = sys.argv[1:6]
    x = [float(line) for line in open(path) if line.strip()]
    found, rejected = edivisive(x, int(seed), int(perms), float(alpha), int(min_seg))
    for tau, q, p in found:
        print("%d %.12g %.12g" % (tau, q, p))
    if rejected is None:
        print("rejected none")
    else:
        print("rejected %d %.12g %.12g" % rejected)


if __name__ == "__main__":
    main()
