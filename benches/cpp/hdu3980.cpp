// HDU 3980, Paint Chain: a circle of n beads, a move paints m consecutive unpainted
// beads. With n < m the first player cannot move and loses. Otherwise the first move
// leaves a row of n - m beads, and painting m beads of a row of L leaves rows of i and
// L - m - i: the row game's values g(L) = mex{ g(i) ^ g(L - m - i) }, and the first
// player wins iff g(n - m) == 0.
#include <cstdio>
#include <cstring>

static int g[1001];
static bool seen[2048];

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    for (int c = 1; c <= T; c++) {
        int n, m;
        scanf("%d %d", &n, &m);
        bool win = false;
        if (n >= m) {
            int len = n - m;
            for (int L = 0; L <= len; L++) {
                if (L < m) { g[L] = 0; continue; }
                memset(seen, 0, sizeof seen);
                for (int i = 0; i <= L - m - i; i++) seen[g[i] ^ g[L - m - i]] = true;
                int v = 0;
                while (seen[v]) v++;
                g[L] = v;
            }
            win = g[len] == 0;
        }
        printf("Case #%d: %s\n", c, win ? "aekdycoin" : "abcdxyzk");
    }
    return 0;
}
