// TopCoder FollowingNim (the rules of game `following-nim`): count the winning first moves (pile, amount).
// Table 1: a size is hot when some special amount leads to a cold size. Table 2: for
// a cold x, g(x) = mex A(x), A(x) = values of the cold sizes an ordinary (non-special)
// move reaches. Taking t from x to z, the other piles R (hot or not, XOR G of g):
// special t wins iff z is cold and (R has a hot pile or G is not in A(z)); ordinary t
// wins iff z is cold, R is all cold and g(z) == G.
#include <cstdio>
#include <cstring>

const int P = 100;
bool sp[P + 1], hot[P + 1], A[P + 1][128];
int g[P + 1];

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, m, p[64];
        scanf("%d", &n);
        for (int i = 0; i < n; i++) scanf("%d", &p[i]);
        scanf("%d", &m);
        memset(sp, 0, sizeof sp);
        for (int i = 0; i < m; i++) {
            int s;
            scanf("%d", &s);
            if (s <= P) sp[s] = true;
        }
        memset(A, 0, sizeof A);
        for (int x = 0; x <= P; x++) {
            hot[x] = false;
            for (int s = 1; s <= x; s++)
                if (sp[s] && !hot[x - s]) hot[x] = true;
            for (int t = 1; t <= x; t++)
                if (!sp[t] && !hot[x - t]) A[x][g[x - t]] = true;
            g[x] = 0;
            if (!hot[x])
                while (A[x][g[x]]) g[x]++;
        }
        int cnt = 0;
        for (int i = 0; i < n; i++) {
            bool rh = false;
            int G = 0;
            for (int k = 0; k < n; k++) {
                if (k == i) continue;
                if (hot[p[k]]) rh = true;
                else G ^= g[p[k]];
            }
            for (int t = 1; t <= p[i]; t++) {
                int z = p[i] - t;
                if (hot[z]) continue;
                if (sp[t]) {
                    if (rh || !A[z][G]) cnt++;
                } else if (!rh && g[z] == G) {
                    cnt++;
                }
            }
        }
        printf("%d\n", cnt);
    }
    return 0;
}
