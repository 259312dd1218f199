// The divisor game, as a contestant writes it: the SG value of every a up to 10^5
// (mex over the proper divisors), then the XOR of a case's numbers.
#include <cstdio>
#include <vector>
int main() {
    const int N = 100000;
    std::vector<int> g(N + 1, 0);
    for (int a = 2; a <= N; a++) {
        bool seen[64] = {false};
        for (int d = 1; d * d <= a; d++)
            if (a % d == 0) {
                seen[g[d]] = true;
                if (d != 1 && d * d != a) seen[g[a / d]] = true;
            }
        int v = 0;
        while (seen[v]) v++;
        g[a] = v;
    }
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int a; scanf("%d", &a); x ^= g[a]; }
        puts(x ? "Anna" : "Bruno");
    }
}
