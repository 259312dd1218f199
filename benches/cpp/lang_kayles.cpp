// Kayles, as a contestant writes it: the SG table of rows up to 1000 (knock one pin
// or two adjacent, leaving up to two rows), then the XOR of a case's rows.
#include <cstdio>
#include <vector>
int main() {
    const int N = 1000;
    std::vector<int> g(N + 1, 0);
    for (int n = 1; n <= N; n++) {
        bool seen[1024] = {false};
        for (int k = 1; k <= 2 && k <= n; k++)
            for (int a = 0; a <= (n - k) / 2; a++) seen[g[a] ^ g[n - k - a]] = true;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int r; scanf("%d", &r); x ^= g[r]; }
        puts(x ? "First" : "Second");
    }
}
