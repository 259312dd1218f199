// HDU 3032, Nim or not Nim? (Lasker's Nim): SG(4k+1) = 4k+1, SG(4k+2) = 4k+2,
// SG(4k+3) = 4k+4, SG(4k+4) = 4k+3. A pile of 2^31 - 1 has SG 2^31: 64-bit values.
#include <cstdio>

static long long sg(long long s) {
    switch (s % 4) {
        case 0: return s - 1;
        case 3: return s + 1;
        default: return s;
    }
}

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
            x ^= sg(s);
        }
        puts(x ? "Alice" : "Bob");
    }
    return 0;
}
