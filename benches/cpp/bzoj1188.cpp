// bzoj1188 / Luogu P3185, HNOI2007 分裂游戏: each bean is a game; a bean at distance
// d = n-1-i from the last bottle has g(0) = 0 and g(d) = the d-th odious number. The
// position is the XOR of g over the bottles with an odd count; a move (i, j, k), i
// non-empty, wins iff g(i) ^ g(j) ^ g(k) equals it.
#include <cstdio>

static int g(int d) {
    if (d == 0) return 0;
    int m = d - 1;
    return 2 * m + (__builtin_popcount(m) % 2 == 0 ? 1 : 0);
}

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n, p[32], sg[32];
        scanf("%d", &n);
        int x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &p[i]);
            sg[i] = g(n - 1 - i);
            if (p[i] & 1) x ^= sg[i];
        }
        int bi = -1, bj = -1, bk = -1, cnt = 0;
        for (int i = 0; i < n; i++) {
            if (!p[i]) continue;
            for (int j = i + 1; j < n; j++)
                for (int k = j; k < n; k++)
                    if ((sg[i] ^ sg[j] ^ sg[k]) == x) {
                        if (cnt == 0) bi = i, bj = j, bk = k;
                        cnt++;
                    }
        }
        printf("%d %d %d\n%d\n", bi, bj, bk, cnt);
    }
    return 0;
}
