// Luogu P2197 (Nim) with a classic mistake: the XOR of the piles is not reset between
// test cases, so every case after the first is answered from all the piles so far.
// `sgcheck audit p2197 -- examples/programs/p2197_not_reset.cpp` finds it.
#include <cstdio>

int main() {
    int T, x = 0;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
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
