// HDU 1846, Brave Game (Bash's game): the first player loses iff n % (m + 1) == 0.
#include <cstdio>

int main() {
    int C;
    if (scanf("%d", &C) != 1) return 0;
    while (C--) {
        int n, m;
        scanf("%d %d", &n, &m);
        puts(n % (m + 1) ? "first" : "second");
    }
    return 0;
}
