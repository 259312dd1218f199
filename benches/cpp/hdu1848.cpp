// HDU 1848, Fibonacci again and again: three piles, a move takes a Fibonacci number
// (1, 2, 3, 5, 8, ...) of stones from one pile. SG table by mex up to 1000.
#include <cstdio>
#include <cstring>

const int N = 1000;
int sg[N + 1];

int main() {
    int fib[32], nf = 0;
    fib[nf++] = 1;
    fib[nf++] = 2;
    while (fib[nf - 1] + fib[nf - 2] <= N) {
        fib[nf] = fib[nf - 1] + fib[nf - 2];
        nf++;
    }
    for (int x = 0; x <= N; x++) {
        bool seen[32];
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < nf && fib[i] <= x; i++) seen[sg[x - fib[i]]] = true;
        int v = 0;
        while (seen[v]) v++;
        sg[x] = v;
    }
    int m, n, p;
    while (scanf("%d %d %d", &m, &n, &p) == 3) {
        if (m == 0 && n == 0 && p == 0) break;
        puts(sg[m] ^ sg[n] ^ sg[p] ? "Fibo" : "Nacci");
    }
    return 0;
}
