// HDU 1536 / POJ 2960, S-Nim: per test case a subtraction set (unsorted, repeats
// allowed), its Grundy table by mex up to the largest heap of the limits, then one
// letter per position: W when the xor of its heaps' values is not 0.
#include <cstdio>
#include <cstring>

const int H = 10000;
int s[105], g[H + 1];
bool seen[105];

int main() {
    int k;
    while (scanf("%d", &k) == 1 && k != 0) {
        for (int i = 0; i < k; i++) scanf("%d", &s[i]);
        for (int n = 0; n <= H; n++) {
            memset(seen, 0, sizeof(bool) * (k + 2));
            for (int j = 0; j < k; j++)
                if (s[j] <= n) seen[g[n - s[j]]] = true;
            int v = 0;
            while (seen[v]) v++;
            g[n] = v;
        }
        int m;
        scanf("%d", &m);
        static char line[128];
        for (int i = 0; i < m; i++) {
            int l, x = 0;
            scanf("%d", &l);
            for (int j = 0; j < l; j++) {
                int h;
                scanf("%d", &h);
                x ^= g[h];
            }
            line[i] = x ? 'W' : 'L';
        }
        line[m] = 0;
        puts(line);
    }
    return 0;
}
