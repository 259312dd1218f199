// Piles with a limit each (examples/problems/bounded_piles.toml): the Grundy value of
// a pile of s stones from which 1 to m may be taken is s mod (m + 1). This program
// takes s mod m instead, a mistake sgcheck's audit finds and shrinks.
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s, m;
            scanf("%lld %lld", &s, &m);
            x ^= s % m;  // should be s % (m + 1)
        }
        puts(x ? "Alice" : "Bob");
    }
}
