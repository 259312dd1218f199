// Luogu P2197, Nim: the first player wins iff the XOR of the piles is not 0.
#include <cstdio>

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            x ^= a;
        }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
