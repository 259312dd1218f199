// HDU 5795, A Simple Nim: take from a heap, or split it into three non-empty heaps.
// A heap's value is g(8k) = 8k - 1, g(8k + 7) = 8k + 8, otherwise g(x) = x; the first
// player wins iff the XOR of the values is not 0.
#include <cstdio>

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        scanf("%d", &n);
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s;
            scanf("%lld", &s);
            long long v = s;
            if (s > 0 && s % 8 == 0) v = s - 1;
            else if (s % 8 == 7) v = s + 1;
            x ^= v;
        }
        puts(x ? "First player wins." : "Second player wins.");
    }
    return 0;
}
