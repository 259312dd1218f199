// HDU 2176: `No` when the xor x of the piles is 0; else `Yes` and, in input order,
// `p p^x` for every pile p with p ^ x < p.
#include <cstdio>

static long long a[200005];

int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) {
        long long x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%lld", &a[i]);
            x ^= a[i];
        }
        if (x == 0) {
            puts("No");
            continue;
        }
        puts("Yes");
        for (int i = 0; i < n; i++)
            if ((a[i] ^ x) < a[i]) printf("%lld %lld\n", a[i], a[i] ^ x);
    }
    return 0;
}
