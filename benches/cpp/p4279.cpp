// Luogu P4279 (BZOJ 1022), misère Nim: with a pile of 2 or more the first player
// wins iff the XOR is not 0; with every pile at most 1, iff the number of 1-piles is
// even (an all-zero case included: the first player never takes the last stone).
#include <cstdio>

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0, ones = 0;
        bool big = false;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            x ^= a;
            if (a == 1) ones++;
            if (a > 1) big = true;
        }
        bool john = big ? x != 0 : ones % 2 == 0;
        puts(john ? "John" : "Brother");
    }
    return 0;
}
