// A solution of HDU 1524, A Chess Game (examples/problems/chess_game.toml): the
// Sprague-Grundy value of each vertex by mex over its successors (memoised per test
// case), a query won when the values of its tokens XOR to non-zero.
#include <cstdio>
#include <cstring>
#include <vector>

static std::vector<int> succ[1005];
static int value[1005];

static int grundy(int u) {
    if (value[u] >= 0) return value[u];
    std::vector<char> seen(succ[u].size() + 1, 0);
    for (int w : succ[u]) {
        int g = grundy(w);
        if (g < (int)seen.size()) seen[g] = 1;
    }
    int m = 0;
    while (seen[m]) m++;
    return value[u] = m;
}

int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        for (int i = 0; i < n; i++) {
            succ[i].clear();
            int x;
            scanf("%d", &x);
            for (int j = 0; j < x; j++) {
                int s;
                scanf("%d", &s);
                succ[i].push_back(s);
            }
        }
        memset(value, -1, sizeof value);
        int m;
        while (scanf("%d", &m) == 1 && m != 0) {
            int x = 0;
            for (int j = 0; j < m; j++) {
                int p;
                scanf("%d", &p);
                x ^= grundy(p);
            }
            puts(x ? "WIN" : "LOSE");
        }
    }
    return 0;
}
