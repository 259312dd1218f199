// HDU 2897, 邂逅明下: take p..q coins (all when fewer than p remain), whoever takes the
// last coin loses. The player to move loses iff 1 <= n % (p + q) <= p.
#include <cstdio>

int main() {
    int n, p, q;
    while (scanf("%d %d %d", &n, &p, &q) == 3) {
        int r = n % (p + q);
        puts(r >= 1 && r <= p ? "LOST" : "WIN");
    }
    return 0;
}
