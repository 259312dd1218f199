// HDU 3094, A tree game (Green Hackenbush on a tree rooted at 1): colon principle,
// SG(v) = XOR over children c of (SG(c) + 1). Breadth-first order from vertex 1, then
// children before parents: no recursion, so a path of 10^5 vertices is fine.
#include <cstdio>
#include <vector>

static const int MAXN = 100005;
static std::vector<int> adj[MAXN];
static int par[MAXN], order_[MAXN];
static bool seen[MAXN];
static long long sg[MAXN];

int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        scanf("%d", &n);
        for (int i = 1; i <= n; i++) {
            adj[i].clear();
            seen[i] = false;
            sg[i] = 0;
        }
        for (int i = 0; i < n - 1; i++) {
            int u, v;
            scanf("%d %d", &u, &v);
            adj[u].push_back(v);
            adj[v].push_back(u);
        }
        int head = 0, tail = 0;
        order_[tail++] = 1;
        seen[1] = true;
        while (head < tail) {
            int v = order_[head++];
            for (int w : adj[v])
                if (!seen[w]) {
                    seen[w] = true;
                    par[w] = v;
                    order_[tail++] = w;
                }
        }
        for (int i = tail - 1; i > 0; i--) {
            int v = order_[i];
            sg[par[v]] ^= sg[v] + 1;
        }
        puts(sg[1] ? "Alice" : "Bob");
    }
    return 0;
}
