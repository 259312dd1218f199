// Luogu P2148, SDOI2009 E&D: the pair (a, b) has SG = index of the lowest zero bit of
// (a - 1) | (b - 1); the position is the XOR over the pairs.
#include <cstdio>

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        scanf("%d", &n);
        int x = 0;
        for (int i = 0; i < n / 2; i++) {
            long long a, b;
            scanf("%lld %lld", &a, &b);
            long long v = (a - 1) | (b - 1);
            int k = 0;
            while (v >> k & 1) k++;
            x ^= k;
        }
        puts(x ? "YES" : "NO");
    }
    return 0;
}
