// POJ 1704, Georgia and Bob: sort the cells, pair them from the right end (a virtual
// piece at cell 0 for an odd count); the first player wins iff the XOR of the gaps
// inside the pairs is not 0.
#include <algorithm>
#include <cstdio>

int a[1005];

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) scanf("%d", &a[i]);
        std::sort(a, a + n);
        for (int i = n - 1; i > 0; i -= 2) x ^= a[i] - a[i - 1] - 1;
        if (n % 2 == 1) x ^= a[0] - 1;
        puts(x ? "Georgia will win" : "Bob will win");
    }
    return 0;
}
