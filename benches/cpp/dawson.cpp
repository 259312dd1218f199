// Dawson's chess as the octal game 0.137 (examples/problems/dawson.toml): removing 1
// token is allowed only from a heap of 1, removing 2 leaves nothing or one heap,
// removing 3 leaves nothing, one heap, or two non-empty heaps. A case is a row of
// heaps; the answer is the verdict with the number of winning moves, then every
// winning move as heap:take=parts (parts smallest first, 0 when nothing is left),
// ordered by heap, then take, then parts; "-" when there is none.
// g(n) = mex of the options' values, built up to the largest heap of the input.
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    std::vector<std::vector<int> > cases(T);
    int top = 0;
    for (int c = 0; c < T; c++) {
        int n;
        scanf("%d", &n);
        cases[c].resize(n);
        for (int i = 0; i < n; i++) {
            scanf("%d", &cases[c][i]);
            if (cases[c][i] > top) top = cases[c][i];
        }
    }
    std::vector<int> g(top + 1, 0);
    std::vector<char> seen(2 * top + 64);
    for (int n = 1; n <= top; n++) {
        std::fill(seen.begin(), seen.end(), 0);
        if (n == 1 || n == 2 || n == 3) seen[0] = 1;
        if (n >= 3) seen[g[n - 2]] = 1;
        if (n >= 4) seen[g[n - 3]] = 1;
        for (int a = 1; 2 * a <= n - 3; a++) seen[g[a] ^ g[n - 3 - a]] = 1;
        int v = 0;
        while (seen[v]) v++;
        g[n] = v;
    }
    std::vector<char> out;
    char buf[64];
    for (int c = 0; c < T; c++) {
        const std::vector<int>& h = cases[c];
        int total = 0;
        for (size_t i = 0; i < h.size(); i++) total ^= g[h[i]];
        if (total == 0) {
            printf("Second 0\n-\n");
            continue;
        }
        out.clear();
        int count = 0;
        for (size_t i = 0; i < h.size(); i++) {
            int n = h[i], need = total ^ g[n];
            // take 1: only a heap of 1, nothing left.
            for (int k = 1; k <= 3 && k <= n; k++) {
                int rest = n - k;
                if (rest == 0 && need == 0) {
                    sprintf(buf, "%d:%d=0", (int)i, k);
                } else if (rest >= 1 && k >= 2 && g[rest] == need) {
                    sprintf(buf, "%d:%d=%d", (int)i, k, rest);
                } else {
                    buf[0] = 0;
                }
                if (buf[0]) {
                    if (count++) out.push_back(' ');
                    out.insert(out.end(), buf, buf + strlen(buf));
                }
                if (k == 3) {
                    for (int a = 1; 2 * a <= rest; a++) {
                        if ((g[a] ^ g[rest - a]) == need) {
                            sprintf(buf, "%d:3=%d+%d", (int)i, a, rest - a);
                            if (count++) out.push_back(' ');
                            out.insert(out.end(), buf, buf + strlen(buf));
                        }
                    }
                }
            }
        }
        out.push_back(0);
        printf("First %d\n%s\n", count, &out[0]);
    }
    return 0;
}
