// HDU 2149 (Public Sale): with N >= M every bid from M to N wins at once; otherwise
// the one winning bid is M mod (N + 1), and there is none when that is 0.
#include <cstdio>

int main() {
    int m, n;
    while (scanf("%d %d", &m, &n) == 2) {
        if (n >= m) {
            for (int t = m; t <= n; t++) printf(t == m ? "%d" : " %d", t);
            putchar('\n');
        } else if (m % (n + 1) != 0) {
            printf("%d\n", m % (n + 1));
        } else {
            puts("none");
        }
    }
    return 0;
}
