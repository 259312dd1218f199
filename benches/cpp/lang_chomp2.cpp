// Two-row Chomp, as a contestant writes it: the SG table of every (a, b), b <= a <= 500
// (bite the bottom row at c, or the top row at c), then one line per case `b a`.
#include <cstdio>
#include <cstring>
static int g[501][501];
int main() {
    static bool seen[2048];
    for (int a = 0; a <= 500; a++)
        for (int b = 0; b <= a; b++) {
            memset(seen, 0, sizeof seen);
            for (int c = 1; c < a; c++) seen[g[c][b < c ? b : c]] = true;
            for (int c = 0; c < b; c++) seen[g[a][c]] = true;
            int v = 0;
            while (seen[v]) v++;
            g[a][b] = v;
        }
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int b, a;
        scanf("%d %d", &b, &a);
        puts(g[a][b] ? "First" : "Second");
    }
}
