//! Correct solutions shared by several test files (the audit tests plant their
//! mistakes in them with `variant`; the package tests export the problems and audit
//! them as submissions).

/// A correct bzoj1188 solution: g(d) by mex, the XOR of g over the bottles with an odd
/// count, then every move (i, j, k), i < j <= k, from a non-empty bottle i that makes
/// the XOR 0. The comments mark the spots the buggy variants change.
pub const BZOJ1188_CORRECT: &str = r#"#include <cstdio>
int g[32];
int main() {
    for (int d = 1; d < 32; d++) {
        bool seen[64] = {};
        for (int a = 0; a < d; a++)
            for (int b = 0; b <= a; b++) seen[g[a] ^ g[b]] = true;
        while (seen[g[d]]) g[d]++;
    }
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n, p[32];
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) scanf("%d", &p[i]);
        int x = 0;
        for (int i = 0; i < n; i++)
            if (p[i] % 2 == 1) x ^= g[n - 1 - i];  // odd bottles only
        int count = 0, bi = -1, bj = -1, bk = -1;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                for (int k = j; k < n; k++)  // j == k puts two beans in bottle j
                    if (p[i] > 0 && (x ^ g[n - 1 - i] ^ g[n - 1 - j] ^ g[n - 1 - k]) == 0) {
                        if (count == 0) bi = i, bj = j, bk = k;
                        count++;
                    }
        printf("%d %d %d\n%d\n", bi, bj, bk, count);
    }
}
"#;

/// A correct hdu3094 solution: adjacency lists cleared per case, breadth-first order
/// from vertex 1, then the colon principle children first (no recursion).
pub const HDU3094_CORRECT: &str = r#"#include <cstdio>
#include <vector>
using namespace std;
const int MAXN = 100005;
vector<int> adj[MAXN];
int par[MAXN], order_[MAXN];
bool seen[MAXN];
long long sg[MAXN];
long long solve(int n) {
    for (int i = 1; i <= n; i++) { seen[i] = false; sg[i] = 0; }
    int head = 0, tail = 0;
    order_[tail++] = 1;
    seen[1] = true;
    while (head < tail) {
        int v = order_[head++];
        for (int w : adj[v]) if (!seen[w]) { seen[w] = true; par[w] = v; order_[tail++] = w; }
    }
    for (int i = tail - 1; i > 0; i--) { int v = order_[i]; sg[par[v]] ^= sg[v] + 1; }
    return sg[1];
}
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 1; i <= n; i++) adj[i].clear();
        for (int i = 0; i < n - 1; i++) {
            int u, v;
            if (scanf("%d %d", &u, &v) != 2) return 1;
            adj[u].push_back(v);
            adj[v].push_back(u);
        }
        puts(solve(n) ? "Alice" : "Bob");
    }
}
"#;

/// hdu3094 with the usual recursive DFS: right on every tree, but as deep as the tree
/// on the stack, so a long path overflows a small stack. `[PAD]` in the frame is the
/// spot [`hdu3094_recursive`] fills (extra bytes per frame). Shared by the tree audit,
/// the shrinking and the package tests.
pub const HDU3094_RECURSIVE: &str = r#"#include <cstdio>
#include <vector>
using namespace std;
const int MAXN = 100005;
vector<int> adj[MAXN];
long long dfs(int v, int p) {
    volatile char pad[PAD];
    pad[0] = 0;
    long long s = pad[0];
    for (int w : adj[v]) if (w != p) s ^= dfs(w, v) + 1;
    return s;
}
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 1; i <= n; i++) adj[i].clear();
        for (int i = 0; i < n - 1; i++) {
            int u, v;
            if (scanf("%d %d", &u, &v) != 2) return 1;
            adj[u].push_back(v);
            adj[v].push_back(u);
        }
        puts(dfs(1, 0) ? "Alice" : "Bob");
    }
}
"#;

/// [`HDU3094_RECURSIVE`] with `pad` extra bytes in every frame.
pub fn hdu3094_recursive(pad: usize) -> String {
    HDU3094_RECURSIVE.replacen("[PAD]", &format!("[{pad}]"), 1)
}
