// Kayles as the octal game 0.77, heaps up to 10^9 (the kayles-big declaration of the
// solve_limits bench): a move removes 1 or 2 adjacent pins, leaving nothing, one row
// or two non-empty rows. g(n) = mex of the options' values; the values repeat with
// period 12 from n = 71 on, so a mex table of a few hundred values answers every
// heap. A case is a row of heaps; the first player wins iff the XOR is non-zero.
#include <cstdio>
#include <cstring>

static const int TABLE = 300;
static int g[TABLE];

static int value(long long n) {
    if (n < TABLE) return g[n];
    return g[TABLE - 12 + (n - (TABLE - 12)) % 12];
}

int main() {
    for (int n = 1; n < TABLE; n++) {
        bool seen[64];
        memset(seen, 0, sizeof seen);
        for (int k = 1; k <= 2 && k <= n; k++) {
            int rest = n - k;
            for (int a = 0; 2 * a <= rest; a++) seen[g[a] ^ g[rest - a]] = true;
        }
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    int T;
    if (scanf("%d", &T) != 1) return 0;
    for (int c = 0; c < T; c++) {
        int n;
        scanf("%d", &n);
        int total = 0;
        for (int i = 0; i < n; i++) {
            long long h;
            scanf("%lld", &h);
            total ^= value(h);
        }
        puts(total ? "First" : "Second");
    }
    return 0;
}
