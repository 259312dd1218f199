// UVa 1378, A Funny Stone Game: the game of bzoj1188 (odious-number g(d), XOR over the
// bottles with an odd count), printing the smallest winning move (i, j, k) only.
#include <cstdio>

static int g(int d) {
    if (d == 0) return 0;
    int m = d - 1;
    return 2 * m + (__builtin_popcount(m) % 2 == 0 ? 1 : 0);
}

int main() {
    int n, game = 0;
    while (scanf("%d", &n) == 1 && n != 0) {
        int p[32], sg[32], x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &p[i]);
            sg[i] = g(n - 1 - i);
            if (p[i] & 1) x ^= sg[i];
        }
        int bi = -1, bj = -1, bk = -1;
        bool found = false;
        for (int i = 0; i < n && !found; i++) {
            if (!p[i]) continue;
            for (int j = i + 1; j < n && !found; j++)
                for (int k = j; k < n && !found; k++)
                    if ((sg[i] ^ sg[j] ^ sg[k]) == x) {
                        bi = i, bj = j, bk = k;
                        found = true;
                    }
        }
        printf("Game %d: %d %d %d\n", ++game, bi, bj, bk);
    }
    return 0;
}
